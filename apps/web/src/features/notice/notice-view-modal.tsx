import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Modal, Skeleton, Space, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { DictTag } from '../../components/dict/dict-tag.tsx';
import { RichTextView } from '../../components/rich-text/rich-text-view.tsx';
import { NOTICE_KEYS, noticeApi } from './notice.api.ts';

/**
 * One received notice in a dialog: title, type, publisher and time, the body. Opening it marks it read on the
 * server; the unread count and the inbox refresh.
 */
export function NoticeViewModal({ id, onClose }: { id: number | null; onClose(): void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const query = useQuery({
    queryKey: NOTICE_KEYS.received(id ?? 0),
    queryFn: () => noticeApi.received(id ?? 0),
    enabled: id !== null,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
  const notice = query.data;
  useEffect(() => {
    if (!notice) return;
    void client.invalidateQueries({ queryKey: NOTICE_KEYS.unread });
    void client.invalidateQueries({ queryKey: ['sysNotice', 'inbox'] });
  }, [notice, client]);

  return (
    <Modal
      open={id !== null}
      onCancel={onClose}
      footer={null}
      width={760}
      destroyOnHidden
      title={notice ? notice.title : t('noticeInbox.bell')}
      data-testid="notice-view"
    >
      {query.isPending ? (
        <Skeleton active paragraph={{ rows: 5 }} />
      ) : query.isError || !notice ? (
        <Alert type="warning" showIcon message={t('noticeInbox.gone')} data-testid="notice-view-gone" />
      ) : (
        <>
          <Space size={8} wrap style={{ marginBottom: 12 }}>
            <DictTag code="notice_type" value={notice.type} />
            <Typography.Text type="secondary" data-testid="notice-view-meta">
              {t('noticeInbox.from', { name: notice.publicUserName ?? '', time: notice.publicTime ?? '' })}
            </Typography.Text>
            {notice.publicOrgName ? (
              <Typography.Text type="secondary">{notice.publicOrgName}</Typography.Text>
            ) : null}
          </Space>
          <div style={{ maxHeight: '60vh', overflowY: 'auto' }}>
            <RichTextView html={notice.content} data-testid="notice-view-body" />
          </div>
        </>
      )}
    </Modal>
  );
}
