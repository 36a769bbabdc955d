import { BellOutlined } from '@ant-design/icons';
import type { NoticeEventPayload, NoticeWithdrawnPayload } from '@shuzhi/contracts/notice';
import { REALTIME_EVENTS } from '@shuzhi/contracts/realtime';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Badge, Button, Empty, List, Popover, Space, Spin, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { DictTag } from '../../components/dict/dict-tag.tsx';
import { useRealtimeEvent } from '../../platform/realtime/realtime.ts';
import { NOTICE_KEYS, noticeApi } from './notice.api.ts';
import { NoticeViewModal } from './notice-view-modal.tsx';

const INBOX_PATH = '/notice/inbox';

/**
 * The bell of the top bar: the unread count, a panel of the newest unread notices with 全部已读 and 查看全部,
 * and the realtime toasts — `notice` shows the title (a click opens it), `noticeWithdrawn` refreshes the count.
 */
export function NoticeBell({ color }: { color?: string }) {
  const { t } = useTranslation();
  const { notification, message } = App.useApp();
  const client = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [viewing, setViewing] = useState<number | null>(null);
  const unread = useQuery({ queryKey: NOTICE_KEYS.unread, queryFn: noticeApi.unread, staleTime: 30_000 });
  const count = unread.data?.count ?? 0;

  const refresh = () => {
    void client.invalidateQueries({ queryKey: NOTICE_KEYS.unread });
    void client.invalidateQueries({ queryKey: ['sysNotice', 'inbox'] });
  };

  useRealtimeEvent<NoticeEventPayload>(REALTIME_EVENTS.notice, (payload) => {
    refresh();
    const key = `notice-${payload.id}`;
    notification.info({
      key,
      icon: <BellOutlined style={{ color: '#1677ff' }} />,
      title: (
        <span data-testid="notice-toast-title">
          {t('noticeInbox.newNotice', {
            type: t(payload.type === 2 ? 'sysNotice.typeAnnouncement' : 'sysNotice.typeNotice'),
          })}
          {t('common.colon')}
          {payload.title}
        </span>
      ),
      description: (
        <Typography.Text type="secondary">
          {t('noticeInbox.from', { name: payload.publicUserName ?? '', time: payload.publicTime })} ·{' '}
          {t('noticeInbox.openHint')}
        </Typography.Text>
      ),
      placement: 'topRight',
      duration: 8,
      style: { cursor: 'pointer' },
      onClick: () => {
        notification.destroy(key);
        setViewing(payload.id);
      },
      props: { 'data-testid': 'notice-toast' },
    } as Parameters<typeof notification.info>[0]);
  });
  useRealtimeEvent<NoticeWithdrawnPayload>(REALTIME_EVENTS.noticeWithdrawn, (payload) => {
    refresh();
    notification.destroy(`notice-${payload.id}`);
  });

  const allRead = async () => {
    try {
      await noticeApi.setAllRead();
      message.success(t('noticeInbox.allReadDone'));
      refresh();
    } catch (error) {
      message.error(error instanceof Error ? error.message : String(error));
    }
  };

  const panel = (
    <div style={{ width: 340 }} data-testid="notice-panel">
      <Space style={{ width: '100%', justifyContent: 'space-between', padding: '4px 0 8px' }}>
        <Typography.Text strong>
          {t('noticeInbox.bell')}
          {count > 0 ? (
            <Typography.Text type="secondary" style={{ marginInlineStart: 8, fontWeight: 'normal' }}>
              {t('noticeInbox.unreadCount', { count })}
            </Typography.Text>
          ) : null}
        </Typography.Text>
        <Button
          type="link"
          size="small"
          disabled={count === 0}
          onClick={allRead}
          data-testid="notice-all-read"
        >
          {t('noticeInbox.allRead')}
        </Button>
      </Space>
      {unread.isPending ? (
        <div style={{ textAlign: 'center', padding: 24 }}>
          <Spin />
        </div>
      ) : (unread.data?.items.length ?? 0) === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('noticeInbox.empty')} />
      ) : (
        <List
          size="small"
          dataSource={unread.data?.items ?? []}
          renderItem={(item) => (
            <List.Item
              style={{ cursor: 'pointer', paddingInline: 4 }}
              onClick={() => {
                setOpen(false);
                setViewing(item.id);
              }}
              data-testid="notice-panel-item"
            >
              <List.Item.Meta
                title={
                  <Space size={6}>
                    <DictTag code="notice_type" value={item.type} />
                    <Typography.Text ellipsis style={{ maxWidth: 230 }} title={item.title}>
                      {item.title}
                    </Typography.Text>
                  </Space>
                }
                description={
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {t('noticeInbox.from', { name: item.publicUserName ?? '', time: item.publicTime ?? '' })}
                  </Typography.Text>
                }
              />
            </List.Item>
          )}
        />
      )}
      <div style={{ borderTop: '1px solid rgba(5,5,5,0.06)', paddingTop: 6, textAlign: 'center' }}>
        <Button
          type="link"
          size="small"
          onClick={() => {
            setOpen(false);
            navigate(INBOX_PATH);
          }}
          data-testid="notice-view-all"
        >
          {t('noticeInbox.viewAll')}
        </Button>
      </div>
    </div>
  );

  return (
    <>
      <Popover
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (next) void unread.refetch();
        }}
        trigger="click"
        placement="bottomRight"
        content={panel}
        arrow={false}
      >
        <Tooltip title={open ? null : t('noticeInbox.bell')}>
          <Button
            type="text"
            style={{ color }}
            aria-label={`${t('noticeInbox.bell')}${count > 0 ? ` (${t('noticeInbox.unreadCount', { count })})` : ''}`}
            data-testid="notice-bell"
            icon={
              <Badge
                count={count}
                size="small"
                overflowCount={99}
                offset={[4, -2]}
                data-testid="notice-badge"
              >
                <BellOutlined style={{ color, fontSize: 16 }} />
              </Badge>
            }
          />
        </Tooltip>
      </Popover>
      <NoticeViewModal id={viewing} onClose={() => setViewing(null)} />
    </>
  );
}
