import type { EfficiencyFigures } from '@shuzhi/contracts/efficiency';
import { Card, Col, Row, Statistic, Table, type TableColumnsType, Typography } from 'antd';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useDict } from '../../platform/dict/dict.store.ts';
import { BoardChart } from './board-chart.tsx';
import { ChartCard } from './board-parts.tsx';
import type { Efficiency } from './efficiency.api.ts';
import { figureSorter, formatNumber, formatRate, rateBarsOption, trendOption } from './efficiency.model.ts';

type Unit = Efficiency['units'][number];
const noExport = async () => undefined;

/** An org type's name from the `org_type` dictionary (the code itself when the dictionary has none). */
function useOrgTypeName(): (code: string) => string {
  const items = useDict('org_type');
  return useCallback((code: string) => items.find((i) => i.value === code)?.label ?? code, [items]);
}

/** The key figures of everything counted. */
export function EfficiencyFiguresRow({ data }: { data: Efficiency }) {
  const { t, i18n } = useTranslation();
  const n = (v: number | null, digits?: number) => formatNumber(v, i18n.language, digits);
  const f = data.total;
  const cards: { key: keyof EfficiencyFigures; value: string }[] = [
    { key: 'onTimeRate', value: formatRate(f.onTimeRate) },
    { key: 'avgDaysBeforeDue', value: n(f.avgDaysBeforeDue, 1) },
    { key: 'late', value: n(f.late) },
    { key: 'returnsPerRecord', value: n(f.returnsPerRecord) },
    { key: 'avgReviewHours', value: n(f.avgReviewHours, 1) },
    { key: 'recordsPerFiller', value: n(f.recordsPerFiller) },
  ];
  return (
    <Row gutter={[16, 16]}>
      {cards.map((c) => (
        <Col key={c.key} xs={12} md={8} xl={4}>
          <Card size="small" data-testid={`efficiency-kpi-${c.key}`}>
            <Statistic title={t(`efficiencyBoard.${c.key as 'late'}`)} value={c.value} />
            {c.key === 'onTimeRate' ? (
              <Typography.Text type="secondary">
                {t('efficiencyBoard.cells', { expected: f.expected, submitted: f.submitted })}
              </Typography.Text>
            ) : null}
          </Card>
        </Col>
      ))}
    </Row>
  );
}

/** The trend by month, the on-time rate by level and by form (each chart can be saved as an image). */
export function EfficiencyCharts({ data }: { data: Efficiency }) {
  const { t } = useTranslation();
  const typeName = useOrgTypeName();
  const rate = t('efficiencyBoard.onTimeRate');
  const options = useMemo(
    () => ({
      trend: trendOption(data.trend, { rate, late: t('efficiencyBoard.late') }),
      levels: rateBarsOption(
        data.levels.map((l) => ({ ...l, name: typeName(l.orgType) })),
        rate,
      ),
      forms: rateBarsOption(
        data.forms.map((f) => ({ ...f, name: f.title })),
        rate,
      ),
    }),
    [data, rate, t, typeName],
  );
  const charts = [
    { key: 'trend', title: t('efficiencyBoard.trend'), span: 24 },
    { key: 'levels', title: t('efficiencyBoard.byLevel'), span: 12 },
    { key: 'forms', title: t('efficiencyBoard.byForm'), span: 12 },
  ] as const;
  return (
    <Row gutter={[16, 16]}>
      {charts.map((c) => (
        <Col key={c.key} xs={24} xl={c.span}>
          <ChartCard
            title={c.title}
            fileName={`${t('efficiencyBoard.title')}-${c.title}`}
            canExport={false}
            onExport={noExport}
            testId={`efficiency-${c.key}`}
          >
            {(ref) => <BoardChart ref={ref} option={options[c.key]} height={c.key === 'trend' ? 300 : 280} />}
          </ChartCard>
        </Col>
      ))}
    </Row>
  );
}

/** The ranking: every unit counted, sortable by each figure, paged in the browser. */
export function EfficiencyRanking({ units }: { units: Efficiency['units'] }) {
  const { t, i18n } = useTranslation();
  const typeName = useOrgTypeName();
  const n = (v: number | null, digits?: number) => formatNumber(v, i18n.language, digits);
  const ranked = useMemo(() => units.map((u, i) => ({ ...u, rank: i + 1 })), [units]);
  const figure = (key: keyof EfficiencyFigures, render: (u: Unit) => string) => ({
    key,
    dataIndex: key,
    title: t(`efficiencyBoard.${key as 'late'}`),
    align: 'right' as const,
    sorter: figureSorter(key),
    render: (_: unknown, u: Unit) => render(u),
  });
  const columns: TableColumnsType<Unit & { rank: number }> = [
    {
      key: 'rank',
      dataIndex: 'rank',
      title: t('efficiencyBoard.rank'),
      width: 72,
      sorter: (a, b) => a.rank - b.rank,
    },
    { key: 'orgName', dataIndex: 'orgName', title: t('efficiencyBoard.unit'), ellipsis: true },
    {
      key: 'orgType',
      dataIndex: 'orgType',
      title: t('efficiencyBoard.orgType'),
      render: (v: string) => typeName(v),
    },
    figure('expected', (u) => n(u.expected)),
    figure('onTimeRate', (u) => formatRate(u.onTimeRate)),
    figure('avgDaysBeforeDue', (u) => n(u.avgDaysBeforeDue, 1)),
    figure('late', (u) => n(u.late)),
    figure('returnsPerRecord', (u) => n(u.returnsPerRecord)),
    figure('avgReviewHours', (u) => n(u.avgReviewHours, 1)),
    figure('records', (u) => n(u.records)),
    figure('recordsPerFiller', (u) => n(u.recordsPerFiller)),
  ];
  return (
    <Card size="small" title={t('efficiencyBoard.ranking')} data-testid="efficiency-ranking">
      <Table
        rowKey="orgId"
        size="small"
        columns={columns}
        dataSource={ranked}
        scroll={{ x: 960 }}
        pagination={{ defaultPageSize: 10, showSizeChanger: true, hideOnSinglePage: false }}
      />
    </Card>
  );
}
