import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Result, Select, Space, Spin } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { feedback } from '../../platform/feedback/feedback.ts';
import { HttpError } from '../../platform/http/http-client.ts';
import { useBranding } from '../../platform/profile/profile.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';
import { boardRecordsPath, districtFigures } from './board.model.ts';
import { SHANGHAI_MAP } from './board-chart.tsx';
import { breakdownOption, mapOption, trendOption } from './board-options.ts';
import { KeyFigures } from './board-parts.tsx';
import { BoardCharts, BoardFilters, useLevelName } from './board-sections.tsx';
import { BOARD_KEYS, boardApi } from './data-board.api.ts';
import { useBoard } from './use-board.ts';

const BLOCKING = ['F1000', 'F1003', 'F1040', 'B1000'] as const;
const codeOf = (error: unknown) => (error instanceof HttpError ? error.code : undefined);

/**
 * 数据看板 (menu component `/dataBoard/form/index`, route `/dataBoard/form?id=`; issue 20 §2): the key figures
 * of a form or roll-up for a period against the last one and last year, the trend over 12 periods, the
 * breakdown by org level or region as bars and on the Shanghai district map, the top and bottom units; each
 * chart as an image or its data as Excel; a bar, a district or a unit opens the records behind it.
 */
export default function DataBoardPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const raw = params.get('id') ?? '';
  const chosen = /^\d{1,16}$/.test(raw) ? Number(raw) : null;
  const list = useQuery({ queryKey: BOARD_KEYS.list, queryFn: boardApi.list, retry: false });
  const id = chosen ?? list.data?.[0]?.id ?? null;
  const picker = (
    <Select
      showSearch={{ optionFilterProp: 'label' }}
      style={{ width: 280 }}
      value={id ?? undefined}
      placeholder={t('dataBoard.formPlaceholder')}
      loading={list.isLoading}
      aria-label={t('dataBoard.form')}
      options={(list.data ?? []).map((item) => ({ value: item.id, label: item.title }))}
      onChange={(value: number) => setParams({ id: String(value) })}
      data-testid="board-form"
    />
  );
  if (id === null) {
    return (
      <Card data-testid="data-board-page">
        {list.isLoading ? <Spin /> : <Empty description={t('dataBoard.noItems')} />}
      </Card>
    );
  }
  return <Board key={id} id={id} picker={picker} />;
}

function Board({ id, picker }: { id: number; picker: React.ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { profile } = useBranding();
  const canExport = useSessionStore((s) => s.buttons.includes('formBoard:export'));
  const b = useBoard(id);
  const { board, measure } = b;
  const label = board?.measures.find((m) => m.id === measure)?.label ?? '';
  const open = (row: { key: string; name: string } | null) => {
    if (board) navigate(boardRecordsPath(board, row));
  };
  const exportChart = (chart: 'breakdown' | 'trend', body = b.body) =>
    boardApi
      .exportXlsx({ ...body, chart }, `${board?.title ?? 'board'}.xlsx`)
      .then(() => feedback.success(t('dataBoard.exported')));

  const options = useMemo(() => {
    if (!board || !measure) return null;
    const districts = b.mapQuery.data
      ? districtFigures(b.mapQuery.data.data.rows, measure, b.areas.data ?? [])
      : [];
    return {
      trend: trendOption(board, measure, label),
      breakdown: breakdownOption(board.data.rows, measure, label),
      map: mapOption(SHANGHAI_MAP, districts, profile?.mapDistrict ?? '', label),
      districts,
    };
  }, [board, measure, label, b.mapQuery.data, b.areas.data, profile?.mapDistrict]);

  const levelName = useLevelName(board);

  if (b.query.error && !board) {
    const code = codeOf(b.query.error);
    const blocking = BLOCKING.includes(code as (typeof BLOCKING)[number]);
    return (
      <Card data-testid="data-board-page" title={picker}>
        <Result
          status={blocking ? '404' : 'error'}
          title={
            blocking ? t(`dataBoard.blocked.${code as (typeof BLOCKING)[number]}`) : t('dataBoard.loadFailed')
          }
          extra={
            blocking ? null : (
              <Button type="primary" onClick={() => b.query.refetch()}>
                {t('dataBoard.retry')}
              </Button>
            )
          }
          data-testid="board-error"
        />
      </Card>
    );
  }

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="data-board-page">
      <BoardFilters b={b} picker={picker} open={open} />
      {!board || !measure || !options ? (
        <Card>
          <Spin />
        </Card>
      ) : (
        <>
          <KeyFigures board={board} measureId={measure} />
          {board.data.outside > 0 ? (
            <Alert
              type="info"
              showIcon
              title={t('dataBoard.outside', { count: board.data.outside, level: levelName })}
            />
          ) : null}
          <BoardCharts
            b={b}
            board={board}
            measure={measure}
            label={label}
            options={options}
            canExport={canExport}
            open={open}
            exportChart={exportChart}
          />
        </>
      )}
    </Space>
  );
}
