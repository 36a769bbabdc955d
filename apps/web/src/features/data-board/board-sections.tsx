import { ReloadOutlined } from '@ant-design/icons';
import { ROLLUP_ORG_TYPES, ROLLUP_REGION_LEVELS } from '@shuzhi/contracts/diy-rollup';
import { Button, Card, Col, Empty, Row, Select, Space, Spin } from 'antd';
import type { EChartsCoreOption } from 'echarts/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { districtFigures } from './board.model.ts';
import { BoardChart } from './board-chart.tsx';
import { ChartCard, Ranking } from './board-parts.tsx';
import type { BoardData } from './data-board.api.ts';
import type { OrgLevel, useBoard } from './use-board.ts';

type Board = ReturnType<typeof useBoard>;
type Target = { key: string; name: string };

/** The name of the breakdown's level (an org type, or a region level). */
export function useLevelName(board: BoardData | undefined): string {
  const { t } = useTranslation();
  if (!board) return '';
  return board.dimension === 'region'
    ? t(`diyLoad.regionLevels.${board.regionLevel as 1}`)
    : t(`diyLoad.orgTypes.${board.orgType}`);
}

/** The filter bar: form, period, level, measure, reload and the records of the whole period. */
export function BoardFilters({
  b,
  picker,
  open,
}: {
  b: Board;
  picker: ReactNode;
  open: (row: Target | null) => void;
}) {
  const { t } = useTranslation();
  const { board, measure } = b;
  const levelOptions: { value: string | number; label: string }[] =
    board?.dimension === 'region'
      ? ROLLUP_REGION_LEVELS.map((l) => ({ value: l, label: t(`diyLoad.regionLevels.${l}`) }))
      : ROLLUP_ORG_TYPES.map((l) => ({ value: l, label: t(`diyLoad.orgTypes.${l}`) }));
  return (
    <Card size="small">
      <Space wrap size={12}>
        {picker}
        {board?.periodic ? (
          <Select
            style={{ width: 180 }}
            aria-label={t('dataBoard.period')}
            value={board.data.period?.id}
            onChange={(value: number) => b.setPeriodId(value)}
            options={(b.periods.data ?? []).map((p) => ({
              value: p.id,
              label: p.name,
              disabled: p.state === 'upcoming',
            }))}
            data-testid="board-period"
          />
        ) : null}
        <Select
          style={{ width: 140 }}
          aria-label={t('dataBoard.level')}
          value={board ? (board.dimension === 'region' ? board.regionLevel : board.orgType) : undefined}
          onChange={(value: string | number) => b.setLevel(value as OrgLevel | number)}
          options={levelOptions}
          data-testid="board-level"
        />
        <Select
          style={{ width: 200 }}
          aria-label={t('dataBoard.measure')}
          value={measure}
          onChange={(value: string) => b.setMeasure(value)}
          options={(board?.measures ?? []).map((m) => ({ value: m.id, label: m.label }))}
          data-testid="board-measure"
        />
        <Button
          icon={<ReloadOutlined />}
          onClick={() => b.query.refetch()}
          aria-label={t('dataBoard.retry')}
        />
        {board ? (
          <Button type="link" onClick={() => open(null)} data-testid="board-records">
            {t('dataBoard.openRecords')}
          </Button>
        ) : null}
      </Space>
    </Card>
  );
}

type Options = {
  trend: EChartsCoreOption;
  breakdown: EChartsCoreOption;
  map: EChartsCoreOption;
  districts: ReturnType<typeof districtFigures>;
};

/** Trend, breakdown, map and ranking, each with its image and Excel. */
export function BoardCharts({
  b,
  board,
  measure,
  label,
  options,
  canExport,
  open,
  exportChart,
}: {
  b: Board;
  board: BoardData;
  measure: string;
  label: string;
  options: Options;
  canExport: boolean;
  open: (row: Target | null) => void;
  exportChart: (chart: 'breakdown' | 'trend', body?: Board['body']) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const levelName = useLevelName(board);
  const id = board.id;
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={12}>
        <ChartCard
          title={t('dataBoard.trend')}
          fileName={`${board.title}-${t('dataBoard.trend')}`}
          canExport={canExport && board.periodic}
          onExport={() => exportChart('trend')}
          testId="board-trend"
        >
          {(ref) =>
            board.periodic ? (
              <BoardChart
                ref={ref}
                option={options.trend}
                onClick={(p) => {
                  const point = board.trend[p.dataIndex];
                  if (point) b.setPeriodId(point.periodId);
                }}
              />
            ) : (
              <Empty description={t('dataBoard.noTrend')} />
            )
          }
        </ChartCard>
      </Col>
      <Col xs={24} xl={12}>
        <ChartCard
          title={`${t('dataBoard.breakdown')} · ${levelName}`}
          fileName={`${board.title}-${t('dataBoard.breakdown')}`}
          canExport={canExport}
          onExport={() => exportChart('breakdown')}
          testId="board-breakdown"
        >
          {(ref) =>
            board.data.rows.length > 0 ? (
              <BoardChart
                ref={ref}
                option={options.breakdown}
                onClick={(p) => {
                  const row = board.data.rows[p.dataIndex];
                  if (row) open(row);
                }}
              />
            ) : (
              <Empty description={t('dataBoard.noData')} />
            )
          }
        </ChartCard>
      </Col>
      <Col xs={24} xl={12}>
        <ChartCard
          title={t('dataBoard.map')}
          fileName={`${board.title}-${t('dataBoard.map')}`}
          canExport={canExport && b.mapQuery.data !== undefined}
          onExport={() =>
            exportChart('breakdown', {
              ...(b.mapQuery.data
                ? {
                    id,
                    periodId: board.data.period?.id,
                    ...(board.dimension === 'region' ? { regionLevel: 3 } : { orgType: 'district' as const }),
                  }
                : b.body),
            })
          }
          testId="board-map"
        >
          {(ref) =>
            // The map series needs its map registered first (the map data loads on first use).
            b.areas.data ? (
              <BoardChart
                ref={ref}
                height={360}
                option={options.map}
                onClick={(p) => {
                  const area = options.districts.find((d) => d.name === p.name);
                  if (area?.key) open({ key: area.key, name: area.name });
                }}
              />
            ) : (
              <Spin />
            )
          }
        </ChartCard>
      </Col>
      <Col xs={24} xl={12}>
        <Card size="small" title={`${t('dataBoard.ranking')} · ${label}`} data-testid="board-ranking">
          <Ranking board={board} measureId={measure} onOpen={open} />
        </Card>
      </Col>
    </Row>
  );
}
