import { FileExcelOutlined, ReloadOutlined } from '@ant-design/icons';
import { ROLLUP_ORG_TYPES } from '@shuzhi/contracts/diy-rollup';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, DatePicker, Empty, Result, Select, Space, Spin, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../platform/feedback/feedback.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';
import { EFFICIENCY_KEYS, type EfficiencyQuery, efficiencyApi } from './efficiency.api.ts';
import { EfficiencyCharts, EfficiencyFiguresRow, EfficiencyRanking } from './efficiency-parts.tsx';

type OrgLevel = (typeof ROLLUP_ORG_TYPES)[number];
const MONTH = 'YYYY-MM';

/**
 * 效率分析 (menu component `/dataBoard/index`; issue 20 §3): how promptly and cleanly the units in the caller's
 * data scope filed what tasks asked — on-time rate, days before due, late cells, returns per record, review
 * turnaround, records per filler — in total, by month, level and form, and a ranking of the units; filters by
 * form, due months and unit level; the ranking as Excel with efficiencyBoard:export.
 */
export default function EfficiencyPage() {
  const { t } = useTranslation();
  const canExport = useSessionStore((s) => s.buttons.includes('efficiencyBoard:export'));
  const [tableId, setTableId] = useState<number | undefined>(undefined);
  // As the server's default: 12 months ending with next month (parts due soon count too).
  const [months, setMonths] = useState<[Dayjs, Dayjs]>(() => [
    dayjs().subtract(10, 'month'),
    dayjs().add(1, 'month'),
  ]);
  const [orgType, setOrgType] = useState<OrgLevel | undefined>(undefined);
  const query = useMemo<EfficiencyQuery>(
    () => ({
      from: months[0].format(MONTH),
      to: months[1].format(MONTH),
      ...(tableId === undefined ? {} : { tableId }),
      ...(orgType === undefined ? {} : { orgType }),
    }),
    [months, tableId, orgType],
  );
  const result = useQuery({
    queryKey: EFFICIENCY_KEYS.data(query),
    queryFn: () => efficiencyApi.data(query),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const data = result.data;
  const exportRanking = () =>
    efficiencyApi
      .exportXlsx(query, `${t('efficiencyBoard.title')}.xlsx`)
      .then(() => feedback.success(t('efficiencyBoard.exported')))
      .catch(() => undefined);

  const filters = (
    <Card size="small">
      <Space wrap size={12}>
        <Select
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          style={{ width: 240 }}
          aria-label={t('efficiencyBoard.form')}
          placeholder={t('efficiencyBoard.allForms')}
          value={tableId}
          onChange={(value?: number) => setTableId(value)}
          options={(data?.formOptions ?? []).map((f) => ({ value: f.tableId, label: f.title }))}
          data-testid="efficiency-form"
        />
        <DatePicker.RangePicker
          picker="month"
          allowClear={false}
          aria-label={t('efficiencyBoard.months')}
          value={months}
          onChange={(value) => {
            if (value?.[0] && value[1]) setMonths([value[0], value[1]]);
          }}
          data-testid="efficiency-months"
        />
        <Select
          allowClear
          style={{ width: 140 }}
          aria-label={t('efficiencyBoard.level')}
          placeholder={t('efficiencyBoard.allLevels')}
          value={orgType}
          onChange={(value?: OrgLevel) => setOrgType(value)}
          options={ROLLUP_ORG_TYPES.map((l) => ({ value: l, label: t(`diyLoad.orgTypes.${l}`) }))}
          data-testid="efficiency-level"
        />
        <Button
          icon={<ReloadOutlined />}
          onClick={() => result.refetch()}
          aria-label={t('efficiencyBoard.reload')}
        />
        {canExport && data && data.units.length > 0 ? (
          <Button icon={<FileExcelOutlined />} onClick={exportRanking} data-testid="efficiency-export">
            {t('efficiencyBoard.exportExcel')}
          </Button>
        ) : null}
        {data ? (
          <Typography.Text type="secondary" data-testid="efficiency-counts">
            {t('efficiencyBoard.tasks', { count: data.tasks })} ·{' '}
            {t('efficiencyBoard.units', { count: data.units.length })}
          </Typography.Text>
        ) : null}
      </Space>
    </Card>
  );

  let body: React.ReactNode;
  if (result.error && !data) {
    body = (
      <Card>
        <Result
          status="error"
          title={t('efficiencyBoard.loadFailed')}
          subTitle={result.error.message}
          extra={
            <Button type="primary" onClick={() => result.refetch()}>
              {t('efficiencyBoard.retry')}
            </Button>
          }
          data-testid="efficiency-error"
        />
      </Card>
    );
  } else if (!data) {
    body = (
      <Card>
        <Spin />
      </Card>
    );
  } else if (data.total.expected === 0) {
    body = (
      <Card>
        <Empty description={t('efficiencyBoard.empty')} data-testid="efficiency-empty" />
      </Card>
    );
  } else {
    body = (
      <>
        <EfficiencyFiguresRow data={data} />
        <EfficiencyCharts data={data} />
        <EfficiencyRanking units={data.units} />
      </>
    );
  }
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="efficiency-page">
      {filters}
      {result.error && data ? <Alert type="error" showIcon title={result.error.message} /> : null}
      <Spin spinning={result.isFetching && !!data}>
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          {body}
        </Space>
      </Spin>
      <Typography.Text type="secondary">{t('efficiencyBoard.hint')}</Typography.Text>
    </Space>
  );
}
