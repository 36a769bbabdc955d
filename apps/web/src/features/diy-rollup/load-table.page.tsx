import {
  ApartmentOutlined,
  LockOutlined,
  ReloadOutlined,
  SettingOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import type { RollupInfo, RollupRow } from '@shuzhi/contracts/diy-rollup';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Breadcrumb,
  Button,
  Card,
  Empty,
  List,
  Popover,
  Result,
  Segmented,
  Select,
  Space,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import type { TFunction } from 'i18next';
import { type HTMLAttributes, type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { PERIOD_KEYS, periodApi } from '../../components/diy-period/diy-period.api.ts';
import { useFormPasswordPrompt } from '../../components/diy-report/form-password.tsx';
import { setFormPageTitle } from '../../components/diy-report/open-form-item.ts';
import { ROLLUP_KEYS, rollupApi } from '../../components/diy-rollup/diy-rollup.api.ts';
import {
  COMPARE_MODES,
  type CompareMode,
  figureIn,
  periodOfMode,
  recordsPath,
} from '../../components/diy-rollup/rollup.model.ts';
import { RollupConfigModal, type RollupTarget } from '../../components/diy-rollup/rollup-config-modal.tsx';
import { errorCodeIn, hasErrorCode } from '../../platform/http/http-client.ts';

/** Answers that end on a result page. */
const BLOCKING = ['F1000', 'F1003', 'F1040'] as const;

/**
 * 汇总表 (menu component `/diyLoad/loadTable/index`, route `/diyLoad/index/loadTable?id=…`): a roll-up's
 * figures for a period by org level or region, with a 合计 row, comparison with last period and last year,
 * drill-down by the breadcrumb, the records behind each figure, and the units that have not filed.
 */
export default function LoadTablePage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const raw = params.get('id') ?? '';
  const id = /^\d{1,16}$/.test(raw) ? Number(raw) : null;
  if (id === null) return <Result status="404" title={t('diyLoad.noRollup')} data-testid="rollup-missing" />;
  return <LoadTable key={id} id={id} />;
}

function blockedResult(error: unknown, retry: () => void, t: TFunction): ReactNode {
  const blocking = errorCodeIn(error, BLOCKING);
  return (
    <Result
      status={blocking ? (blocking === 'F1003' ? 'warning' : '404') : 'error'}
      title={blocking ? t(`diyLoad.blocked.${blocking}`) : t('diyLoad.loadFailed')}
      subTitle={error instanceof Error ? error.message : undefined}
      extra={
        blocking ? null : (
          <Button type="primary" onClick={retry} data-testid="rollup-retry">
            {t('diyLoad.retry')}
          </Button>
        )
      }
      data-testid="rollup-error"
    />
  );
}

function LoadTable({ id }: { id: number }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const client = useQueryClient();
  const info = useQuery({ queryKey: ROLLUP_KEYS.info(id), queryFn: () => rollupApi.info(id), retry: false });
  const title = info.data?.title;
  useEffect(() => {
    if (title) setFormPageTitle(pathname, id, title);
  }, [title, pathname, id]);
  const [editing, setEditing] = useState<RollupTarget>(null);

  if (info.isLoading) return <Card loading data-testid="rollup-loading" />;
  if (info.error || !info.data) return blockedResult(info.error, () => void info.refetch(), t);
  const data = info.data;
  return (
    <>
      <Figures
        info={data}
        onEdit={() =>
          setEditing({
            id: data.id,
            title: data.title,
            categoryId: data.categoryId,
            remark: data.remark,
            config: data.config,
          })
        }
      />
      <RollupConfigModal
        target={editing}
        onClose={() => setEditing(null)}
        onSaved={() => void client.invalidateQueries({ queryKey: ROLLUP_KEYS.all })}
      />
    </>
  );
}

function Figures({ info, onEdit }: { info: RollupInfo; onEdit: () => void }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [periodId, setPeriodId] = useState<number | undefined>(undefined);
  const [parent, setParent] = useState<string | undefined>(undefined);
  const [mode, setMode] = useState<CompareMode>('current');
  const { config } = info;

  const periods = useQuery({
    queryKey: PERIOD_KEYS.list(info.sourceTableId),
    queryFn: () => periodApi.list(info.sourceTableId),
    enabled: info.periodic,
    retry: false,
  });
  const body = useMemo(
    () => ({
      ...(periodId === undefined ? {} : { periodId }),
      ...(parent === undefined ? {} : { parent }),
      compare: mode !== 'current',
    }),
    [periodId, parent, mode],
  );
  const query = useQuery({
    queryKey: ROLLUP_KEYS.data(info.id, body),
    queryFn: () => rollupApi.data(info.id, body),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const data = query.data;

  // A source form behind a password: its sums ask for it too (F1007), once per session.
  const password = useFormPasswordPrompt();
  const { prompt } = password;
  const locked = hasErrorCode(query.error, 'F1007');
  const unlock = useCallback(async () => {
    if (await prompt(info.sourceTableId, info.sourceTitle)) void query.refetch();
  }, [prompt, info.sourceTableId, info.sourceTitle, query.refetch]);
  useEffect(() => {
    if (locked) void unlock();
  }, [locked, unlock]);

  const number = useMemo(
    () => new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 }),
    [i18n.language],
  );
  const percent = (value: number) => `${value > 0 ? '+' : ''}${number.format(value)}%`;
  const isPercent = mode === 'mom' || mode === 'yoy';
  const period = data ? periodOfMode(data, mode) : null;

  const openRecords = (target: { key: string; name: string } | null) =>
    navigate(recordsPath(info, info.periodic ? (period?.id ?? null) : null, target));

  const figureCell = (row: RollupRow, measureId: string, label: string, isTotal: boolean) => {
    const value = figureIn(row, measureId, mode);
    if (isPercent) {
      if (value === null) return <Typography.Text type="secondary">—</Typography.Text>;
      return (
        <Typography.Text type={value > 0 ? 'success' : value < 0 ? 'danger' : undefined}>
          {percent(value)}
        </Typography.Text>
      );
    }
    const text = value === null ? '—' : number.format(value);
    // The records behind the figure: the row's subtree (or region), or the level's for the total; the
    // parent's own row (（本级）, drilled) holds the records the parent org filed itself.
    const target = isTotal
      ? (data?.path.at(-1) ?? null)
      : { key: row.key, name: row.name, own: parent !== undefined && row.key === parent };
    if (info.periodic && !period) return text;
    return (
      <Tooltip
        title={t('diyLoad.openRecords', { name: isTotal ? t('diyLoad.total') : row.name, measure: label })}
      >
        <Button
          type="link"
          size="small"
          style={{ padding: 0, height: 'auto' }}
          onClick={() => openRecords(target)}
          data-testid={isTotal ? `rollup-total-${measureId}` : `rollup-fig-${row.key}-${measureId}`}
        >
          {text}
        </Button>
      </Tooltip>
    );
  };

  const statusesText =
    config.statuses === 'approved' ? t('diyLoad.statusesApproved') : t('diyLoad.statusesSubmitted');
  const isOrg = config.dimension === 'org';
  const columns: ColumnsType<RollupRow> = [
    {
      key: 'name',
      title: isOrg ? t('diyLoad.nameOrg') : (info.regionFieldLabel ?? t('diyLoad.nameRegion')),
      dataIndex: 'name',
      fixed: 'left',
      width: 200,
      ellipsis: true,
      render: (name: string, row) =>
        row.hasChildren ? (
          <Tooltip title={t('diyLoad.drill', { name })}>
            <Button
              type="link"
              size="small"
              style={{ padding: 0 }}
              icon={<ApartmentOutlined />}
              onClick={() => setParent(row.key)}
              data-testid={`rollup-drill-${row.key}`}
            >
              {name}
            </Button>
          </Tooltip>
        ) : (
          <span data-testid={`rollup-name-${row.key}`}>{name}</span>
        ),
    },
    ...config.measures.map((m) => ({
      key: m.id,
      title: m.label,
      align: 'right' as const,
      width: 112,
      render: (_: unknown, row: RollupRow) => figureCell(row, m.id, m.label, false),
    })),
    {
      key: 'records',
      title: (
        <Tooltip title={t('diyLoad.recordsHint', { statuses: statusesText })}>{t('diyLoad.records')}</Tooltip>
      ),
      dataIndex: 'records',
      align: 'right',
      width: 84,
    },
    {
      key: 'pending',
      title: <Tooltip title={t('diyLoad.pendingHint')}>{t('diyLoad.pending')}</Tooltip>,
      dataIndex: 'pending',
      align: 'right',
      width: 84,
      render: (n: number) => (n > 0 ? <Typography.Text type="warning">{n}</Typography.Text> : n),
    },
    ...(isOrg
      ? [
          {
            key: 'units',
            title: <Tooltip title={t('diyLoad.unitsHint')}>{t('diyLoad.units')}</Tooltip>,
            align: 'right' as const,
            width: 104,
            render: (_: unknown, row: RollupRow) => (
              <span data-testid={`rollup-units-${row.key}`}>
                {row.missingUnits ? (
                  <Typography.Text type="danger">{row.missingUnits}</Typography.Text>
                ) : (
                  (row.missingUnits ?? '—')
                )}
                {row.expectedUnits !== null ? ` / ${row.expectedUnits}` : ''}
              </span>
            ),
          },
        ]
      : []),
  ];
  const scrollX = columns.reduce((sum, c) => sum + Number((c as { width?: number }).width ?? 100), 0);

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

  const periodOptions = (periods.data ?? []).map((p) => ({
    value: p.id,
    label: p.name,
    disabled: p.state === 'upcoming',
  }));
  const shownPeriod = periodId ?? data?.period?.id;

  let content: ReactNode;
  if (query.isLoading) content = <Card loading variant="borderless" data-testid="rollup-data-loading" />;
  else if (locked)
    content = (
      <Result
        icon={<LockOutlined />}
        title={t('diyLoad.lockedTitle')}
        subTitle={t('diyLoad.locked', { name: info.sourceTitle })}
        extra={
          <Button type="primary" onClick={() => void unlock()} data-testid="rollup-unlock">
            {t('diyLoad.enterPassword')}
          </Button>
        }
        data-testid="rollup-locked"
      />
    );
  else if (query.error && !data) content = blockedResult(query.error, () => void query.refetch(), t);
  else if (data && info.periodic && !data.period)
    content = <Empty description={t('diyLoad.noPeriod')} data-testid="rollup-empty" />;
  else if (data && data.rows.length === 0)
    content = (
      <Empty description={parent ? t('diyLoad.emptyDrill') : t('diyLoad.empty')} data-testid="rollup-empty" />
    );
  else if (data)
    content = (
      <Table<RollupRow>
        rowKey="key"
        size="small"
        bordered
        columns={columns}
        dataSource={data.rows}
        pagination={false}
        loading={query.isFetching}
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

  const missingCount = data?.total.missingUnits ?? 0;
  const missingList = (
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

  return (
    <Card
      title={<span data-testid="rollup-title">{info.title}</span>}
      extra={
        <Space wrap>
          <Button icon={<ReloadOutlined />} onClick={() => void query.refetch()} data-testid="rollup-refresh">
            {t('diyLoad.refresh')}
          </Button>
          {info.canEdit ? (
            <Button icon={<SettingOutlined />} onClick={onEdit} data-testid="rollup-edit">
              {t('diyLoad.editConfig')}
            </Button>
          ) : null}
        </Space>
      }
      data-testid="rollup-page"
    >
      <Space wrap size={[16, 8]} style={{ marginBottom: 12 }}>
        <Typography.Text type="secondary">
          {t('diyLoad.source')}：{info.sourceTitle}
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
                content={missingList}
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
      {data && (data.total.pending > 0 || missingCount > 0) && data.rows.length > 0 ? (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          title={t('diyLoad.partial', { pending: data.total.pending, missing: missingCount })}
          data-testid="rollup-partial"
        />
      ) : null}
      {data && data.outside > 0 ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          title={t('diyLoad.outside', { count: data.outside })}
          data-testid="rollup-outside"
        />
      ) : null}
      {query.error && data && !locked ? (
        <Alert type="error" showIcon style={{ marginBottom: 12 }} title={query.error.message} />
      ) : null}
      {content}
      {password.contextHolder}
    </Card>
  );
}
