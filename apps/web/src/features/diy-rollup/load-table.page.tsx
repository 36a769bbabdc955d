import { LockOutlined, ReloadOutlined, SettingOutlined } from '@ant-design/icons';
import type { RollupInfo } from '@shuzhi/contracts/diy-rollup';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Result, Space } from 'antd';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import { QUERY_KEYS, queryApi } from '../../components/diy-query/diy-query.api.ts';
import { setFormPageTitle } from '../../components/diy-report/open-form-item.ts';
import { ROLLUP_KEYS, rollupApi } from '../../components/diy-rollup/diy-rollup.api.ts';
import { RollupConfigModal, type RollupTarget } from '../../components/diy-rollup/rollup-config-modal.tsx';
import { useRollupColumns } from './rollup-columns.tsx';
import { RollupCounts, RollupFilters, RollupTable } from './rollup-parts.tsx';
import { codeOf, useRollupData } from './use-rollup-data.ts';

const QueryReportView = lazy(() => import('../../components/diy-query/query-report-view.tsx'));

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
  return <ByKind key={id} id={id} />;
}

/** Report types 2 and 3 both open here (SPEC §2): a query report shows its own view, a roll-up its figures. */
function ByKind({ id }: { id: number }) {
  const kind = useQuery({ queryKey: QUERY_KEYS.kind(id), queryFn: () => queryApi.kind(id), retry: false });
  if (kind.isLoading) return <Card loading data-testid="rollup-loading" />;
  if (kind.data?.reportType === 3)
    return (
      <Suspense fallback={<Card loading />}>
        <QueryReportView id={id} />
      </Suspense>
    );
  return <LoadTable id={id} />;
}

function blockedResult(error: unknown, retry: () => void, t: (key: string) => string): ReactNode {
  const code = codeOf(error);
  const blocking = BLOCKING.includes(code as (typeof BLOCKING)[number]);
  return (
    <Result
      status={blocking ? (code === 'F1003' ? 'warning' : '404') : 'error'}
      title={blocking ? t(`diyLoad.blocked.${code}`) : t('diyLoad.loadFailed')}
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

/** The roll-up's card: its filters and counts, then the figures (or why there are none). */
function Figures({ info, onEdit }: { info: RollupInfo; onEdit: () => void }) {
  const { t } = useTranslation();
  const state = useRollupData(info);
  const { query, data, parent, locked, unlock, password } = state;
  const { columns, scrollX, figureCell } = useRollupColumns({
    info,
    data,
    mode: state.mode,
    parent,
    setParent: state.setParent,
  });

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
      <RollupTable
        info={info}
        data={data}
        loading={query.isFetching}
        columns={columns}
        scrollX={scrollX}
        figureCell={figureCell}
      />
    );

  const missingCount = data?.total.missingUnits ?? 0;

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
      <RollupFilters info={info} state={state} />
      <RollupCounts info={info} state={state} />
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
