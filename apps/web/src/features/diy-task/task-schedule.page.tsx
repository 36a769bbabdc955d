import { PlusOutlined } from '@ant-design/icons';
import type { ScheduleRow, ScheduleRun } from '@shuzhi/contracts/diy-task-schedule';
import { DESC_STR_DEFAULT } from '@shuzhi/contracts/envelope';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Drawer, Form, Input, Popconfirm, Select, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LoadFailedAlert } from '../../components/crud-page/load-failed-alert.tsx';
import { SearchForm } from '../../components/crud-page/search-form.tsx';
import { tablePagination, useTablePaging } from '../../components/crud-page/table-paging.ts';
import { useCan } from '../../platform/access/access.tsx';
import { TASK_KEYS } from './diy-task.api.ts';
import { detailPath } from './task-list.page.tsx';
import { SCHEDULE_KEYS, scheduleApi } from './task-schedule.api.ts';
import { ScheduleDrawer } from './task-schedule-drawer.tsx';

const OUTCOME_COLORS = { created: 'green', skipped: 'default', failed: 'red' } as const;

/** A run's outcome as a tag. */
function OutcomeTag({ run }: { run: ScheduleRun }) {
  const { t } = useTranslation();
  return <Tag color={OUTCOME_COLORS[run.outcome]}>{t(`diyTaskSchedule.outcomes.${run.outcome}`)}</Tag>;
}

/** 运行记录: each period the schedule has seen, with its task or why none was made. */
function RunsDrawer({ row, onClose }: { row: ScheduleRow | null; onClose(): void }) {
  const { t } = useTranslation();
  const runs = useQuery({
    queryKey: SCHEDULE_KEYS.runs(row?.id ?? 0),
    queryFn: () => scheduleApi.runs(row?.id ?? 0),
    enabled: row !== null,
  });
  const columns: ColumnsType<ScheduleRun> = [
    { key: 'period', title: t('diyTaskSchedule.period'), width: 120, render: (_, r) => r.periodName },
    {
      key: 'outcome',
      title: t('diyTaskSchedule.outcome'),
      width: 110,
      render: (_, r) => <OutcomeTag run={r} />,
    },
    { key: 'due', title: t('diyTask.dueTime'), width: 140, render: (_, r) => r.dueTime ?? '' },
    {
      key: 'reason',
      title: t('diyTaskSchedule.reason'),
      render: (_, r) =>
        r.taskId !== null ? (
          <Link to={detailPath(r.taskId)} data-testid="schedule-run-task">
            {t('diyTaskSchedule.viewTask')}
          </Link>
        ) : (
          r.reason
        ),
    },
    {
      key: 'time',
      title: t('diyTaskSchedule.runTime'),
      width: 150,
      render: (_, r) => r.createTime.slice(0, 16),
    },
  ];
  return (
    <Drawer
      open={row !== null}
      onClose={onClose}
      size="large"
      title={t('diyTaskSchedule.runsTitle', { title: row?.title ?? '' })}
    >
      {runs.isError ? <LoadFailedAlert error={runs.error} onRetry={() => void runs.refetch()} /> : null}
      <Table<ScheduleRun>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={runs.data ?? []}
        loading={runs.isFetching}
        pagination={false}
        locale={{ emptyText: t('diyTaskSchedule.noRuns') }}
        data-testid="schedule-runs"
      />
    </Drawer>
  );
}

/** Receivers of a schedule in a line: named units, with 含下级, or unit types. */
function ReceiversCell({ row }: { row: ScheduleRow }) {
  const { t } = useTranslation();
  const types = row.receivers.orgTypes.map((type) => t(`diyTask.orgTypeNames.${type as 'street'}`));
  const names = row.orgNames.join('、');
  const parts = [
    names ? `${names}${row.receivers.subtree ? `（${t('diyTaskSchedule.subtreeToo')}）` : ''}` : '',
    types.length ? `${t('diyTaskSchedule.orgTypesOnly')}：${types.join('、')}` : '',
    row.receivers.roleIds.length
      ? t('diyTaskSchedule.roleCount', { count: row.receivers.roleIds.length })
      : '',
    row.receivers.userIds.length
      ? t('diyTaskSchedule.userCount', { count: row.receivers.userIds.length })
      : '',
  ];
  return <>{parts.filter(Boolean).join('；')}</>;
}

type Verb = 'pause' | 'resume' | 'remove';
type Filters = { keyword?: string | undefined; state?: 'active' | 'paused' | undefined };

/** The list's columns; the row actions call back into the page. */
function useScheduleColumns(on: {
  runs(row: ScheduleRow): void;
  edit(row: ScheduleRow): void;
  act(row: ScheduleRow, verb: Verb): void;
}): ColumnsType<ScheduleRow> {
  const { t } = useTranslation();
  const { can } = useCan();
  return [
    { key: 'title', title: t('diyTaskSchedule.name'), width: 180, render: (_, row) => row.title },
    {
      key: 'forms',
      title: t('diyTaskSchedule.forms'),
      width: 180,
      render: (_, row) => row.forms.map((f) => f.title).join('、'),
    },
    {
      key: 'due',
      title: t('diyTaskSchedule.due'),
      width: 190,
      render: (_, row) =>
        t(`diyTaskSchedule.dueText.${row.due.anchor}`, { days: row.due.days, at: row.due.at }),
    },
    {
      key: 'receivers',
      title: t('diyTaskSchedule.receivers'),
      width: 200,
      render: (_, row) => <ReceiversCell row={row} />,
    },
    {
      key: 'state',
      title: t('diyTaskSchedule.state'),
      width: 90,
      render: (_, row) => (
        <Tag color={row.state === 'active' ? 'blue' : 'orange'} data-testid="schedule-state">
          {t(`diyTaskSchedule.states.${row.state}`)}
        </Tag>
      ),
    },
    {
      key: 'lastRun',
      title: t('diyTaskSchedule.lastRun'),
      width: 180,
      render: (_, row) =>
        row.lastRun ? (
          <Space size={4}>
            {row.lastRun.periodName}
            <OutcomeTag run={row.lastRun} />
          </Space>
        ) : (
          <span style={{ color: '#888' }}>{t('diyTaskSchedule.noRun')}</span>
        ),
    },
    {
      key: 'actions',
      title: t('diyTaskSchedule.actions'),
      width: 230,
      fixed: 'right',
      render: (_, row) => (
        <Space size={0} wrap>
          <Button type="link" size="small" onClick={() => on.runs(row)} data-testid="schedule-runs-open">
            {t('diyTaskSchedule.runs')}
          </Button>
          {can('diyTaskSchedule:edit') ? (
            <>
              <Button type="link" size="small" onClick={() => on.edit(row)} data-testid="schedule-edit">
                {t('diyTaskSchedule.edit')}
              </Button>
              <Button
                type="link"
                size="small"
                onClick={() => on.act(row, row.state === 'active' ? 'pause' : 'resume')}
                data-testid="schedule-toggle"
              >
                {row.state === 'active' ? t('diyTaskSchedule.pause') : t('diyTaskSchedule.resume')}
              </Button>
            </>
          ) : null}
          {can('diyTaskSchedule:delete') ? (
            <Popconfirm
              title={t('diyTaskSchedule.deleteConfirm', { title: row.title })}
              onConfirm={() => on.act(row, 'remove')}
            >
              <Button type="link" size="small" danger data-testid="schedule-delete">
                {t('diyTaskSchedule.delete')}
              </Button>
            </Popconfirm>
          ) : null}
        </Space>
      ),
    },
  ];
}

/**
 * 计划任务 (issue 19 §6, docs/tasks.md): schedules of periodic forms that create a task for each new period;
 * 新建 / 编辑 in a drawer, 暂停 / 恢复, 删除, and each schedule's 运行记录.
 */
export default function TaskSchedulePage() {
  const { t } = useTranslation();
  const { can } = useCan();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [searchForm] = Form.useForm<Filters>();
  const [{ keyword, state }, setFilters] = useState<Filters>({});
  const [editing, setEditing] = useState<ScheduleRow | null | 'new'>(null);
  const [viewing, setViewing] = useState<ScheduleRow | null>(null);
  const { paging, setPaging, onTableChange } = useTablePaging<ScheduleRow>();
  const body = useMemo(
    () => ({
      page: paging.page,
      pageSize: paging.pageSize,
      descStr: DESC_STR_DEFAULT,
      ...(keyword ? { keyword } : {}),
      ...(state ? { state } : {}),
    }),
    [paging, keyword, state],
  );
  const query = useQuery({
    queryKey: SCHEDULE_KEYS.page(body),
    queryFn: () => scheduleApi.page(body),
    placeholderData: keepPreviousData,
  });
  const refresh = () => {
    void client.invalidateQueries({ queryKey: SCHEDULE_KEYS.all });
    void client.invalidateQueries({ queryKey: TASK_KEYS.all });
  };
  const act = useMutation({
    mutationFn: async ({ row, verb }: { row: ScheduleRow; verb: Verb }) => {
      await scheduleApi[verb](row.id);
      return verb;
    },
    onSuccess: (verb) => {
      message.success(
        t(
          verb === 'pause'
            ? 'diyTaskSchedule.paused'
            : verb === 'resume'
              ? 'diyTaskSchedule.resumed'
              : 'diyTaskSchedule.deleted',
        ),
      );
      refresh();
    },
    onError: (error) => message.error((error as Error).message),
  });

  const columns = useScheduleColumns({
    runs: setViewing,
    edit: setEditing,
    act: (row, verb) => act.mutate({ row, verb }),
  });

  return (
    <Card
      title={t('diyTaskSchedule.title')}
      extra={
        can('diyTaskSchedule:add') ? (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setEditing('new')}
            data-testid="schedule-create"
          >
            {t('diyTaskSchedule.create')}
          </Button>
        ) : null
      }
    >
      <Alert type="info" showIcon title={t('diyTaskSchedule.intro')} style={{ marginBottom: 12 }} />
      <SearchForm<Filters>
        form={searchForm}
        testId="schedule-search"
        actionsTestId="schedule"
        onSearch={(values) => {
          setFilters({ keyword: values.keyword?.trim() || undefined, state: values.state });
          setPaging((p) => ({ ...p, page: 1 }));
        }}
      >
        <Form.Item name="keyword" label={t('diyTaskSchedule.keyword')}>
          <Input allowClear style={{ width: 200 }} data-testid="schedule-search-keyword" />
        </Form.Item>
        <Form.Item name="state" label={t('diyTaskSchedule.state')}>
          <Select
            allowClear
            placeholder={t('diyTaskSchedule.allStates')}
            options={(['active', 'paused'] as const).map((s) => ({
              value: s,
              label: t(`diyTaskSchedule.states.${s}`),
            }))}
            style={{ width: 140 }}
            data-testid="schedule-search-state"
          />
        </Form.Item>
      </SearchForm>
      {query.isError ? <LoadFailedAlert error={query.error} onRetry={() => void query.refetch()} /> : null}
      <Table<ScheduleRow>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={query.data?.items ?? []}
        loading={query.isFetching}
        scroll={{ x: 1200 }}
        locale={{ emptyText: t('diyTaskSchedule.empty') }}
        onChange={onTableChange}
        pagination={tablePagination(paging, query.data?.total ?? 0, (total) => t('crud.total', { total }))}
        data-testid="schedule-table"
      />
      <ScheduleDrawer
        open={editing !== null}
        editing={editing === 'new' ? null : editing}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          refresh();
        }}
      />
      <RunsDrawer row={viewing} onClose={() => setViewing(null)} />
    </Card>
  );
}
