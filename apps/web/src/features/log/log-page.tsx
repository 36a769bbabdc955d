import { ClearOutlined, EyeOutlined } from '@ant-design/icons';
import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  DatePicker,
  Descriptions,
  Drawer,
  Form,
  Grid,
  Input,
  Skeleton,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage } from '../../components/crud-page/crud-page.tsx';
import type { CrudColumn } from '../../components/crud-page/crud-types.ts';
import { SearchActions } from '../../components/crud-page/search-actions.tsx';
import { useReclickGuard } from '../../components/use-reclick-guard.ts';
import { Auth, useCan } from '../../platform/access/access.tsx';
import { type Resource, resourceKeys, type WithId } from '../../platform/data/resource.ts';
import { UnauthorizedError } from '../../platform/http/http-client.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';
import { zoneDayjs } from '../../platform/time/zone-dayjs.ts';
import { clearLog, type LogService } from './log.api.ts';

export const TIME_WIDTH_TEXT = '2026-01-01 00:00:00';

type Range = [Dayjs, Dayjs];

/** The presets of the time range; the default range is the last 7 days, today included. */
export function rangePresets(now = zoneDayjs()): Record<'today' | 'last7Days' | 'last30Days', Range> {
  const end = now.endOf('day');
  return {
    today: [now.startOf('day'), end],
    last7Days: [now.subtract(6, 'day').startOf('day'), end],
    last30Days: [now.subtract(29, 'day').startOf('day'), end],
  };
}

/**
 * The filter form's values as the page body wants them: the range as date-only bounds (the server includes
 * the whole end day), texts trimmed, empty values left out.
 */
export function toLogFilters(values: Record<string, unknown>): Record<string, unknown> {
  const { range, ...rest } = values;
  const out: Record<string, unknown> = {};
  const bounds = range as [Dayjs | null, Dayjs | null] | null | undefined;
  if (bounds?.[0]) out.startTime = bounds[0].format('YYYY-MM-DD');
  if (bounds?.[1]) out.endTime = bounds[1].format('YYYY-MM-DD');
  for (const [key, value] of Object.entries(rest)) {
    if (value === undefined || value === null) continue;
    if (typeof value === 'string') {
      if (value.trim() !== '') out[key] = value.trim();
    } else out[key] = value;
  }
  return out;
}

type LogFilterField = {
  name: string;
  label: string;
  /** Defaults to a text input. */
  input?: ReactNode;
  width?: number;
};

export type LogPageProps<T extends WithId, F extends object> = {
  service: LogService;
  resource: Resource<T, F>;
  /** Name of the log in a title (访问日志) and inside a sentence (访问日志 / visit log). */
  title: string;
  entity: string;
  columns: CrudColumn<T>[];
  filters: LogFilterField[];
  /** The drawer's body for a fully loaded record. */
  renderDetail: (row: T) => ReactNode;
  testId: string;
};

const PERMISSION = (service: LogService, action: 'detail' | 'export' | 'clear') => `${service}:${action}`;

/**
 * One log screen: time range and filters above the shared read-only CrudPage, a detail drawer, Excel export
 * and 清空. The four log pages are this with their own columns, filters and detail.
 */
export function LogPage<T extends WithId, F extends object>(props: LogPageProps<T, F>) {
  const { service, resource, title, entity, columns, filters, renderDetail, testId } = props;
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const { can } = useCan();
  const presets = rangePresets();
  const initialValues = { range: presets.last7Days };
  const [applied, setApplied] = useState<Record<string, unknown>>(() => toLogFilters(initialValues));
  const [openId, setOpenId] = useState<number | null>(null);
  const canDetail = can(PERMISSION(service, 'detail'));

  const search = (values: Record<string, unknown>) => setApplied(toLogFilters(values));
  const reset = () => {
    form.resetFields();
    search(form.getFieldsValue());
  };

  const filterBar = (
    <Form
      form={form}
      layout="inline"
      initialValues={initialValues}
      onFinish={search}
      data-testid={`${testId}-filters`}
      style={{ rowGap: 12, marginBottom: 16 }}
    >
      <Form.Item name="range" label={t('log.timeRange')} style={{ marginInlineEnd: 16 }}>
        <DatePicker.RangePicker
          allowClear
          presets={[
            { label: t('log.today'), value: presets.today },
            { label: t('log.last7Days'), value: presets.last7Days },
            { label: t('log.last30Days'), value: presets.last30Days },
          ]}
          style={{ width: 248 }}
          data-testid={`${testId}-range`}
        />
      </Form.Item>
      {filters.map((field) => (
        <Form.Item key={field.name} name={field.name} label={field.label} style={{ marginInlineEnd: 16 }}>
          {field.input ?? (
            <Input
              allowClear
              placeholder={t('crud.inputPlaceholder', { label: field.label })}
              style={{ width: field.width ?? 160 }}
              onPressEnter={() => form.submit()}
              data-testid={`${testId}-filter-${field.name}`}
            />
          )}
        </Form.Item>
      ))}
      <SearchActions submitTestId={`${testId}-search`} resetTestId={`${testId}-reset`} onReset={reset} />
    </Form>
  );

  return (
    <Card data-testid={`${testId}-page`}>
      {filterBar}
      <CrudPage<T, F>
        resource={resource}
        entityName={entity}
        title={title}
        columns={columns}
        permissions={{ export: PERMISSION(service, 'export') }}
        fixedFilters={applied as Partial<F>}
        exportFileName={title}
        toolbarExtra={<ClearButton service={service} entity={entity} testId={testId} />}
        rowActions={
          canDetail
            ? (row) => (
                <Button
                  type="link"
                  size="small"
                  icon={<EyeOutlined />}
                  onClick={() => setOpenId(row.id)}
                  data-testid={`${testId}-detail`}
                >
                  {t('log.detail')}
                </Button>
              )
            : undefined
        }
        extraActionWidth={canDetail ? 64 : 0}
        onRowClick={canDetail ? (row) => setOpenId(row.id) : undefined}
        selectedRowId={openId}
        testId={testId}
      />
      <LogDetailDrawer
        resource={resource}
        id={openId}
        title={t('log.detailTitle', { name: title })}
        onClose={() => setOpenId(null)}
        renderDetail={renderDetail}
        testId={testId}
      />
    </Card>
  );
}

/**
 * 清空 asks first, in danger colours, saying exactly what goes: every record of the log in the tenant
 * (a super admin: of every tenant), whatever the filters show.
 */
export function ClearButton({
  service,
  entity,
  testId,
}: {
  service: LogService;
  entity: string;
  testId: string;
}) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const client = useQueryClient();
  const superAdmin = useSessionStore((s) => s.userInfo?.accountType === ACCOUNT_TYPE.superAdmin);
  const [pending, setPending] = useState(false);

  const run = useReclickGuard(async () => {
    setPending(true);
    try {
      const count = await clearLog(service);
      message.success(t('log.cleared', { count, name: entity }));
      await client.invalidateQueries({ queryKey: resourceKeys.all(service) });
    } catch (error) {
      if (!(error instanceof UnauthorizedError))
        message.error(error instanceof Error && error.message ? error.message : t('crud.failed'));
    } finally {
      setPending(false);
    }
  });

  const confirm = () => {
    modal.confirm({
      title: t('log.clearTitle', { name: entity }),
      content: (
        <span data-testid={`${testId}-clear-content`}>
          {t(superAdmin ? 'log.clearContentAll' : 'log.clearContent', { name: entity })}
        </span>
      ),
      okText: t('log.clearOk'),
      okType: 'danger',
      okButtonProps: { danger: true, 'data-testid': `${testId}-clear-ok` } as never,
      cancelText: t('common.cancel'),
      onOk: () => run(),
    });
  };

  return (
    <Auth value={PERMISSION(service, 'clear')}>
      <Button
        danger
        icon={<ClearOutlined />}
        loading={pending}
        onClick={confirm}
        data-testid={`${testId}-clear`}
      >
        {t('log.clear')}
      </Button>
    </Auth>
  );
}

function LogDetailDrawer<T extends WithId, F extends object>({
  resource,
  id,
  title,
  onClose,
  renderDetail,
  testId,
}: {
  resource: Resource<T, F>;
  id: number | null;
  title: string;
  onClose: () => void;
  renderDetail: (row: T) => ReactNode;
  testId: string;
}) {
  const { t } = useTranslation();
  const screens = Grid.useBreakpoint();
  const detail = useQuery({
    queryKey: resourceKeys.detail(resource.service, id ?? 0),
    queryFn: () => resource.detail(id as number),
    enabled: id !== null,
  });
  return (
    <Drawer
      open={id !== null}
      title={title}
      size={screens.xxl ? 880 : 720}
      onClose={onClose}
      destroyOnHidden
      data-testid={`${testId}-drawer`}
    >
      {detail.isError ? (
        <Alert
          type="error"
          showIcon
          title={t('log.detailFailed')}
          description={detail.error.message}
          action={
            <Button size="small" onClick={() => void detail.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      ) : detail.data && !detail.isFetching ? (
        <div data-testid={`${testId}-detail-body`}>{renderDetail(detail.data)}</div>
      ) : (
        <Skeleton active paragraph={{ rows: 8 }} />
      )}
    </Drawer>
  );
}

/** Every field of a record as label / value rows. */
export function DetailList({ items }: { items: { key: string; label: string; children: ReactNode }[] }) {
  return (
    <Descriptions
      bordered
      size="small"
      column={1}
      styles={{ label: { width: 120, whiteSpace: 'nowrap' } }}
      items={items.map((item) => ({ ...item, children: item.children ?? '—' }))}
    />
  );
}
