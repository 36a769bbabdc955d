import { EditOutlined, EyeOutlined, PlusOutlined, RollbackOutlined, SendOutlined } from '@ant-design/icons';
import { NOTICE_AUDIENCE, NOTICE_STATUS } from '@shuzhi/contracts/notice';
import { useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  type ButtonProps,
  Card,
  Modal,
  Popconfirm,
  Skeleton,
  Space,
  Tooltip,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage } from '../../components/crud-page/crud-page.tsx';
import type { CrudColumn } from '../../components/crud-page/crud-types.ts';
import { DictSelect } from '../../components/dict/dict-select.tsx';
import { DictTag } from '../../components/dict/dict-tag.tsx';
import { RichTextView } from '../../components/rich-text/rich-text-view.tsx';
import { Auth, useCan } from '../../platform/access/access.tsx';
import { UnauthorizedError } from '../../platform/http/http-client.ts';
import { type TextKey, textOf } from '../../platform/i18n/text-key.ts';
import {
  NOTICE_KEYS,
  type NoticeDetail,
  type NoticeFilters,
  type NoticeRow,
  noticeApi,
  noticeResource,
} from './notice.api.ts';
import { NoticeEditor, type NoticeEditorTarget } from './notice-editor.tsx';

const EDITABLE: readonly number[] = [NOTICE_STATUS.draft, NOTICE_STATUS.scheduled, NOTICE_STATUS.withdrawn];
const AUDIENCE_LABEL: Record<number, TextKey> = {
  [NOTICE_AUDIENCE.all]: 'sysNotice.audienceAll',
  [NOTICE_AUDIENCE.orgs]: 'sysNotice.audienceOrgs',
  [NOTICE_AUDIENCE.roles]: 'sysNotice.audienceRoles',
  [NOTICE_AUDIENCE.users]: 'sysNotice.audienceUsers',
};

/** The recipients in a few words: 全部用户, or the kind with the first names (all of them in the tooltip). */
function AudienceSummary({ row }: { row: NoticeRow }) {
  const { t } = useTranslation();
  const kind = textOf(t, AUDIENCE_LABEL[row.audience] ?? 'sysNotice.audienceAll');
  if (row.audience === NOTICE_AUDIENCE.all) return <span data-testid="notice-audience">{kind}</span>;
  const names = row.audienceNames;
  const separator = t('common.listSeparator');
  const shown = names.slice(0, 2).join(separator);
  const text =
    names.length > 2 ? t('sysNotice.audienceSummary', { names: shown, count: names.length }) : shown;
  return (
    <Tooltip title={names.join(separator)}>
      <span data-testid="notice-audience">
        <Typography.Text type="secondary">
          {kind}
          {t('common.colon')}
        </Typography.Text>
        {text}
      </span>
    </Tooltip>
  );
}

/** 通知公告 (issue 4 §4): write, publish (now or at a time), withdraw; recipients read them in their inbox. */
export default function NoticePage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { can } = useCan();
  const client = useQueryClient();
  const [editing, setEditing] = useState<NoticeEditorTarget>(null);
  const [previewing, setPreviewing] = useState<{ row: NoticeRow; detail?: NoticeDetail } | null>(null);

  const refresh = () => void client.invalidateQueries({ queryKey: NOTICE_KEYS.all });
  const fail = (error: unknown) => {
    if (error instanceof UnauthorizedError) return;
    message.error(error instanceof Error && error.message ? error.message : t('crud.failed'));
  };
  const act = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      message.success(done);
      refresh();
    } catch (error) {
      fail(error);
    }
  };
  const preview = async (row: NoticeRow) => {
    setPreviewing({ row });
    try {
      const detail = await noticeApi.detail(row.id);
      setPreviewing((current) => (current?.row.id === row.id ? { row, detail } : current));
    } catch (error) {
      setPreviewing(null);
      fail(error);
    }
  };

  const columns: CrudColumn<NoticeRow>[] = [
    {
      key: 'title',
      title: t('sysNotice.noticeTitle'),
      sort: true,
      ellipsis: true,
      width: 220,
      render: (title: string, row) => (
        <Typography.Link onClick={() => preview(row)} data-testid="notice-row-title">
          {title}
        </Typography.Link>
      ),
    },
    {
      key: 'type',
      title: t('sysNotice.type'),
      sort: true,
      width: 90,
      render: (value: number) => <DictTag code="notice_type" value={value} />,
    },
    {
      key: 'status',
      title: t('sysNotice.status'),
      sort: true,
      width: 100,
      render: (value: number) => <DictTag code="notice_status" value={value} data-testid="notice-status" />,
    },
    {
      key: 'audience',
      title: t('sysNotice.audience'),
      width: 180,
      ellipsis: true,
      render: (_: unknown, row) => <AudienceSummary row={row} />,
    },
    {
      key: 'readCount',
      title: t('sysNotice.readStats'),
      width: 100,
      align: 'right',
      render: (_: unknown, row) =>
        row.publicTime ? (
          <span data-testid="notice-read-stats">
            {row.readCount} / {row.recipientCount}
          </span>
        ) : (
          '—'
        ),
    },
    {
      key: 'publicTime',
      title: t('sysNotice.publicTime'),
      sort: true,
      widthText: () => '2026-01-01 00:00:00',
      render: (value: string | null, row) =>
        row.status === NOTICE_STATUS.scheduled && row.publishAt ? (
          <Tooltip title={t('sysNotice.publishAt')}>
            <Typography.Text type="warning">{row.publishAt}</Typography.Text>
          </Tooltip>
        ) : (
          (value ?? '—')
        ),
    },
    {
      key: 'publicUserName',
      title: t('sysNotice.publisher'),
      width: 110,
      render: (value: string | null) => value ?? '—',
    },
  ];

  return (
    <Card title={t('sysNotice.title')} data-testid="notice-page">
      <CrudPage<NoticeRow, NoticeFilters>
        resource={noticeResource}
        entityName={t('sysNotice.entity')}
        columns={columns}
        searchFields={[
          { name: 'title', label: t('sysNotice.noticeTitle') },
          {
            name: 'type',
            label: t('sysNotice.type'),
            input: <DictSelect code="notice_type" numeric style={{ width: 140 }} />,
          },
          {
            name: 'status',
            label: t('sysNotice.status'),
            input: (
              <DictSelect
                code="notice_status"
                numeric
                style={{ width: 140 }}
                data-testid="notice-filter-status"
              />
            ),
          },
        ]}
        permissions={{
          delete: 'sysNotice:delete',
          batchDelete: 'sysNotice:delete',
          export: 'sysNotice:page',
        }}
        canDelete={(row) => row.status !== NOTICE_STATUS.published}
        deleteBlockedText={t('sysNotice.deleteBlocked')}
        toolbarExtra={
          <Auth value="sysNotice:add">
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing({})}
              data-testid="notice-add"
            >
              {t('sysNotice.add')}
            </Button>
          </Auth>
        }
        rowActions={(row) => (
          <Space size={0}>
            <Button
              type="link"
              size="small"
              icon={<EyeOutlined />}
              onClick={() => preview(row)}
              data-testid="notice-preview-row"
            >
              {t('sysNotice.preview')}
            </Button>
            {EDITABLE.includes(row.status) && can('sysNotice:update') ? (
              <Button
                type="link"
                size="small"
                icon={<EditOutlined />}
                onClick={() => setEditing({ id: row.id })}
                data-testid="notice-edit"
              >
                {t('sysNotice.edit')}
              </Button>
            ) : null}
            {row.status !== NOTICE_STATUS.published && can('sysNotice:publish') ? (
              <Popconfirm
                title={t('sysNotice.publishConfirmTitle')}
                description={t('sysNotice.publishConfirm', {
                  title: row.title,
                  audience: textOf(t, AUDIENCE_LABEL[row.audience] ?? 'sysNotice.audienceAll'),
                })}
                okText={t('common.ok')}
                cancelText={t('common.cancel')}
                okButtonProps={{ 'data-testid': 'notice-row-publish-ok' } as ButtonProps}
                onConfirm={() => act(() => noticeApi.publish(row.id), t('sysNotice.published'))}
              >
                <Button type="link" size="small" icon={<SendOutlined />} data-testid="notice-publish">
                  {t('sysNotice.publish')}
                </Button>
              </Popconfirm>
            ) : null}
            {(row.status === NOTICE_STATUS.published || row.status === NOTICE_STATUS.scheduled) &&
            can('sysNotice:withdraw') ? (
              <Popconfirm
                title={t(
                  row.status === NOTICE_STATUS.published ? 'sysNotice.withdraw' : 'sysNotice.cancelSchedule',
                )}
                description={t(
                  row.status === NOTICE_STATUS.published
                    ? 'sysNotice.withdrawConfirm'
                    : 'sysNotice.cancelScheduleConfirm',
                  { title: row.title },
                )}
                okText={t('common.ok')}
                cancelText={t('common.cancel')}
                okButtonProps={{ danger: true, 'data-testid': 'notice-withdraw-ok' } as ButtonProps}
                onConfirm={() => act(() => noticeApi.withdraw(row.id), t('sysNotice.withdrawn'))}
              >
                <Button
                  type="link"
                  size="small"
                  danger
                  icon={<RollbackOutlined />}
                  data-testid="notice-withdraw"
                >
                  {t(
                    row.status === NOTICE_STATUS.published
                      ? 'sysNotice.withdraw'
                      : 'sysNotice.cancelSchedule',
                  )}
                </Button>
              </Popconfirm>
            ) : null}
          </Space>
        )}
        extraActionWidth={200}
        exportFileName={t('sysNotice.exportName')}
        testId="notice"
      />
      <NoticeEditor target={editing} onClose={() => setEditing(null)} onSaved={refresh} />
      <Modal
        open={previewing !== null}
        onCancel={() => setPreviewing(null)}
        footer={null}
        width={760}
        title={previewing?.row.title}
        data-testid="notice-preview"
      >
        {previewing?.detail ? (
          <div style={{ maxHeight: '60vh', overflowY: 'auto' }}>
            <RichTextView html={previewing.detail.content} data-testid="notice-preview-body" />
          </div>
        ) : (
          <Skeleton active />
        )}
      </Modal>
    </Card>
  );
}
