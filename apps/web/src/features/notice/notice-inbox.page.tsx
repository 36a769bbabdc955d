import { CheckOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Badge, Button, Card, Form, Input, Result, Select, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DictSelect } from '../../components/dict/dict-select.tsx';
import { DictTag } from '../../components/dict/dict-tag.tsx';
import { type InboxFilters, NOTICE_KEYS, noticeApi, type ReceivedNotice } from './notice.api.ts';
import { NoticeViewModal } from './notice-view-modal.tsx';

/** 我的消息: the signed-in user's received notices, with filters and paging; a click opens one (and reads it). */
export default function NoticeInboxPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<InboxFilters>();
  const [filters, setFilters] = useState<InboxFilters>({});
  const [paging, setPaging] = useState({ page: 1, pageSize: 20 });
  const [viewing, setViewing] = useState<number | null>(null);
  const request = { ...filters, ...paging };
  const query = useQuery({
    queryKey: NOTICE_KEYS.inbox(request),
    queryFn: () => noticeApi.pageReceived(request),
    placeholderData: keepPreviousData,
  });

  const search = (values: InboxFilters) => {
    const clean = Object.fromEntries(
      Object.entries(values).filter(([, v]) => v !== undefined && v !== null && v !== ''),
    ) as InboxFilters;
    setFilters(clean);
    setPaging((p) => ({ ...p, page: 1 }));
  };

  const allRead = async () => {
    try {
      await noticeApi.setAllRead();
      message.success(t('noticeInbox.allReadDone'));
      void client.invalidateQueries({ queryKey: NOTICE_KEYS.unread });
      void client.invalidateQueries({ queryKey: ['sysNotice', 'inbox'] });
    } catch (error) {
      message.error(error instanceof Error ? error.message : String(error));
    }
  };

  const columns: ColumnsType<ReceivedNotice> = [
    {
      key: 'title',
      title: t('noticeInbox.noticeTitle'),
      dataIndex: 'title',
      ellipsis: true,
      render: (title: string, row) => (
        <Space size={8}>
          <Badge status={row.readStatus === 0 ? 'processing' : 'default'} />
          <Typography.Link strong={row.readStatus === 0} data-testid="inbox-title">
            {title}
          </Typography.Link>
        </Space>
      ),
    },
    {
      key: 'type',
      title: t('noticeInbox.type'),
      dataIndex: 'type',
      width: 100,
      render: (value: number) => <DictTag code="notice_type" value={value} />,
    },
    {
      key: 'publicUserName',
      title: t('noticeInbox.publisher'),
      dataIndex: 'publicUserName',
      width: 200,
      ellipsis: true,
      render: (name: string | null, row) => [name, row.publicOrgName].filter(Boolean).join(' · '),
    },
    { key: 'publicTime', title: t('noticeInbox.publicTime'), dataIndex: 'publicTime', width: 180 },
    {
      key: 'readStatus',
      title: t('noticeInbox.readStatus'),
      dataIndex: 'readStatus',
      width: 100,
      render: (value: number) =>
        value === 0 ? (
          <Tag color="processing" data-testid="inbox-unread">
            {t('noticeInbox.unread')}
          </Tag>
        ) : (
          <Tag data-testid="inbox-read">{t('noticeInbox.read')}</Tag>
        ),
    },
  ];

  return (
    <Card
      title={t('noticeInbox.title')}
      data-testid="notice-inbox-page"
      extra={
        <Button icon={<CheckOutlined />} onClick={allRead} data-testid="inbox-all-read">
          {t('noticeInbox.allRead')}
        </Button>
      }
    >
      <Form form={form} layout="inline" onFinish={search} style={{ marginBottom: 16, rowGap: 8 }}>
        <Form.Item name="title" label={t('noticeInbox.noticeTitle')}>
          <Input allowClear style={{ width: 200 }} data-testid="inbox-filter-title" />
        </Form.Item>
        <Form.Item name="type" label={t('noticeInbox.type')}>
          <DictSelect code="notice_type" numeric style={{ width: 140 }} />
        </Form.Item>
        <Form.Item name="readStatus" label={t('noticeInbox.readStatus')}>
          <Select
            allowClear
            style={{ width: 120 }}
            options={[
              { value: 0, label: t('noticeInbox.unread') },
              { value: 1, label: t('noticeInbox.read') },
            ]}
            data-testid="inbox-filter-read"
          />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" icon={<SearchOutlined />} data-testid="inbox-search">
              {t('noticeInbox.search')}
            </Button>
            <Button
              icon={<ReloadOutlined />}
              onClick={() => {
                form.resetFields();
                search({});
              }}
            >
              {t('noticeInbox.reset')}
            </Button>
          </Space>
        </Form.Item>
      </Form>
      {query.isError ? (
        <Result
          status="warning"
          title={t('sysNotice.loadFailed')}
          subTitle={query.error instanceof Error ? query.error.message : undefined}
          extra={<Button onClick={() => void query.refetch()}>{t('common.retry')}</Button>}
        />
      ) : (
        <Table<ReceivedNotice>
          rowKey="id"
          columns={columns}
          dataSource={query.data?.items ?? []}
          loading={query.isFetching}
          locale={{ emptyText: t('noticeInbox.emptyInbox') }}
          onRow={(row) => ({
            onClick: () => setViewing(row.id),
            onKeyDown: (e) => {
              if (e.key === 'Enter') setViewing(row.id);
            },
            tabIndex: 0,
            style: { cursor: 'pointer' },
            'data-testid': 'inbox-row',
          })}
          pagination={{
            current: paging.page,
            pageSize: paging.pageSize,
            total: query.data?.total ?? 0,
            showSizeChanger: true,
            showTotal: (total) => t('noticeInbox.total', { total }),
            onChange: (page, pageSize) =>
              setPaging((p) => ({ page: pageSize !== p.pageSize ? 1 : page, pageSize })),
          }}
          data-testid="inbox-table"
        />
      )}
      <NoticeViewModal id={viewing} onClose={() => setViewing(null)} />
    </Card>
  );
}
