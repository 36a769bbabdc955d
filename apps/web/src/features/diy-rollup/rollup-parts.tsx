import { WarningOutlined } from '@ant-design/icons';
import type { RollupData as RollupFigures, RollupInfo, RollupRow } from '@shuzhi/contracts/diy-rollup';
import { Breadcrumb, Button, List, Popover, Segmented, Select, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import type { HTMLAttributes, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { COMPARE_MODES, type CompareMode } from '../../components/diy-rollup/rollup.model.ts';
import type { RollupData } from './use-rollup-data.ts';

/** The figures by row with the 合计 row fixed at the bottom. */
export function RollupTable({
  info,
  data,
  loading,
  columns,
  scrollX,
  figureCell,
}: {
  info: RollupInfo;
  data: RollupFigures;
  loading: boolean;
  columns: ColumnsType<RollupRow>;
  scrollX: number;
  figureCell: (row: RollupRow, measureId: string, label: string, isTotal: boolean) => ReactNode;
}) {
  const { t } = useTranslation();
  const { config } = info;
  const isOrg = config.dimension === 'org';
  return (
    <Table<RollupRow>
      rowKey="key"
      size="small"
      bordered
      columns={columns}
      dataSource={data.rows}
      pagination={false}
      loading={loading}
      scroll={{ x: scrollX, y: 'calc(100vh - 390px)' }}
      onRow={(row) => ({ 'data-testid': `rollup-row-${row.key}` }) as HTMLAttributes<HTMLElement>}
      summary={() => (
        <Table.Summary fixed="bottom">
          <Table.Summary.Row data-testid="rollup-total">
            <Table.Summary.Cell index={0}>
              <Typography.Text strong>{t('diyLoad.total')}</Typography.Text>
            </Table.Summary.Cell>
            {config.measures.map((m, i) => (
              <Table.Summary.Cell key={m.id} index={i + 1} align="right">
                <Typography.Text strong>{figureCell(data.total, m.id, m.label, true)}</Typography.Text>
              </Table.Summary.Cell>
            ))}
            <Table.Summary.Cell index={config.measures.length + 1} align="right">
              {data.total.records}
            </Table.Summary.Cell>
            <Table.Summary.Cell index={config.measures.length + 2} align="right">
              {data.total.pending}
            </Table.Summary.Cell>
            {isOrg ? (
              <Table.Summary.Cell index={config.measures.length + 3} align="right">
                {data.total.missingUnits ?? '—'}
                {data.total.expectedUnits !== null ? ` / ${data.total.expectedUnits}` : ''}
              </Table.Summary.Cell>
            ) : null}
          </Table.Summary.Row>
        </Table.Summary>
      )}
      data-testid="rollup-table"
    />
  );
}

/** The period, or 全部记录 for a form without periods; the comparison and the period it compares with. */
export function RollupFilters({ info, state }: { info: RollupInfo; state: RollupData }) {
  const { t } = useTranslation();
  const { periods, mode, setMode, data, periodId, setPeriodId } = state;
  const periodOptions = (periods.data ?? []).map((p) => ({
    value: p.id,
    label: p.name,
    disabled: p.state === 'upcoming',
  }));
  const shownPeriod = periodId ?? data?.period?.id;
  return (
    <Space wrap size={[16, 8]} style={{ marginBottom: 12 }}>
      <Typography.Text type="secondary">
        {t('diyLoad.source')}
        {t('common.colon')}
        {info.sourceTitle}
      </Typography.Text>
      {info.periodic ? (
        <Space size={6}>
          <Typography.Text>{t('diyLoad.period')}</Typography.Text>
          <Select
            style={{ width: 180 }}
            value={shownPeriod}
            options={periodOptions}
            loading={periods.isLoading}
            onChange={(value: number) => setPeriodId(value)}
            aria-label={t('diyLoad.period')}
            data-testid="rollup-period"
          />
        </Space>
      ) : (
        <Tag>{t('diyLoad.allRecords')}</Tag>
      )}
      {info.periodic ? (
        <Segmented<CompareMode>
          value={mode}
          onChange={setMode}
          options={COMPARE_MODES.map((m) => ({ value: m, label: t(`diyLoad.mode.${m}`) }))}
          aria-label={t('diyLoad.compare')}
          data-testid="rollup-compare"
        />
      ) : null}
      {mode !== 'current' && data ? (
        <Typography.Text type="secondary" data-testid="rollup-mode-period">
          {(() => {
            const other = mode === 'last' || mode === 'mom' ? data.lastPeriod : data.lastYearPeriod;
            const label = t(`diyLoad.mode.${mode === 'mom' ? 'last' : mode === 'yoy' ? 'lastYear' : mode}`);
            return other
              ? t('diyLoad.modePeriod', { mode: label, name: other.name })
              : t('diyLoad.modeNoPeriod', { mode: label });
          })()}
        </Typography.Text>
      ) : null}
    </Space>
  );
}

/** The breadcrumb of the drill-down, the counts of records and pending ones, and the units not filed. */
export function RollupCounts({ info, state }: { info: RollupInfo; state: RollupData }) {
  const { t } = useTranslation();
  const { data, setParent } = state;
  const isOrg = info.config.dimension === 'org';
  const missingCount = data?.total.missingUnits ?? 0;
  const crumbs = [
    {
      title:
        data && data.path.length > 0 ? (
          <Typography.Link onClick={() => setParent(undefined)} data-testid="rollup-crumb-top">
            {t('diyLoad.all')}
          </Typography.Link>
        ) : (
          <span data-testid="rollup-crumb-top">{t('diyLoad.all')}</span>
        ),
    },
    ...(data?.path ?? []).map((p, i, all) => ({
      title:
        i === all.length - 1 ? (
          <span data-testid={`rollup-crumb-${i}`}>{p.name}</span>
        ) : (
          <Typography.Link onClick={() => setParent(p.key)} data-testid={`rollup-crumb-${i}`}>
            {p.name}
          </Typography.Link>
        ),
    })),
  ];
  return (
    <Space wrap size={[24, 8]} style={{ display: 'flex', marginBottom: 12 }} data-testid="rollup-counts">
      <Breadcrumb items={crumbs} data-testid="rollup-breadcrumb" />
      {data ? (
        <>
          <span data-testid="rollup-count-records">
            {t('diyLoad.records')} <Typography.Text strong>{data.total.records}</Typography.Text>
          </span>
          <span data-testid="rollup-count-pending">
            {t('diyLoad.pending')}{' '}
            <Typography.Text strong type={data.total.pending > 0 ? 'warning' : undefined}>
              {data.total.pending}
            </Typography.Text>
          </span>
          {isOrg ? (
            <Popover
              content={<MissingList data={data} />}
              title={t('diyLoad.missingList')}
              trigger="click"
              placement="bottom"
            >
              <Button
                size="small"
                icon={missingCount > 0 ? <WarningOutlined /> : undefined}
                danger={missingCount > 0}
                data-testid="rollup-missing-button"
              >
                {t('diyLoad.missingCount', { count: missingCount })}
              </Button>
            </Popover>
          ) : null}
        </>
      ) : null}
    </Space>
  );
}

/** The units that have not filed (as many as the server lists). */
function MissingList({ data }: { data: RollupFigures | undefined }) {
  const { t } = useTranslation();
  const missingCount = data?.total.missingUnits ?? 0;
  return (
    <div style={{ width: 320, maxHeight: 320, overflowY: 'auto' }} data-testid="rollup-missing-list">
      {data && data.missing.length > 0 ? (
        <>
          <List
            size="small"
            dataSource={data.missing}
            renderItem={(m) => (
              <List.Item key={m.orgId}>
                <Typography.Text ellipsis={{ tooltip: m.orgPath }}>{m.orgPath || m.orgName}</Typography.Text>
              </List.Item>
            )}
          />
          {missingCount > data.missing.length ? (
            <Typography.Text type="secondary">
              {t('diyLoad.missingMore', { count: data.missing.length })}
            </Typography.Text>
          ) : null}
        </>
      ) : (
        <Typography.Text type="secondary">{t('diyLoad.missingNone')}</Typography.Text>
      )}
    </div>
  );
}
