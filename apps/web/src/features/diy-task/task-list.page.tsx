import { PlusOutlined } from '@ant-design/icons';
import type { TaskRow } from '@shuzhi/contracts/diy-task';
import { DESC_STR_DEFAULT } from '@shuzhi/contracts/envelope';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Input, Progress, Segmented, Space, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import type { TFunction } from 'i18next';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { LoadFailedAlert } from '../../components/crud-page/load-failed-alert.tsx';
import { tablePagination, useTablePaging } from '../../components/crud-page/table-paging.ts';
import { useCan } from '../../platform/access/access.tsx';
import { TASK_KEYS, taskApi } from './diy-task.api.ts';
import { TaskCreateDrawer } from './task-create-drawer.tsx';
import { DeletedTaskTable } from './task-deleted.tsx';
import { TaskStateTag } from './task-manage.tsx';
import { FormsCell } from './task-tags.tsx';

type Scope = 'all' | 'created' | 'deleted';

export const detailPath = (id: number) => `/diyTask/detail?id=${id}`;

/** 任务管理's columns: the task (to its detail), forms and periods, due time, progress, creator, created. */
function taskColumns(t: TFunction): ColumnsType<TaskRow> {
  return [
    {
      key: 'title',
      title: t('diyTask.name'),
      width: 200,
      render: (_, row) => (
        <Space size={4}>
          <Link to={detailPath(row.id)} data-testid="task-title-link">
            {row.title}
          </Link>
          {row.state === 'closed' ? <TaskStateTag state={row.state} /> : null}
        </Space>
      ),
    },
    {
      key: 'forms',
      title: t('diyTask.forms'),
      width: 220,
      render: (_, row) => <FormsCell forms={row.forms} />,
    },
    { key: 'due', title: t('diyTask.dueTime'), width: 150, render: (_, row) => row.dueTime.slice(0, 16) },
    {
      key: 'progress',
      title: t('diyTask.progress'),
      width: 170,
      render: (_, row) => (
        <span data-testid="task-progress">
          <Progress
            percent={row.receiverCount ? Math.round((row.doneCount / row.receiverCount) * 100) : 0}
            size="small"
            format={() => `${row.doneCount}/${row.receiverCount}`}
            aria-label={`${row.title} ${t('diyTask.progress')}`}
          />
        </span>
      ),
    },
    {
      key: 'creator',
      title: t('diyTask.creator'),
      width: 160,
      render: (_, row) => [row.createOrgName, row.createUserName].filter(Boolean).join(' · '),
    },
    {
      key: 'createTime',
      title: t('diyTask.createTime'),
      width: 150,
      render: (_, row) => row.createTime.slice(0, 16),
    },
  ];
}

/**
 * 任务管理 (issue 19, docs/tasks.md): tasks the caller created or sees through their data scope, with how many
 * receiving units have filed; 新建任务 creates and hands one out.
 */
export default function TaskListPage() {
  const { t } = useTranslation();
  const { can } = useCan();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [scope, setScope] = useState<Scope>('all');
  const [keyword, setKeyword] = useState('');
  const [creating, setCreating] = useState(false);
  const { paging, setPaging, onTableChange } = useTablePaging<TaskRow>();
  const body = useMemo(
    () => ({
      page: paging.page,
      pageSize: paging.pageSize,
      descStr: DESC_STR_DEFAULT,
      scope: scope === 'deleted' ? 'all' : scope,
      ...(keyword ? { keyword } : {}),
    }),
    [paging, scope, keyword],
  );
  const query = useQuery({
    queryKey: TASK_KEYS.page(body),
    queryFn: () => taskApi.page(body),
    placeholderData: keepPreviousData,
    enabled: scope !== 'deleted',
  });

  const columns = taskColumns(t);

  return (
    <Card
      title={t('diyTask.title')}
      extra={
        can('diyTask:add') ? (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setCreating(true)}
            data-testid="task-create"
          >
            {t('diyTask.create')}
          </Button>
        ) : null
      }
    >
      <Space wrap style={{ marginBottom: 12 }}>
        <Segmented
          value={scope}
          onChange={(value) => {
            setScope(value as Scope);
            setPaging((p) => ({ ...p, page: 1 }));
          }}
          options={[
            { value: 'all', label: t('diyTask.scopeAll') },
            { value: 'created', label: t('diyTask.scopeCreated') },
            ...(can('diyTask:delete') ? [{ value: 'deleted', label: t('diyTaskLife.scopeDeleted') }] : []),
          ]}
          data-testid="task-scope"
        />
        <Input.Search
          allowClear
          placeholder={t('diyTask.keyword')}
          enterButton={t('diyTask.search')}
          onSearch={(value) => {
            setKeyword(value.trim());
            setPaging((p) => ({ ...p, page: 1 }));
          }}
          style={{ width: 280 }}
        />
      </Space>
      {scope === 'deleted' ? (
        <DeletedTaskTable keyword={keyword} />
      ) : (
        <>
          {query.isError ? (
            <LoadFailedAlert error={query.error} onRetry={() => void query.refetch()} />
          ) : null}
          <Table<TaskRow>
            rowKey="id"
            size="middle"
            columns={columns}
            dataSource={query.data?.items ?? []}
            loading={query.isFetching}
            scroll={{ x: 1000 }}
            locale={{ emptyText: t('diyTask.empty') }}
            onChange={onTableChange}
            pagination={tablePagination(paging, query.data?.total ?? 0, (total) =>
              t('crud.total', { total }),
            )}
            data-testid="task-table"
          />
        </>
      )}
      <TaskCreateDrawer
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(id) => {
          setCreating(false);
          void client.invalidateQueries({ queryKey: TASK_KEYS.all });
          navigate(detailPath(id));
        }}
      />
    </Card>
  );
}
