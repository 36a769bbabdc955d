import {
  AuditOutlined,
  CheckOutlined,
  EyeOutlined,
  ReloadOutlined,
  RollbackOutlined,
} from '@ant-design/icons';
import { RECORD_STATUS } from '@shuzhi/contracts/diy-form';
import { AUDIT_STATUS_ALL } from '@shuzhi/contracts/diy-table';
import { DESC_STR_DEFAULT } from '@shuzhi/contracts/envelope';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Badge,
  Button,
  type ButtonProps,
  Card,
  Col,
  DatePicker,
  Empty,
  Form,
  Input,
  Menu,
  Popconfirm,
  Row,
  Skeleton,
  Space,
  Table,
  Tabs,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import type { ColumnsType, ColumnType } from 'antd/es/table/interface';
import type { Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailedAlert } from '../../components/crud-page/load-failed-alert.tsx';
import { SearchActions } from '../../components/crud-page/search-actions.tsx';
import { tablePagination, useTablePaging } from '../../components/crud-page/table-paging.ts';
import { DisabledReason } from '../../components/disabled-reason.tsx';
import { DIY_RECORD_KEYS } from '../../components/diy-record/diy-record.api.ts';
import { RecordStatusTag } from '../../components/diy-record/record-status-tag.tsx';
import { RecordViewDrawer } from '../../components/diy-record/record-view-drawer.tsx';
import { useReclickGuard } from '../../components/use-reclick-guard.ts';
import { hasErrorCode, UnauthorizedError } from '../../platform/http/http-client.ts';
import {
  AUDIT_KEYS,
  type AuditPageInput,
  type AuditRow,
  auditApi,
  auditKey,
  byForm,
} from './diy-audit.api.ts';
import { ReturnDialog } from './return-dialog.tsx';

type StatusTab = 'pending' | 'approved' | 'returned' | 'all';
/** The status each tab asks for; 全部 sends -1, meaning every reviewed state 1–3 (drafts never reach a reviewer). */
const TAB_STATUS: Record<StatusTab, number> = {
  pending: RECORD_STATUS.submitted,
  approved: RECORD_STATUS.approved,
  returned: RECORD_STATUS.returned,
  all: AUDIT_STATUS_ALL,
};
type SearchValues = { keyword?: string; submitTime?: [Dayjs | null, Dayjs | null] | null };
type Filters = { keyword?: string; submitTime?: [string, string] };

const TIME_WIDTH = 160;
const DAY = 'YYYY-MM-DD';

/**
 * 报表审核 (issue 5 §5): the records of every form the caller reviews. A reviewer opens a record, approves
 * it or returns it with a comment; several pending records can be approved at once.
 */
export default function DiyAuditPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [searchForm] = Form.useForm<SearchValues>();

  const [tableId, setTableId] = useState<number | null>(null);
  const [tab, setTab] = useState<StatusTab>('pending');
  const [filters, setFilters] = useState<Filters>({});
  const { paging, setPaging, sort, onTableChange } = useTablePaging<AuditRow>();
  const [selected, setSelected] = useState<AuditRow[]>([]);
  const [viewing, setViewing] = useState<AuditRow | null>(null);
  const [returning, setReturning] = useState<AuditRow | null>(null);
  const [approving, setApproving] = useState(false);

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
  const rows = query.data?.items ?? [];

  const formList = forms.data ?? [];
  const pendingAll = formList.reduce((sum, form) => sum + form.pending, 0);
  const pendingShown = tableId ? (formList.find((f) => f.value === tableId)?.pending ?? 0) : pendingAll;
  const filtered = Boolean(filters.keyword || filters.submitTime);

  const showError = (error: unknown) => {
    if (error instanceof UnauthorizedError) return;
    message.error(error instanceof Error && error.message ? error.message : t('crud.failed'));
  };
  const restart = () => {
    setPaging((p) => ({ ...p, page: 1 }));
    setSelected([]);
  };
  /** After a review: the list, the counts and the record's own caches (detail, history). */
  const refresh = (tableIds: Iterable<number>) => {
    void client.invalidateQueries({ queryKey: AUDIT_KEYS.all });
    for (const id of new Set(tableIds)) void client.invalidateQueries({ queryKey: DIY_RECORD_KEYS.form(id) });
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

  const approve = useReclickGuard(async (targets: AuditRow[]) => {
    if (targets.length === 0 || approving) return;
    setApproving(true);
    let approved = 0;
    const failures: string[] = [];
    try {
      for (const [formId, ids] of byForm(targets)) {
        try {
          await auditApi.audit(formId, { ids, action: 'approve' });
          approved += ids.length;
        } catch (error) {
          if (error instanceof UnauthorizedError) return;
          const form = targets.find((row) => row.tableId === formId)?.tableTitle ?? String(formId);
          failures.push(
            t('diyAudit.partlyFailed', {
              form,
              message: error instanceof Error && error.message ? error.message : t('crud.failed'),
            }),
          );
        }
      }
      if (approved > 0) message.success(t('diyAudit.approved', { count: approved }));
      for (const failure of failures) message.error(failure);
      setSelected([]);
      if (viewing && targets.some((row) => auditKey(row) === auditKey(viewing)) && failures.length === 0)
        setViewing(null);
      refresh(targets.map((row) => row.tableId));
    } finally {
      setApproving(false);
    }
  });

  const onReturned = (row: AuditRow) => {
    message.success(t('diyAudit.returned'));
    setReturning(null);
    setViewing(null);
    setSelected((current) => current.filter((item) => auditKey(item) !== auditKey(row)));
    refresh([row.tableId]);
  };
  const onReturnFailed = (row: AuditRow, error: unknown) => {
    showError(error);
    // F1012: someone else reviewed it meanwhile; the list shows its state now.
    if (hasErrorCode(error, 'F1012')) {
      setReturning(null);
      refresh([row.tableId]);
    }
  };

  const sortable = (field: string): Pick<ColumnType<AuditRow>, 'sorter' | 'sortOrder'> => ({
    sorter: true,
    sortOrder: sort?.field === field ? (sort.order === 'descending' ? 'descend' : 'ascend') : null,
  });
  const dash = (value: string | null) => value || '—';

  // The form's name is needed only while several forms are listed.
  const columns: ColumnsType<AuditRow> = [
    ...(tableId
      ? []
      : [
          {
            key: 'tableTitle',
            dataIndex: 'tableTitle',
            title: t('diyAudit.form'),
            width: 170,
            ellipsis: { showTitle: true },
          },
        ]),
    {
      key: 'dataNo',
      dataIndex: 'dataNo',
      title: t('diyAudit.dataNo'),
      width: 130,
      ellipsis: { showTitle: true },
      render: dash,
      ...sortable('dataNo'),
    },
    {
      key: 'createUserName',
      dataIndex: 'createUserName',
      title: t('diyAudit.filler'),
      width: 100,
      ellipsis: { showTitle: true },
      render: dash,
      ...sortable('createUserName'),
    },
    {
      key: 'createOrgName',
      dataIndex: 'createOrgName',
      title: t('diyAudit.fillerOrg'),
      width: 150,
      ellipsis: { showTitle: true },
      render: dash,
      ...sortable('createOrgName'),
    },
    {
      key: 'periodName',
      dataIndex: 'periodName',
      title: t('diyAudit.period'),
      width: 160,
      ellipsis: { showTitle: true },
      render: (value: string | null, row) => (
        <Space size={4}>
          {dash(value)}
          {row.periodClosed ? (
            <Tag color="default" data-testid="audit-period-closed">
              {t('diyAudit.periodClosed')}
            </Tag>
          ) : null}
        </Space>
      ),
    },
    {
      key: 'submitTime',
      dataIndex: 'submitTime',
      title: t('diyAudit.submitTime'),
      width: TIME_WIDTH,
      render: dash,
      ...sortable('submitTime'),
    },
    {
      key: 'status',
      dataIndex: 'status',
      title: t('diyAudit.status'),
      width: 124,
      render: (value: number) => <RecordStatusTag status={value} />,
    },
    {
      key: 'auditUserName',
      dataIndex: 'auditUserName',
      title: t('diyAudit.auditor'),
      width: 100,
      ellipsis: { showTitle: true },
      render: dash,
    },
    {
      key: 'auditTime',
      dataIndex: 'auditTime',
      title: t('diyAudit.auditTime'),
      width: TIME_WIDTH,
      render: dash,
      ...sortable('auditTime'),
    },
    {
      key: 'auditComment',
      dataIndex: 'auditComment',
      title: t('diyAudit.auditComment'),
      width: 180,
      ellipsis: { showTitle: true },
      render: dash,
    },
    {
      key: '__actions',
      title: t('crud.actions'),
      fixed: 'right',
      width: 90,
      render: (_: unknown, row) =>
        row.status === RECORD_STATUS.submitted ? (
          <Button
            type="link"
            size="small"
            icon={<AuditOutlined />}
            onClick={() => setViewing(row)}
            data-testid="audit-review"
          >
            {t('diyAudit.review')}
          </Button>
        ) : (
          <Button
            type="link"
            size="small"
            icon={<EyeOutlined />}
            onClick={() => setViewing(row)}
            data-testid="audit-view"
          >
            {t('diyAudit.view')}
          </Button>
        ),
    },
  ];

  const tabLabel = (key: StatusTab, text: string) =>
    key === 'pending' && forms.data ? (
      <Space size={6}>
        {text}
        <Badge count={pendingShown} showZero={false} overflowCount={999} data-testid="audit-pending-count" />
      </Space>
    ) : (
      text
    );

  const formMenu = forms.isLoading ? (
    <Skeleton active paragraph={{ rows: 4 }} />
  ) : forms.isError ? (
    <Alert
      type="error"
      showIcon
      title={t('diyAudit.formsFailed')}
      action={
        <Button size="small" onClick={() => void forms.refetch()}>
          {t('diyAudit.retry')}
        </Button>
      }
    />
  ) : (
    <>
      <Menu
        mode="inline"
        selectedKeys={[tableId ? String(tableId) : 'all']}
        onClick={({ key }) => {
          setTableId(key === 'all' ? null : Number(key));
          restart();
        }}
        style={{ borderInlineEnd: 'none' }}
        data-testid="audit-forms"
        items={[
          { key: 'all', title: t('diyAudit.allForms'), label: t('diyAudit.allForms'), pending: pendingAll },
          ...formList.map((form) => ({
            key: String(form.value),
            title: form.label,
            label: form.label,
            pending: form.pending,
          })),
        ].map((item) => ({
          key: item.key,
          title: item.title,
          label: (
            <div
              style={{ display: 'flex', alignItems: 'center', gap: 8 }}
              data-testid={`audit-form-${item.key}`}
            >
              <span style={{ flex: '1 1 auto', minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis' }}>
                {item.label}
              </span>
              {item.pending > 0 ? (
                <Tooltip title={t('diyAudit.pendingCount', { count: item.pending })}>
                  <Badge count={item.pending} overflowCount={999} color="#faad14" />
                </Tooltip>
              ) : null}
            </div>
          ),
        }))}
      />
      {formList.length === 0 ? (
        <Typography.Paragraph type="secondary" style={{ padding: '8px 12px', margin: 0 }}>
          {t('diyAudit.noForms')}
        </Typography.Paragraph>
      ) : null}
    </>
  );

  const pendingSelected = selected.filter((row) => row.status === RECORD_STATUS.submitted);
  const viewingPending = viewing?.status === RECORD_STATUS.submitted;

  return (
    <Row gutter={[16, 16]} wrap={false} data-testid="audit-page">
      <Col flex="240px" style={{ minWidth: 0 }}>
        <Card title={t('diyAudit.forms')} size="small" styles={{ body: { padding: 4 } }}>
          {formMenu}
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
              { key: 'pending', label: tabLabel('pending', t('diyAudit.tabPending')) },
              { key: 'approved', label: t('diyAudit.tabApproved') },
              { key: 'returned', label: t('diyAudit.tabReturned') },
              { key: 'all', label: t('diyAudit.tabAll') },
            ]}
            data-testid="audit-tabs"
          />
          <Form
            form={searchForm}
            layout="inline"
            onFinish={search}
            style={{ rowGap: 12, marginBottom: 16 }}
            data-testid="audit-search"
          >
            <Form.Item name="keyword" label={t('diyAudit.keyword')} style={{ marginInlineEnd: 16 }}>
              <Input
                allowClear
                placeholder={t('diyAudit.keywordPlaceholder')}
                style={{ width: 200 }}
                data-testid="audit-search-keyword"
              />
            </Form.Item>
            <Form.Item name="submitTime" label={t('diyAudit.submitTime')} style={{ marginInlineEnd: 16 }}>
              <DatePicker.RangePicker
                allowEmpty={[true, true]}
                style={{ width: 248 }}
                data-testid="audit-search-time"
              />
            </Form.Item>
            <SearchActions testId="audit" onReset={reset} />
          </Form>
          <div
            style={{ display: 'flex', alignItems: 'center', gap: 8, marginBottom: 12, flexWrap: 'wrap' }}
            data-testid="audit-toolbar"
          >
            <div style={{ flex: '1 1 auto' }} />
            <Space wrap size={8}>
              {pendingSelected.length > 0 ? (
                <Typography.Text type="secondary" data-testid="audit-selected">
                  {t('crud.selected', { count: pendingSelected.length })}
                </Typography.Text>
              ) : null}
              <Popconfirm
                title={t('diyAudit.batchApproveTitle')}
                description={t('diyAudit.batchApproveConfirm', { count: pendingSelected.length })}
                okText={t('diyAudit.approve')}
                cancelText={t('common.cancel')}
                okButtonProps={{ 'data-testid': 'audit-batch-approve-ok' } as ButtonProps}
                onConfirm={() => approve(pendingSelected)}
                disabled={pendingSelected.length === 0}
              >
                <Button
                  type="primary"
                  icon={<CheckOutlined />}
                  disabled={pendingSelected.length === 0 || approving}
                  loading={approving && !viewing}
                  data-testid="audit-batch-approve"
                >
                  {t('diyAudit.batchApprove')}
                </Button>
              </Popconfirm>
              <Tooltip title={t('crud.refresh')}>
                <Button
                  icon={<ReloadOutlined />}
                  aria-label={t('crud.refresh')}
                  onClick={() => {
                    void query.refetch();
                    void forms.refetch();
                  }}
                  data-testid="audit-refresh"
                />
              </Tooltip>
            </Space>
          </div>
          {query.isError ? (
            <LoadFailedAlert
              title={t('diyAudit.loadFailed')}
              error={query.error}
              onRetry={() => void query.refetch()}
              testId="audit-error"
            />
          ) : null}
          <Table<AuditRow>
            rowKey={auditKey}
            size="middle"
            columns={columns}
            dataSource={rows}
            loading={query.isFetching}
            onChange={onTableChange}
            scroll={{ x: tableId ? 1180 : 1350 }}
            onRow={(row) => ({ onDoubleClick: () => setViewing(row) })}
            rowSelection={{
              selectedRowKeys: selected.map(auditKey),
              preserveSelectedRowKeys: true,
              onChange: (_keys, items) => setSelected(items.filter(Boolean)),
              getCheckboxProps: (row) => ({ disabled: row.status !== RECORD_STATUS.submitted }),
            }}
            locale={{
              emptyText: (
                <Empty
                  image={Empty.PRESENTED_IMAGE_SIMPLE}
                  description={
                    tab === 'pending' && !filtered ? t('diyAudit.empty') : t('diyAudit.emptyFiltered')
                  }
                  data-testid="audit-empty"
                />
              ),
            }}
            pagination={tablePagination(paging, query.data?.total ?? 0, (total) =>
              t('crud.total', { total }),
            )}
            data-testid="audit-table"
          />
        </Card>
      </Col>
      {viewing ? (
        <RecordViewDrawer
          tableId={viewing.tableId}
          recordId={viewing.id}
          open
          onClose={() => setViewing(null)}
          onChanged={() => void client.invalidateQueries({ queryKey: AUDIT_KEYS.all })}
          title={
            <Typography.Text strong data-testid="audit-drawer-title">
              {viewing.tableTitle} · {viewing.dataNo ?? `#${viewing.id}`}
            </Typography.Text>
          }
          footer={
            viewingPending ? (
              <Space style={{ width: '100%', justifyContent: 'flex-end' }} data-testid="audit-drawer-actions">
                {viewing.periodClosed ? (
                  <DisabledReason reason={t('diyAudit.returnClosed')} testId="audit-return-blocked">
                    <Button danger icon={<RollbackOutlined />} disabled data-testid="audit-return">
                      {t('diyAudit.return')}
                    </Button>
                  </DisabledReason>
                ) : (
                  <Button
                    danger
                    icon={<RollbackOutlined />}
                    disabled={approving}
                    onClick={() => setReturning(viewing)}
                    data-testid="audit-return"
                  >
                    {t('diyAudit.return')}
                  </Button>
                )}
                <Popconfirm
                  title={t('diyAudit.approve')}
                  description={t('diyAudit.approveConfirm')}
                  okText={t('diyAudit.approve')}
                  cancelText={t('common.cancel')}
                  okButtonProps={{ 'data-testid': 'audit-approve-ok' } as ButtonProps}
                  onConfirm={() => approve([viewing])}
                >
                  <Button
                    type="primary"
                    icon={<CheckOutlined />}
                    loading={approving}
                    data-testid="audit-approve"
                  >
                    {t('diyAudit.approve')}
                  </Button>
                </Popconfirm>
                {/* Inside the drawer, so that it stacks above it. */}
                <ReturnDialog
                  row={returning}
                  onCancel={() => setReturning(null)}
                  onReturned={onReturned}
                  onFailed={onReturnFailed}
                />
              </Space>
            ) : undefined
          }
        />
      ) : null}
    </Row>
  );
}
