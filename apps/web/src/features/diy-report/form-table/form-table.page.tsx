import {
  DeleteOutlined,
  EditOutlined,
  EyeOutlined,
  FileDoneOutlined,
  FilterOutlined,
  LockOutlined,
  PlusOutlined,
  ReloadOutlined,
  SendOutlined,
  SettingOutlined,
  UndoOutlined,
} from '@ant-design/icons';
import { type FormDesign, type FormField, valueFields } from '@shuzhi/contracts/diy-form';
import type { PeriodBrief, PeriodRow } from '@shuzhi/contracts/diy-period';
import { DESC_STR_DEFAULT } from '@shuzhi/contracts/envelope';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Badge,
  Button,
  Card,
  Checkbox,
  Empty,
  Input,
  Popconfirm,
  Popover,
  Result,
  Select,
  Space,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { tablePagination, useTablePaging } from '../../../components/crud-page/table-paging.ts';
import { serverFieldErrors } from '../../../components/diy-form/diy-form.model.ts';
import { ImportButton } from '../../../components/diy-import/import-button.tsx';
import { isFilable, PERIOD_KEYS, periodApi } from '../../../components/diy-period/diy-period.api.ts';
import { PeriodStateTag } from '../../../components/diy-period/period-tag.tsx';
import {
  DIY_RECORD_KEYS,
  type DiyRecord,
  diyRecordApi,
} from '../../../components/diy-record/diy-record.api.ts';
import { useSummaryWords } from '../../../components/diy-record/record-history.tsx';
import { RECORD_STATUSES, useRecordStatusText } from '../../../components/diy-record/record-status-tag.tsx';
import { RecordViewDrawer } from '../../../components/diy-record/record-view-drawer.tsx';
import { useFormPasswordPrompt } from '../../../components/diy-report/form-password.tsx';
import {
  HIDE_LIST_PARAM,
  readHideList,
  setFormPageTitle,
} from '../../../components/diy-report/open-form-item.ts';
import { useReclickGuard } from '../../../components/use-reclick-guard.ts';
import {
  errorCodeIn,
  HttpError,
  hasErrorCode,
  UnauthorizedError,
} from '../../../platform/http/http-client.ts';
import { ExportLedgerButton } from './export-ledger.tsx';
import { FillDrawer, type FillTarget } from './fill-drawer.tsx';
import { FilterBuilder } from './filter-builder.tsx';
import { PeriodBanner, ZeroReportDialog } from './period-parts.tsx';
import { buildRecordColumns, initialHidden, type SystemColumn } from './record-columns.tsx';
import { buildFilters, type FilterDraft, parseUrlFilters, URL_QUERY_KEYS } from './record-filters.ts';

/** Answers of the design call that end on a result page instead of the list. */
const BLOCKING = ['F1000', 'F1001', 'F1002', 'F1003'] as const;

/**
 * 表单填报 (menu component `/diyReport/formTable/index`, route `/diyReport/index/formTable?id=…`): the record
 * list and filling of one report form.
 */
export default function FormTablePage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const raw = params.get('id') ?? '';
  const id = /^\d{1,16}$/.test(raw) ? Number(raw) : null;
  if (id === null) {
    return <Result status="404" title={t('diyFormTable.noForm')} data-testid="diy-form-table-missing" />;
  }
  return <FormTable key={id} tableId={id} />;
}

function FormTable({ tableId }: { tableId: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const password = useFormPasswordPrompt();
  const design = useQuery({
    queryKey: DIY_RECORD_KEYS.design(tableId),
    queryFn: () => diyRecordApi.design(tableId),
    retry: false,
  });
  const code = design.error instanceof HttpError ? design.error.code : undefined;
  const locked = hasErrorCode(design.error, 'F1007');

  const title = design.data?.item.title;
  useEffect(() => {
    if (title) setFormPageTitle(pathname, tableId, title);
  }, [title, pathname, tableId]);

  const { prompt } = password;
  const unlock = useCallback(async () => {
    if (await prompt(tableId, title)) void design.refetch();
  }, [prompt, tableId, title, design.refetch]);
  // Stable: the list prompts from an effect when a page answers F1007.
  const askPassword = useCallback(() => prompt(tableId, title), [prompt, tableId, title]);
  // The form asks for its password (opened by a link, or the verification expired): prompt at once.
  useEffect(() => {
    if (locked) void unlock();
  }, [locked, unlock]);

  let body: ReactNode;
  if (design.isLoading) {
    body = <Card loading data-testid="diy-form-table-loading" />;
  } else if (locked) {
    body = (
      <Result
        icon={<LockOutlined />}
        title={t('diyFormTable.lockedTitle')}
        subTitle={t('diyFormTable.locked')}
        extra={
          <Button type="primary" onClick={() => void unlock()} data-testid="diy-form-table-unlock">
            {t('diyFormTable.enterPassword')}
          </Button>
        }
        data-testid="diy-form-table-locked"
      />
    );
  } else if (design.error) {
    const blocking = errorCodeIn(design.error, BLOCKING);
    body = (
      <Result
        status={blocking ? (blocking === 'F1000' ? '404' : 'warning') : 'error'}
        title={blocking ? t(`diyFormTable.blocked.${blocking}`) : t('diyFormTable.loadFailed')}
        subTitle={design.error.message}
        extra={
          <Space>
            {blocking ? null : (
              <Button onClick={() => void design.refetch()} data-testid="diy-form-table-retry">
                {t('common.retry')}
              </Button>
            )}
            <Button type="primary" onClick={() => navigate('/diyReport')} data-testid="diy-form-table-back">
              {t('diyFormTable.backToList')}
            </Button>
          </Space>
        }
        data-testid="diy-form-table-blocked"
        data-code={code}
      />
    );
  } else if (design.data) {
    body = (
      <RecordList
        tableId={tableId}
        title={design.data.item.title}
        design={design.data.design}
        canAdd={design.data.item.myAuth.add}
        canExport={design.data.item.myAuth.export}
        defaultHidden={design.data.item.defaultHideDataList}
        periodic={(design.data.item.periodKind ?? 'none') !== 'none'}
        currentPeriod={design.data.item.currentPeriod ?? null}
        version={design.data.version}
        askPassword={askPassword}
      />
    );
  }
  return (
    <div data-testid="diy-form-table">
      {body}
      {password.contextHolder}
    </div>
  );
}

type RecordListProps = {
  tableId: number;
  title: string;
  design: FormDesign;
  canAdd: boolean;
  canExport: boolean;
  defaultHidden: string[];
  askPassword: () => Promise<boolean>;
  /** The form is collected period after period (its records belong to periods). */
  periodic?: boolean;
  /** The period filing goes to now (the list starts on it). */
  currentPeriod?: PeriodBrief | null;
  /** The published version (`design` is its design). */
  version?: number;
};

const idParam = (raw: string | null) => (raw && /^\d{1,16}$/.test(raw) ? Number(raw) : undefined);
/** Codes of the answers that mean the period does not take the change (its state may have moved on). */
const PERIOD_CODES = ['F1021', 'F1022', 'F1023', 'F1024', 'F1025'] as const;

const ACTION_WIDTH = 58;

function RecordList({
  tableId,
  title,
  design,
  canAdd,
  canExport,
  defaultHidden,
  askPassword,
  periodic = false,
  currentPeriod = null,
  version,
}: RecordListProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const statusText = useRecordStatusText();
  const words = useSummaryWords();
  const fields = useMemo(() => valueFields(design) as FormField[], [design]);

  // The route's extra query fields that name a field preset it on new records (SPEC §2 "any extra query").
  const presets = useMemo(() => {
    const out: Record<string, string> = {};
    for (const [key, value] of params.entries()) {
      if (key === 'id' || key === HIDE_LIST_PARAM || URL_QUERY_KEYS.includes(key)) continue;
      if (fields.some((f) => f.id === key)) out[key] = value;
    }
    return out;
  }, [params, fields]);

  const [keywordText, setKeywordText] = useState('');
  const [keyword, setKeyword] = useState('');
  const [status, setStatus] = useState<number | undefined>(undefined);
  const [mine, setMine] = useState(false);
  const [drafts, setDrafts] = useState<FilterDraft[]>([]);
  const [applied, setApplied] = useState<FilterDraft[]>([]);
  const [filterOpen, setFilterOpen] = useState(false);
  // The sorted column's server field: the columns are built further down, from the state above them.
  const columnSortRef = useRef<(key: string) => string | undefined>(() => undefined);
  const { paging, setPaging, sort, onTableChange } = useTablePaging<DiyRecord>({
    sortField: (sorter) => columnSortRef.current(String(sorter.columnKey ?? '')),
    onFirstPage: () => setSelected([]),
  });
  const [selected, setSelected] = useState<number[]>([]);
  const [hidden, setHidden] = useState<string[]>(() =>
    initialHidden(design, defaultHidden, readHideList(params)),
  );
  const [viewing, setViewing] = useState<number | null>(null);
  const [filling, setFilling] = useState<FillTarget | null>(null);
  const [zeroOpen, setZeroOpen] = useState(false);

  // The roll-up drill-down opens the list with `periodId`, `orgId` and `filter=<field>:prefix:<code>`.
  const urlPeriod = idParam(params.get('periodId'));
  const urlOrg = idParam(params.get('orgId'));
  // The （本级） row of a roll-up: the org's own records, not those of the orgs below it.
  const urlOrgOwn = params.get('orgOwn') === '1';
  const urlOrgFilter = useMemo(
    () => (urlOrg === undefined ? {} : { orgId: urlOrg, ...(urlOrgOwn ? { orgOwn: true } : {}) }),
    [urlOrg, urlOrgOwn],
  );
  const urlFilters = useMemo(() => parseUrlFilters(params.getAll('filter'), fields), [params, fields]);
  const dropParam = (key: string, value?: string) => {
    const next = new URLSearchParams(params);
    if (value === undefined) next.delete(key);
    else {
      const kept = next.getAll(key).filter((v) => v !== value);
      next.delete(key);
      for (const v of kept) next.append(key, v);
    }
    if (key === 'orgId') {
      next.delete('orgName');
      next.delete('orgOwn');
    }
    setParams(next, { replace: true });
    setPaging((p) => ({ ...p, page: 1 }));
    setSelected([]);
  };

  const periods = useQuery({
    queryKey: PERIOD_KEYS.list(tableId),
    queryFn: () => periodApi.list(tableId),
    enabled: periodic,
    retry: false,
  });
  /** The chosen period: an id, every period ('all'), or null for the default (the current one). */
  const [periodChoice, setPeriodChoice] = useState<number | 'all' | null>(urlPeriod ?? null);
  const fallbackPeriod = periods.data?.find((p) => p.state !== 'upcoming')?.id;
  const periodId: number | undefined = !periodic
    ? undefined
    : periodChoice === 'all'
      ? undefined
      : (periodChoice ?? currentPeriod?.id ?? fallbackPeriod);
  const periodById = useMemo(() => new Map((periods.data ?? []).map((p) => [p.id, p])), [periods.data]);
  // Where a new record goes: the chosen period, or the current one while every period is listed.
  const fileToId = periodId ?? currentPeriod?.id;
  const fileTo: (PeriodBrief & Partial<PeriodRow>) | null = !periodic
    ? null
    : ((fileToId !== undefined ? periodById.get(fileToId) : undefined) ??
      (fileToId === currentPeriod?.id ? currentPeriod : null));
  const filable = !periodic || (fileTo !== null && isFilable(fileTo.state));
  // The fill drawer's period: a changed record's own (its 本期 defaults), a new one's where it is filed.
  const fillPeriod =
    filling?.record && filling.record.periodId !== null
      ? (periodById.get(filling.record.periodId) ?? fileTo)
      : fileTo;
  // A period files with the version it keeps (one published mid-period applies from the next period): a new
  // record of the period, or a change to one, is filled with that version's design.
  const fillVersion =
    !periodic || filling === null
      ? undefined
      : filling.record
        ? filling.record.periodId !== null
          ? filling.record.version
          : undefined
        : fileTo?.version;
  const pinnedVersion = fillVersion !== undefined && fillVersion !== version ? fillVersion : undefined;
  const pinnedDesign = useQuery({
    queryKey: DIY_RECORD_KEYS.design(tableId, pinnedVersion),
    queryFn: () => diyRecordApi.design(tableId, pinnedVersion),
    enabled: pinnedVersion !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const fillDesign = pinnedVersion === undefined ? design : (pinnedDesign.data?.design ?? design);
  const recordFilable = (record: DiyRecord) => {
    if (!periodic || record.periodId === null) return true;
    const period = periodById.get(record.periodId);
    return period ? isFilable(period.state) : true;
  };

  const filters = useMemo(
    () => [
      ...buildFilters(applied, fields),
      ...urlFilters.map((f) => ({ field: f.field, op: f.op, value: f.value })),
    ],
    [applied, fields, urlFilters],
  );
  const body = useMemo(
    () => ({
      page: paging.page,
      pageSize: paging.pageSize,
      descStr: DESC_STR_DEFAULT,
      ...(keyword ? { keyword } : {}),
      ...(status !== undefined ? { status } : {}),
      ...(mine ? { mine: true } : {}),
      ...(filters.length ? { filters } : {}),
      ...(periodId !== undefined ? { periodId } : {}),
      ...urlOrgFilter,
      ...(sort ? { field: sort.field, order: sort.order } : {}),
    }),
    [paging, keyword, status, mine, filters, periodId, urlOrgFilter, sort],
  );
  const page = useQuery({
    queryKey: DIY_RECORD_KEYS.page(tableId, body),
    queryFn: () => diyRecordApi.page(tableId, body),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const rows = page.data?.items ?? [];
  const total = page.data?.total ?? 0;

  const pageLocked = hasErrorCode(page.error, 'F1007');
  useEffect(() => {
    if (pageLocked) void askPassword().then((ok) => ok && void page.refetch());
  }, [pageLocked, askPassword, page.refetch]);

  const refresh = useCallback(
    () =>
      queryClient.invalidateQueries({
        queryKey: DIY_RECORD_KEYS.form(tableId),
        predicate: (q) => q.queryKey[2] !== 'design',
      }),
    [queryClient, tableId],
  );

  const firstPage = () => {
    setPaging((p) => ({ ...p, page: 1 }));
    setSelected([]);
  };

  const showError = (error: unknown) => {
    if (error instanceof UnauthorizedError) return;
    message.error(error instanceof Error && error.message ? error.message : t('diyFormTable.failed'));
    // The period was closed or ran out meanwhile: show where it stands now.
    if (hasErrorCode(error, ...PERIOD_CODES)) {
      void queryClient.invalidateQueries({ queryKey: PERIOD_KEYS.list(tableId) });
      void refresh();
    }
  };

  const [busy, setBusy] = useState<number | 'batch' | null>(null);
  const remove = useReclickGuard(async (ids: number[], key: number | 'batch') => {
    if (busy !== null) return;
    setBusy(key);
    try {
      await diyRecordApi.remove(tableId, ids);
      message.success(t('diyFormTable.deleted', { count: ids.length }));
      setSelected((s) => s.filter((id) => !ids.includes(id)));
      await refresh();
    } catch (error) {
      showError(error);
    } finally {
      setBusy(null);
    }
  });

  const submitRow = useReclickGuard(async (record: DiyRecord) => {
    if (busy !== null) return;
    setBusy(record.id);
    try {
      await diyRecordApi.update(tableId, { id: record.id, values: record.values, submit: true });
      message.success(t('diyFormTable.fill.submitted'));
      await refresh();
    } catch (error) {
      const fields = error instanceof HttpError ? serverFieldErrors(error.errors) : null;
      if (fields) {
        // What the record lacks is shown on its fields, in the filling drawer.
        message.error(t('diyFormTable.fill.fixErrors', { count: Object.keys(fields).length }));
        setFilling({ record, errors: fields });
      } else showError(error);
    } finally {
      setBusy(null);
    }
  });

  const systemTitles: Record<SystemColumn, string> = {
    dataNo: t('diyRecord.dataNo'),
    status: t('diyRecord.statusLabel'),
    createUserName: t('diyRecord.filer'),
    createOrgName: t('diyRecord.org'),
    submitTime: t('diyRecord.submitTime'),
  };
  const allColumns = buildRecordColumns(design, rows, {
    system: systemTitles,
    statusText,
    words,
    flags: { zero: t('diyRecord.zero'), late: t('diyRecord.late') },
    ...(periodic ? { period: t('diyRecord.period') } : {}),
  });
  const shown = allColumns.filter((c) => !hidden.includes(c.key));
  const actionCount = Math.max(
    1,
    ...rows.map((r) => 1 + Number(r.can.update) + Number(r.can.submit) + Number(r.can.delete)),
  );

  const columns: ColumnsType<DiyRecord> = [
    ...shown.map((column) => ({
      key: column.key,
      dataIndex: column.key,
      title: column.title,
      width: column.width,
      ellipsis: true,
      sorter: column.sort !== null,
      sortOrder:
        column.sort !== null && sort?.field === column.sort
          ? ((sort.order === 'descending' ? 'descend' : 'ascend') as 'descend' | 'ascend')
          : null,
      render: (_: unknown, record: DiyRecord) => column.render(record),
    })),
    {
      key: '__actions',
      title: t('diyFormTable.actions'),
      fixed: 'right',
      width: Math.max(100, actionCount * ACTION_WIDTH + 16),
      render: (_: unknown, record: DiyRecord) => (
        <Space size={0} data-testid="diy-record-actions">
          <Button
            type="link"
            size="small"
            icon={<EyeOutlined />}
            onClick={() => setViewing(record.id)}
            data-testid="diy-record-view-btn"
          >
            {t('diyFormTable.view')}
          </Button>
          {record.can.update ? (
            <Tooltip title={recordFilable(record) ? undefined : t('diyPeriod.table.notFilable')}>
              <Button
                type="link"
                size="small"
                icon={<EditOutlined />}
                disabled={!recordFilable(record)}
                onClick={() => setFilling({ record })}
                data-testid="diy-record-edit"
              >
                {t('diyFormTable.edit')}
              </Button>
            </Tooltip>
          ) : null}
          {record.can.submit ? (
            <Popconfirm
              title={t('diyFormTable.submitConfirmTitle')}
              description={t('diyFormTable.submitConfirm')}
              okText={t('diyFormTable.fill.submit')}
              cancelText={t('common.cancel')}
              okButtonProps={{ 'data-testid': 'diy-record-submit-ok' }}
              onConfirm={() => void submitRow(record)}
              disabled={!recordFilable(record)}
            >
              <Button
                type="link"
                size="small"
                icon={<SendOutlined />}
                disabled={!recordFilable(record)}
                loading={busy === record.id}
                data-testid="diy-record-submit"
              >
                {t('diyFormTable.fill.submit')}
              </Button>
            </Popconfirm>
          ) : null}
          {record.can.delete ? (
            <Popconfirm
              title={t('diyFormTable.deleteConfirmTitle')}
              description={t('diyFormTable.deleteConfirm', { no: record.dataNo ?? t('diyRecord.noNumber') })}
              okText={t('diyFormTable.delete')}
              okButtonProps={{ danger: true, 'data-testid': 'diy-record-delete-ok' }}
              cancelText={t('common.cancel')}
              onConfirm={() => void remove([record.id], record.id)}
              disabled={!recordFilable(record)}
            >
              <Button
                type="link"
                size="small"
                danger
                icon={<DeleteOutlined />}
                disabled={!recordFilable(record)}
                loading={busy === record.id}
                data-testid="diy-record-delete"
              >
                {t('diyFormTable.delete')}
              </Button>
            </Popconfirm>
          ) : null}
        </Space>
      ),
    },
  ];

  columnSortRef.current = (key) => allColumns.find((c) => c.key === key)?.sort ?? undefined;

  const deletable = new Set(rows.filter((r) => r.can.delete && recordFilable(r)).map((r) => r.id));
  const anyDeletable = deletable.size > 0 || selected.length > 0;
  const searching =
    keyword !== '' || status !== undefined || mine || filters.length > 0 || urlOrg !== undefined;

  const resetSearch = () => {
    setKeywordText('');
    setKeyword('');
    setStatus(undefined);
    setMine(false);
    setDrafts([]);
    setApplied([]);
    firstPage();
  };

  const columnChooser = (
    <div style={{ maxHeight: 360, overflow: 'auto', minWidth: 200 }} data-testid="diy-columns-chooser">
      <Checkbox.Group
        style={{ display: 'flex', flexDirection: 'column', gap: 4 }}
        value={allColumns.map((c) => c.key).filter((key) => !hidden.includes(key))}
        onChange={(keys) => setHidden(allColumns.map((c) => c.key).filter((key) => !keys.includes(key)))}
        options={allColumns.map((c) => ({
          value: c.key,
          label: <span data-testid={`diy-column-toggle-${c.key}`}>{c.title}</span>,
        }))}
      />
      <Space style={{ marginTop: 8 }}>
        <Button size="small" onClick={() => setHidden([])} data-testid="diy-columns-all">
          {t('diyFormTable.columnsAll')}
        </Button>
        <Button
          size="small"
          onClick={() => setHidden(initialHidden(design, defaultHidden, readHideList(params)))}
          data-testid="diy-columns-default"
        >
          {t('diyFormTable.columnsDefault')}
        </Button>
      </Space>
    </div>
  );

  return (
    <div data-testid="diy-record-list">
      <div style={{ display: 'flex', alignItems: 'center', gap: 12, marginBottom: 12, flexWrap: 'wrap' }}>
        <Typography.Title
          level={4}
          style={{ margin: 0, flex: '1 1 auto', minWidth: 0 }}
          ellipsis={{ tooltip: title }}
        >
          <span data-testid="diy-form-table-title">{title}</span>
        </Typography.Title>
        {canAdd && periodic ? (
          <Tooltip title={filable ? undefined : t('diyPeriod.table.notFilable')}>
            <Button
              icon={<FileDoneOutlined />}
              disabled={!filable || !fileTo}
              onClick={() => setZeroOpen(true)}
              data-testid="diy-record-zero"
            >
              {t('diyPeriod.table.zero')}
            </Button>
          </Tooltip>
        ) : null}
        {canAdd ? (
          <Tooltip title={filable ? undefined : t('diyPeriod.table.notFilable')}>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              disabled={!filable}
              onClick={() => setFilling({ record: null })}
              data-testid="diy-record-add"
            >
              {t('diyFormTable.add')}
            </Button>
          </Tooltip>
        ) : null}
      </div>

      {periodic ? <PeriodBanner period={fileTo} /> : null}

      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'center', marginBottom: 12 }}>
        {periodic ? (
          <Select
            style={{ width: 220 }}
            value={periodId ?? 'all'}
            loading={periods.isLoading}
            status={periods.isError ? 'error' : undefined}
            onChange={(value: number | 'all') => {
              setPeriodChoice(value);
              if (urlPeriod !== undefined) dropParam('periodId');
              else firstPage();
            }}
            options={[
              { value: 'all', label: t('diyPeriod.table.allPeriods') },
              ...(periods.data ?? []).map((p) => ({
                value: p.id,
                label: (
                  <span style={{ display: 'inline-flex', gap: 6, alignItems: 'center' }}>
                    <span>{p.name}</span>
                    {p.state === 'open' ? null : <PeriodStateTag state={p.state} />}
                  </span>
                ),
                title: p.name,
              })),
              ...(periodId !== undefined && !periodById.has(periodId)
                ? [
                    {
                      value: periodId,
                      label: currentPeriod?.id === periodId ? currentPeriod.name : `#${periodId}`,
                    },
                  ]
                : []),
            ]}
            aria-label={t('diyPeriod.table.period')}
            title={periods.isError ? t('diyPeriod.table.periodsFailed') : undefined}
            data-testid="diy-record-period"
          />
        ) : null}
        <Input.Search
          allowClear
          style={{ width: 260 }}
          placeholder={t('diyFormTable.keyword')}
          value={keywordText}
          onChange={(e) => {
            setKeywordText(e.target.value);
            if (e.target.value === '' && keyword !== '') {
              setKeyword('');
              firstPage();
            }
          }}
          onSearch={(value) => {
            setKeyword(value.trim());
            firstPage();
          }}
          aria-label={t('diyFormTable.keyword')}
          data-testid="diy-record-keyword"
        />
        <Select
          allowClear
          style={{ width: 140 }}
          placeholder={t('diyFormTable.statusFilter')}
          value={status}
          onChange={(value) => {
            setStatus(value);
            firstPage();
          }}
          options={RECORD_STATUSES.map((s) => ({ value: s, label: statusText(s) }))}
          aria-label={t('diyFormTable.statusFilter')}
          data-testid="diy-record-status-filter"
        />
        <Checkbox
          checked={mine}
          onChange={(e) => {
            setMine(e.target.checked);
            firstPage();
          }}
          data-testid="diy-record-mine"
        >
          {t('diyFormTable.mine')}
        </Checkbox>
        <Badge count={filters.length} size="small">
          <Button
            icon={<FilterOutlined />}
            type={filterOpen ? 'primary' : 'default'}
            ghost={filterOpen}
            onClick={() => {
              if (!filterOpen && drafts.length === 0) setDrafts(applied);
              setFilterOpen((o) => !o);
            }}
            aria-expanded={filterOpen}
            data-testid="diy-record-filter-toggle"
          >
            {t('diyFormTable.filter.title')}
          </Button>
        </Badge>
        {searching ? (
          <Button icon={<UndoOutlined />} onClick={resetSearch} data-testid="diy-record-reset">
            {t('diyFormTable.reset')}
          </Button>
        ) : null}
        <div style={{ flex: 1 }} />
        {selected.length > 0 ? (
          <Typography.Text type="secondary" data-testid="diy-record-selected">
            {t('diyFormTable.selected', { count: selected.length })}
          </Typography.Text>
        ) : null}
        {anyDeletable ? (
          <Popconfirm
            title={t('diyFormTable.deleteConfirmTitle')}
            description={t('diyFormTable.batchDeleteConfirm', { count: selected.length })}
            okText={t('diyFormTable.delete')}
            okButtonProps={{ danger: true, 'data-testid': 'diy-record-batch-delete-ok' }}
            cancelText={t('common.cancel')}
            disabled={selected.length === 0}
            onConfirm={() => void remove(selected, 'batch')}
          >
            <Button
              danger
              icon={<DeleteOutlined />}
              disabled={selected.length === 0}
              loading={busy === 'batch'}
              data-testid="diy-record-batch-delete"
            >
              {t('diyFormTable.batchDelete')}
            </Button>
          </Popconfirm>
        ) : null}
        <ImportButton
          tableId={tableId}
          period={fileTo ? { id: fileTo.id, name: fileTo.name } : null}
          disabledReason={filable ? undefined : t('diyPeriod.table.notFilable')}
          onImported={() => void refresh()}
        />
        {canExport ? (
          <ExportLedgerButton
            tableId={tableId}
            title={title}
            filters={{
              ...(keyword ? { keyword } : {}),
              ...(status !== undefined ? { status } : {}),
              ...(mine ? { mine: true } : {}),
              ...(filters.length ? { filters } : {}),
              ...(periodId !== undefined ? { periodId } : {}),
              ...urlOrgFilter,
            }}
          />
        ) : null}
        <Tooltip title={t('diyFormTable.refresh')}>
          <Button
            icon={<ReloadOutlined />}
            onClick={() => void refresh()}
            loading={page.isFetching && !page.isLoading}
            aria-label={t('diyFormTable.refresh')}
            data-testid="diy-record-refresh"
          />
        </Tooltip>
        <Popover
          trigger="click"
          placement="bottomRight"
          title={t('diyFormTable.columns')}
          content={columnChooser}
        >
          <Tooltip title={t('diyFormTable.columns')}>
            <Button
              icon={<SettingOutlined />}
              aria-label={t('diyFormTable.columns')}
              data-testid="diy-columns"
            />
          </Tooltip>
        </Popover>
      </div>

      {urlPeriod !== undefined || urlOrg !== undefined || urlFilters.length > 0 ? (
        <div
          style={{ display: 'flex', gap: 6, flexWrap: 'wrap', marginBottom: 12 }}
          data-testid="diy-record-chips"
        >
          {urlPeriod !== undefined ? (
            <Tag
              closable
              color="blue"
              onClose={(e) => {
                e.preventDefault();
                setPeriodChoice(null);
                dropParam('periodId');
              }}
              data-testid="diy-chip-period"
            >
              {t('diyPeriod.table.filterPeriod', {
                name: periodById.get(urlPeriod)?.name ?? `#${urlPeriod}`,
              })}
            </Tag>
          ) : null}
          {urlOrg !== undefined ? (
            <Tag
              closable
              color="blue"
              onClose={(e) => {
                e.preventDefault();
                dropParam('orgId');
              }}
              data-testid="diy-chip-org"
            >
              {t('diyPeriod.table.filterOrg', {
                name:
                  params.get('orgName') ||
                  rows.find((r) => r.createOrgId === urlOrg)?.createOrgName ||
                  t('diyPeriod.table.orgFallback', { id: urlOrg }),
              })}
            </Tag>
          ) : null}
          {urlFilters.map((filter) => (
            <Tag
              key={filter.raw}
              closable
              color="blue"
              onClose={(e) => {
                e.preventDefault();
                dropParam('filter', filter.raw);
              }}
              data-testid="diy-chip-filter"
            >
              {t('diyPeriod.table.filterPrefix', {
                field: fields.find((f) => f.id === filter.field)?.label ?? filter.field,
                code: String(filter.value),
              })}
            </Tag>
          ))}
        </div>
      ) : null}

      {filterOpen ? (
        <Card size="small" style={{ marginBottom: 12 }} data-testid="diy-record-filter-panel">
          <FilterBuilder fields={fields} drafts={drafts} onChange={setDrafts} />
          <Space style={{ marginTop: 12 }}>
            <Button
              type="primary"
              onClick={() => {
                setApplied(drafts);
                firstPage();
              }}
              data-testid="diy-filter-apply"
            >
              {t('diyFormTable.filter.apply')}
            </Button>
            <Button
              onClick={() => {
                setDrafts([]);
                setApplied([]);
                firstPage();
              }}
              data-testid="diy-filter-clear"
            >
              {t('diyFormTable.filter.clear')}
            </Button>
          </Space>
        </Card>
      ) : null}

      {page.isError && !pageLocked ? (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 12 }}
          title={t('diyFormTable.loadFailed')}
          description={page.error.message}
          action={
            <Button size="small" onClick={() => void page.refetch()}>
              {t('common.retry')}
            </Button>
          }
          data-testid="diy-record-error"
        />
      ) : null}

      <Table<DiyRecord>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={rows}
        loading={page.isFetching}
        onChange={onTableChange as never}
        scroll={{ x: 'max-content' }}
        data-testid="diy-record-table"
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (keys) => setSelected(keys.map(Number)),
          getCheckboxProps: (row) => ({ disabled: !deletable.has(row.id) }),
        }}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={searching ? t('diyFormTable.noMatch') : t('diyFormTable.empty')}
              data-testid="diy-record-empty"
            >
              {!searching && canAdd && filable ? (
                <Button type="primary" icon={<PlusOutlined />} onClick={() => setFilling({ record: null })}>
                  {t('diyFormTable.addFirst')}
                </Button>
              ) : null}
            </Empty>
          ),
        }}
        pagination={tablePagination(paging, total, (count) => (
          <span data-testid="diy-record-total">{t('diyFormTable.total', { total: count })}</span>
        ))}
      />

      <RecordViewDrawer
        tableId={tableId}
        recordId={viewing}
        open={viewing !== null}
        onClose={() => setViewing(null)}
      />
      <FillDrawer
        tableId={tableId}
        title={title}
        design={fillDesign}
        target={filling}
        presets={presets}
        onClose={() => setFilling(null)}
        onSaved={() => void refresh()}
        onFailed={showError}
        askPassword={askPassword}
        period={
          periodic && fillPeriod
            ? { id: fillPeriod.id, name: fillPeriod.name, startDate: fillPeriod.startDate }
            : null
        }
      />
      {periodic && fileTo ? (
        <ZeroReportDialog
          open={zeroOpen}
          tableId={tableId}
          period={fileTo}
          onClose={() => setZeroOpen(false)}
          onDone={() => {
            setZeroOpen(false);
            void refresh();
            void queryClient.invalidateQueries({ queryKey: PERIOD_KEYS.list(tableId) });
          }}
          onFailed={showError}
        />
      ) : null}
    </div>
  );
}
