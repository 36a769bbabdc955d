import type { DeletedTaskRow } from '@shuzhi/contracts/diy-task-lifecycle';
import { DESC_STR_DEFAULT } from '@shuzhi/contracts/envelope';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Popconfirm, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailedAlert } from '../../components/crud-page/load-failed-alert.tsx';
import { tablePagination, useTablePaging } from '../../components/crud-page/table-paging.ts';
import { TASK_KEYS, taskApi } from './diy-task.api.ts';
import { TaskStateTag } from './task-manage.tsx';
import { FormsCell } from './task-tags.tsx';

/**
 * 任务管理 › 已删除 (diyTask:delete): deleted tasks the caller may manage, last deleted first, with who deleted
 * them; 恢复 brings one back as it was (docs/tasks.md "Lifecycle").
 */
export function DeletedTaskTable({ keyword }: { keyword: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const { paging, onTableChange } = useTablePaging<DeletedTaskRow>();
  const [restoring, setRestoring] = useState<number | null>(null);
  const body = useMemo(
    () => ({
      page: paging.page,
      pageSize: paging.pageSize,
      descStr: DESC_STR_DEFAULT,
      ...(keyword ? { keyword } : {}),
    }),
    [paging, keyword],
  );
  const query = useQuery({
    queryKey: TASK_KEYS.deleted(body),
    queryFn: () => taskApi.deletedPage(body),
    placeholderData: keepPreviousData,
  });
  const restore = async (row: DeletedTaskRow) => {
    setRestoring(row.id);
    try {
      await taskApi.restore({ id: row.id });
      message.success(t('diyTaskLife.restored'));
      await client.invalidateQueries({ queryKey: TASK_KEYS.all });
    } catch (error) {
      message.error((error as Error).message);
    } finally {
      setRestoring(null);
    }
  };

  const columns: ColumnsType<DeletedTaskRow> = [
    {
      key: 'title',
      title: t('diyTask.name'),
      width: 200,
      render: (_, row) => (
        <span data-testid="deleted-task-title">
          {row.title} {row.state === 'closed' ? <TaskStateTag state={row.state} /> : null}
        </span>
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
      key: 'creator',
      title: t('diyTask.creator'),
      width: 160,
      render: (_, row) => [row.createOrgName, row.createUserName].filter(Boolean).join(' · '),
    },
    {
      key: 'deleted',
      title: `${t('diyTaskLife.deleteTime')} / ${t('diyTaskLife.deleteUser')}`,
      width: 190,
      render: (_, row) => [row.deleteTime?.slice(0, 16), row.deleteUserName].filter(Boolean).join(' · '),
    },
    {
      key: 'actions',
      title: t('crud.actions'),
      width: 90,
      fixed: 'right',
      render: (_, row) => (
        <Popconfirm title={t('diyTaskLife.restoreConfirm')} onConfirm={() => restore(row)}>
          <Button
            type="link"
            size="small"
            loading={restoring === row.id}
            data-testid="task-restore"
            aria-label={`${t('diyTaskLife.restore')} ${row.title}`}
          >
            {t('diyTaskLife.restore')}
          </Button>
        </Popconfirm>
      ),
    },
  ];

  return (
    <>
      {query.isError ? <LoadFailedAlert error={query.error} onRetry={() => void query.refetch()} /> : null}
      <Table<DeletedTaskRow>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={query.data?.items ?? []}
        loading={query.isFetching}
        scroll={{ x: 1000 }}
        locale={{ emptyText: t('diyTaskLife.deletedEmpty') }}
        onChange={onTableChange}
        pagination={tablePagination(paging, query.data?.total ?? 0, (total) => t('crud.total', { total }))}
        data-testid="deleted-task-table"
      />
    </>
  );
}
