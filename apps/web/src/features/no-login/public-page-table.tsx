import { PlusOutlined } from '@ant-design/icons';
import type { PublicPageState } from '@shuzhi/contracts/no-login-pages';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Input, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import type { TFunction } from 'i18next';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailedAlert } from '../../components/crud-page/load-failed-alert.tsx';
import { tablePagination, useTablePaging } from '../../components/crud-page/table-paging.ts';
import { feedback } from '../../platform/feedback/feedback.ts';

const STATE_COLORS = { active: 'green', expired: 'default', withdrawn: 'red' } as const;

type Item = {
  id: number;
  title: string;
  state: PublicPageState;
  viewCount: number;
  expireTime: string;
  url: string;
  createUserName: string | null;
};
type PageOf<T> = { items: T[]; total: number };

/** The page's own columns between the name and the common ones: state, views, validity, creator, actions. */
function withCommonColumns<T extends Item>(
  t: TFunction,
  columns: ColumnsType<T>,
  {
    can,
    testId,
    onEdit,
    act,
  }: {
    can: { edit: boolean; withdraw: boolean; delete: boolean };
    testId: string;
    onEdit(item: T): void;
    act(kind: 'withdraw' | 'remove', id: number): void;
  },
): ColumnsType<T> {
  return [
    { key: 'title', title: t('publicPages.colTitle'), width: 180, render: (_, r) => r.title },
    ...columns,
    {
      key: 'state',
      title: t('publicPages.colState'),
      width: 90,
      render: (_, r) => (
        <Tag color={STATE_COLORS[r.state]} data-testid={`${testId}-state`}>
          {t(`publicPages.state.${r.state}`)}
        </Tag>
      ),
    },
    { key: 'views', title: t('publicPages.colViews'), width: 90, render: (_, r) => r.viewCount },
    {
      key: 'expire',
      title: t('publicPages.colExpire'),
      width: 150,
      render: (_, r) => r.expireTime.slice(0, 16),
    },
    {
      key: 'creator',
      title: t('publicPages.colCreator'),
      width: 110,
      render: (_, r) => r.createUserName ?? '',
    },
    {
      key: 'actions',
      title: t('publicPages.colActions'),
      width: 260,
      fixed: 'right',
      render: (_, r) => (
        <Space size={4} wrap>
          {r.state === 'active' ? (
            <>
              <Button
                type="link"
                size="small"
                href={r.url}
                target="_blank"
                rel="noopener"
                data-testid={`${testId}-open`}
              >
                {t('publicPages.open')}
              </Button>
              <Typography.Text
                copyable={{
                  text: `${window.location.origin}${r.url}`,
                  tooltips: [t('publicPages.copy'), t('publicPages.copied')],
                }}
              />
            </>
          ) : null}
          {can.edit && r.state === 'active' ? (
            <Button type="link" size="small" onClick={() => onEdit(r)} data-testid={`${testId}-edit`}>
              {t('publicPages.edit')}
            </Button>
          ) : null}
          {can.withdraw && r.state === 'active' ? (
            <Popconfirm title={t('publicPages.withdrawAsk')} onConfirm={() => act('withdraw', r.id)}>
              <Button type="link" size="small" danger data-testid={`${testId}-withdraw`}>
                {t('publicPages.withdraw')}
              </Button>
            </Popconfirm>
          ) : null}
          {can.delete ? (
            <Popconfirm title={t('publicPages.removeAsk')} onConfirm={() => act('remove', r.id)}>
              <Button type="link" size="small" danger data-testid={`${testId}-delete`}>
                {t('publicPages.remove')}
              </Button>
            </Popconfirm>
          ) : null}
        </Space>
      ),
    },
  ];
}

/**
 * The staff list of public statements or of custom scenes (docs/no-login.md): search by name, the page's own
 * columns, then state, views, validity, creator and the actions (open, copy the address, edit while live,
 * withdraw, delete), each shown only with its permission.
 */
export function PublicPageTable<T extends Item>({
  title,
  queryKey,
  load,
  columns,
  can,
  withdraw,
  remove,
  onCreate,
  onEdit,
  testId,
  children,
}: {
  title: string;
  queryKey: readonly unknown[];
  load(params: { page: number; pageSize: number; title?: string }): Promise<PageOf<T>>;
  columns: ColumnsType<T>;
  can: { add: boolean; edit: boolean; withdraw: boolean; delete: boolean };
  withdraw(id: number): Promise<null>;
  remove(id: number): Promise<null>;
  onCreate(): void;
  onEdit(item: T): void;
  testId: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [keyword, setKeyword] = useState('');
  const { paging, setPaging, onTableChange } = useTablePaging<T>();
  const params = useMemo(
    () => ({ page: paging.page, pageSize: paging.pageSize, ...(keyword ? { title: keyword } : {}) }),
    [paging, keyword],
  );
  const query = useQuery({
    queryKey: [...queryKey, 'page', params],
    queryFn: () => load(params),
    placeholderData: keepPreviousData,
  });
  const refresh = () => client.invalidateQueries({ queryKey });
  const act = useMutation({
    mutationFn: ({ kind, id }: { kind: 'withdraw' | 'remove'; id: number }) =>
      kind === 'withdraw' ? withdraw(id) : remove(id),
    onSuccess: (_, { kind }) => {
      feedback.success(t(kind === 'withdraw' ? 'publicPages.withdrawn' : 'publicPages.removed'));
      void refresh();
    },
    onError: (error) => feedback.error(error.message),
  });
  const all = withCommonColumns(t, columns, {
    can,
    testId,
    onEdit,
    act: (kind, id) => act.mutate({ kind, id }),
  });
  return (
    <Card
      title={title}
      extra={
        can.add ? (
          <Button type="primary" icon={<PlusOutlined />} onClick={onCreate} data-testid={`${testId}-create`}>
            {t('publicPages.create')}
          </Button>
        ) : null
      }
    >
      <Input.Search
        allowClear
        placeholder={t('publicPages.keyword')}
        enterButton={t('publicPages.search')}
        onSearch={(value) => {
          setKeyword(value.trim());
          setPaging((p) => ({ ...p, page: 1 }));
        }}
        style={{ width: 280, marginBottom: 12 }}
      />
      {query.isError ? <LoadFailedAlert error={query.error} onRetry={() => void query.refetch()} /> : null}
      <Table<T>
        rowKey="id"
        size="middle"
        columns={all}
        dataSource={query.data?.items ?? []}
        loading={query.isFetching}
        scroll={{ x: 1100 }}
        onChange={onTableChange}
        pagination={tablePagination(paging, query.data?.total ?? 0, (total) => t('crud.total', { total }))}
        data-testid={`${testId}-table`}
      />
      {children}
    </Card>
  );
}
