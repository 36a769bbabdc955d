import type { MyTaskRow } from '@shuzhi/contracts/diy-task';
import { DESC_STR_DEFAULT } from '@shuzhi/contracts/envelope';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Checkbox, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LoadFailedAlert } from '../../components/crud-page/load-failed-alert.tsx';
import { tablePagination, useTablePaging } from '../../components/crud-page/table-paging.ts';
import { useCan } from '../../platform/access/access.tsx';
import { TASK_KEYS, taskApi } from './diy-task.api.ts';
import { HandOnDialog, type TaskPart, TransferDialog } from './task-actions.tsx';
import { detailPath } from './task-list.page.tsx';
import { FormsCell, ReceiverStateTag } from './task-tags.tsx';

/** Where a unit files a form of a task: the record list of the form, on the task's period. */
const fillPath = (tableId: number, periodId: number | null) =>
  `/diyReport/index/formTable?id=${tableId}${periodId ? `&periodId=${periodId}` : ''}`;

const partOf = (row: MyTaskRow): TaskPart => ({
  receiverId: row.receiverId,
  orgId: row.orgId,
  orgName: row.orgName,
  dueTime: row.myDueTime,
});

/**
 * 我的任务 (issue 19): the parts of tasks the caller's own units received — what to file, by when, how far
 * along — with 去填报, and 下发 / 转办 for those allowed to.
 */
export default function MyTaskPage() {
  const { t } = useTranslation();
  const { can } = useCan();
  const client = useQueryClient();
  const [openOnly, setOpenOnly] = useState(true);
  const [handOn, setHandOn] = useState<TaskPart | null>(null);
  const [transfer, setTransfer] = useState<TaskPart | null>(null);
  const { paging, setPaging, onTableChange } = useTablePaging<MyTaskRow>();
  const body = useMemo(
    () => ({ page: paging.page, pageSize: paging.pageSize, descStr: DESC_STR_DEFAULT, open: openOnly }),
    [paging, openOnly],
  );
  const query = useQuery({
    queryKey: TASK_KEYS.mine(body),
    queryFn: () => taskApi.mine(body),
    placeholderData: keepPreviousData,
  });
  const done = () => {
    setHandOn(null);
    setTransfer(null);
    void client.invalidateQueries({ queryKey: TASK_KEYS.all });
  };

  const columns: ColumnsType<MyTaskRow> = [
    {
      key: 'title',
      title: t('diyTask.name'),
      width: 180,
      render: (_, row) => (
        <Link to={detailPath(row.id)} data-testid="my-task-title">
          {row.title}
        </Link>
      ),
    },
    {
      key: 'forms',
      title: t('diyTask.forms'),
      width: 200,
      render: (_, row) => <FormsCell forms={row.forms} />,
    },
    { key: 'unit', title: t('diyTask.myUnit'), dataIndex: 'orgName', width: 150 },
    {
      key: 'due',
      title: t('diyTask.myDue'),
      width: 160,
      render: (_, row) => (
        <Space size={4}>
          <span data-testid="my-task-due">{row.myDueTime.slice(0, 16)}</span>
          {row.overdue ? <Tag color="red">{t('diyTask.overdue')}</Tag> : null}
        </Space>
      ),
    },
    {
      key: 'state',
      title: t('diyTask.state'),
      width: 90,
      render: (_, row) => <ReceiverStateTag state={row.state} />,
    },
    {
      key: 'filed',
      title: t('diyTask.submittedForms'),
      width: 90,
      align: 'right',
      render: (_, row) => `${row.submittedForms}/${row.forms.length}`,
    },
    {
      key: 'actions',
      title: t('crud.actions'),
      width: 200,
      fixed: 'right',
      render: (_, row) => {
        const acting = row.state !== 'transferred';
        const first = row.forms[0];
        return (
          <Space size={0} wrap>
            {acting && row.state === 'received' && first ? (
              <Link to={fillPath(first.tableId, first.periodId)}>
                <Button type="link" size="small" data-testid="my-task-fill">
                  {t('diyTask.fill')}
                </Button>
              </Link>
            ) : null}
            {acting && can('diyTask:distribute') ? (
              <Button
                type="link"
                size="small"
                onClick={() => setHandOn(partOf(row))}
                data-testid="my-task-hand-on"
              >
                {t('diyTask.handOn')}
              </Button>
            ) : null}
            {row.state === 'received' && can('diyTask:transfer') ? (
              <Button
                type="link"
                size="small"
                onClick={() => setTransfer(partOf(row))}
                data-testid="my-task-transfer"
              >
                {t('diyTask.transfer')}
              </Button>
            ) : null}
          </Space>
        );
      },
    },
  ];

  return (
    <Card
      title={t('diyTask.mineTitle')}
      extra={
        <Checkbox
          checked={openOnly}
          onChange={(e) => {
            setOpenOnly(e.target.checked);
            setPaging((p) => ({ ...p, page: 1 }));
          }}
        >
          {t('diyTask.openOnly')}
        </Checkbox>
      }
    >
      {query.isError ? <LoadFailedAlert error={query.error} onRetry={() => void query.refetch()} /> : null}
      <Table<MyTaskRow>
        rowKey="receiverId"
        size="middle"
        columns={columns}
        dataSource={query.data?.items ?? []}
        loading={query.isFetching}
        scroll={{ x: 1070 }}
        locale={{ emptyText: t('diyTask.empty') }}
        onChange={onTableChange}
        pagination={tablePagination(paging, query.data?.total ?? 0, (total) => t('crud.total', { total }))}
        data-testid="my-task-table"
      />
      <HandOnDialog part={handOn} onClose={() => setHandOn(null)} onDone={done} />
      <TransferDialog part={transfer} onClose={() => setTransfer(null)} onDone={done} />
    </Card>
  );
}
