import { RECORD_STATUS } from '@shuzhi/contracts/diy-form';
import { AUDIT_STATUS_ALL } from '@shuzhi/contracts/diy-table';
import { DESC_STR_DEFAULT } from '@shuzhi/contracts/envelope';
import { useQuery } from '@tanstack/react-query';
import { Badge, Card, Col, Form, Row, Space, Tabs } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailedAlert } from '../../components/crud-page/load-failed-alert.tsx';
import { useTablePaging } from '../../components/crud-page/table-paging.ts';
import { useAuditColumns } from './audit-columns.tsx';
import { AuditFormsMenu } from './audit-forms-menu.tsx';
import { AuditTable } from './audit-table.tsx';
import { AuditSearch, AuditToolbar, type SearchValues } from './audit-toolbar.tsx';
import { AUDIT_KEYS, type AuditPageInput, type AuditRow, auditApi } from './diy-audit.api.ts';
import { ReviewDrawer } from './review-drawer.tsx';
import { useAuditReview } from './use-audit-review.ts';

type StatusTab = 'pending' | 'approved' | 'returned' | 'all';
/** The status each tab asks for; 全部 sends -1, meaning every reviewed state 1–3 (drafts never reach a reviewer). */
const TAB_STATUS: Record<StatusTab, number> = {
  pending: RECORD_STATUS.submitted,
  approved: RECORD_STATUS.approved,
  returned: RECORD_STATUS.returned,
  all: AUDIT_STATUS_ALL,
};
type Filters = { keyword?: string; submitTime?: [string, string] };

const DAY = 'YYYY-MM-DD';

/**
 * 报表审核 (issue 5 §5): the records of every form the caller reviews. A reviewer opens a record, approves
 * it or returns it with a comment; several pending records can be approved at once.
 */
export default function DiyAuditPage() {
  const { t } = useTranslation();
  const [searchForm] = Form.useForm<SearchValues>();

  const [tableId, setTableId] = useState<number | null>(null);
  const [tab, setTab] = useState<StatusTab>('pending');
  const [filters, setFilters] = useState<Filters>({});
  const { paging, setPaging, sort, onTableChange } = useTablePaging<AuditRow>();
  const [selected, setSelected] = useState<AuditRow[]>([]);
  const [viewing, setViewing] = useState<AuditRow | null>(null);
  const [returning, setReturning] = useState<AuditRow | null>(null);
  const review = useAuditReview({ setSelected, viewing, setViewing, setReturning });

  const forms = useQuery({ queryKey: AUDIT_KEYS.forms, queryFn: auditApi.forms });
  const body = useMemo<AuditPageInput>(
    () => ({
      page: paging.page,
      pageSize: paging.pageSize,
      descStr: DESC_STR_DEFAULT,
      status: TAB_STATUS[tab],
      ...(tableId ? { tableId } : {}),
      ...filters,
      ...(sort ?? {}),
    }),
    [paging, tab, tableId, filters, sort],
  );
  const query = useQuery({ queryKey: AUDIT_KEYS.page(body), queryFn: () => auditApi.page(body) });
  const columns = useAuditColumns({ tableId, sort, onOpen: setViewing });

  const formList = forms.data ?? [];
  const pendingAll = formList.reduce((sum, form) => sum + form.pending, 0);
  const pendingShown = tableId ? (formList.find((f) => f.value === tableId)?.pending ?? 0) : pendingAll;
  const filtered = Boolean(filters.keyword || filters.submitTime);

  const restart = () => {
    setPaging((p) => ({ ...p, page: 1 }));
    setSelected([]);
  };
  const search = (values: SearchValues) => {
    const [from, to] = values.submitTime ?? [];
    setFilters({
      ...(values.keyword?.trim() ? { keyword: values.keyword.trim() } : {}),
      ...(from || to ? { submitTime: [from ? from.format(DAY) : '', to ? to.format(DAY) : ''] } : {}),
    });
    restart();
  };
  const reset = () => {
    searchForm.resetFields();
    search({});
  };

  const pendingLabel = forms.data ? (
    <Space size={6}>
      {t('diyAudit.tabPending')}
      <Badge count={pendingShown} showZero={false} overflowCount={999} data-testid="audit-pending-count" />
    </Space>
  ) : (
    t('diyAudit.tabPending')
  );
  const pendingSelected = selected.filter((row) => row.status === RECORD_STATUS.submitted);

  return (
    <Row gutter={[16, 16]} wrap={false} data-testid="audit-page">
      <Col flex="240px" style={{ minWidth: 0 }}>
        <Card title={t('diyAudit.forms')} size="small" styles={{ body: { padding: 4 } }}>
          <AuditFormsMenu
            forms={forms}
            tableId={tableId}
            onSelect={(id) => {
              setTableId(id);
              restart();
            }}
          />
        </Card>
      </Col>
      <Col flex="auto" style={{ minWidth: 0 }}>
        <Card title={t('diyAudit.title')}>
          <Tabs
            activeKey={tab}
            onChange={(key) => {
              setTab(key as StatusTab);
              restart();
            }}
            items={[
              { key: 'pending', label: pendingLabel },
              { key: 'approved', label: t('diyAudit.tabApproved') },
              { key: 'returned', label: t('diyAudit.tabReturned') },
              { key: 'all', label: t('diyAudit.tabAll') },
            ]}
            data-testid="audit-tabs"
          />
          <AuditSearch form={searchForm} onSearch={search} onReset={reset} />
          <AuditToolbar
            pendingSelected={pendingSelected}
            approving={review.approving}
            viewing={viewing !== null}
            onApprove={() => review.approve(pendingSelected)}
            onRefresh={() => {
              void query.refetch();
              void forms.refetch();
            }}
          />
          {query.isError ? (
            <LoadFailedAlert
              title={t('diyAudit.loadFailed')}
              error={query.error}
              onRetry={() => void query.refetch()}
              testId="audit-error"
            />
          ) : null}
          <AuditTable
            query={query}
            columns={columns}
            paging={paging}
            onTableChange={onTableChange}
            selected={selected}
            onSelect={setSelected}
            onOpen={setViewing}
            emptyText={tab === 'pending' && !filtered ? t('diyAudit.empty') : t('diyAudit.emptyFiltered')}
          />
        </Card>
      </Col>
      {viewing ? (
        <ReviewDrawer
          viewing={viewing}
          returning={returning}
          review={review}
          onClose={() => setViewing(null)}
          onReturn={setReturning}
          onReturnCancel={() => setReturning(null)}
        />
      ) : null}
    </Row>
  );
}
