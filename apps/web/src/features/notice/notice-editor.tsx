import { EyeOutlined, SaveOutlined, SendOutlined } from '@ant-design/icons';
import { NOTICE_AUDIENCE, NOTICE_STATUS } from '@shuzhi/contracts/notice';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  type ButtonProps,
  DatePicker,
  Drawer,
  Form,
  Input,
  Modal,
  Radio,
  Select,
  Skeleton,
  Space,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { OrgTreeSelect } from '../../components/org-tree/org-tree-select.tsx';
import { RichTextEditor } from '../../components/rich-text/rich-text-editor.tsx';
import { RichTextView } from '../../components/rich-text/rich-text-view.tsx';
import { useCan } from '../../platform/access/access.tsx';
import { serverFieldErrors } from '../../platform/data/field-errors.ts';
import { UnauthorizedError } from '../../platform/http/http-client.ts';
import { zoneDayjs } from '../../platform/time/zone-dayjs.ts';
import { NOTICE_KEYS, type NoticeDetail, noticeApi } from './notice.api.ts';

type Mode = 'now' | 'later';
type Values = {
  title: string;
  type: 1 | 2;
  audience: 1 | 2 | 3 | 4;
  orgIds?: number[];
  roleIds?: number[];
  userIds?: number[];
  content: string;
  mode: Mode;
  publishAt?: Dayjs | null;
};

const FORMAT = 'YYYY-MM-DD HH:mm:ss';
const AUDIENCE_FIELD = { 2: 'orgIds', 3: 'roleIds', 4: 'userIds' } as const;
const AUDIENCE_LABEL = {
  1: 'sysNotice.audienceAll',
  2: 'sysNotice.audienceOrgs',
  3: 'sysNotice.audienceRoles',
  4: 'sysNotice.audienceUsers',
} as const;

/** Whether the body has something to read (text or an image), not just empty paragraphs. */
function hasContent(html: string | undefined): boolean {
  if (!html) return false;
  if (/<img\s/i.test(html)) return true;
  return (
    html
      .replace(/<[^>]*>/g, '')
      .replace(/&nbsp;/g, ' ')
      .trim().length > 0
  );
}

function toValues(detail: NoticeDetail): Values {
  const ids = detail.audienceIds;
  return {
    title: detail.title,
    type: detail.type as 1 | 2,
    audience: detail.audience as Values['audience'],
    orgIds: detail.audience === NOTICE_AUDIENCE.orgs ? ids : [],
    roleIds: detail.audience === NOTICE_AUDIENCE.roles ? ids : [],
    userIds: detail.audience === NOTICE_AUDIENCE.users ? ids : [],
    content: detail.content,
    mode: detail.status === NOTICE_STATUS.scheduled ? 'later' : 'now',
    publishAt: detail.publishAt ? dayjs(detail.publishAt) : null,
  };
}

export type NoticeEditorTarget = { id?: number } | null;

/**
 * 新增 / 编辑通知公告 in a drawer: title, type, recipients (everyone, orgs with their subtrees, roles, users),
 * the rich-text body, publishing now or at a time. 预览 saves the draft and shows the body as the server stored
 * it (sanitised), exactly as recipients will see it.
 */
export function NoticeEditor({
  target,
  onClose,
  onSaved,
}: {
  target: NoticeEditorTarget;
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const { can } = useCan();
  const [form] = Form.useForm<Values>();
  const open = target !== null;
  const [savedId, setSavedId] = useState<number | undefined>(undefined);
  const [busy, setBusy] = useState<null | 'save' | 'publish' | 'preview'>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [keyword, setKeyword] = useState('');
  const deferred = useDeferredValue(keyword.trim());
  const [userLabels, setUserLabels] = useState<Map<number, string>>(new Map());
  const audience = Form.useWatch('audience', form) ?? 1;
  const mode = Form.useWatch('mode', form) ?? 'now';

  const editingId = target?.id;
  const detail = useQuery({
    queryKey: NOTICE_KEYS.detail(editingId ?? 0),
    queryFn: () => noticeApi.detail(editingId ?? 0),
    enabled: open && editingId !== undefined,
    staleTime: 0,
    gcTime: 0,
  });
  const roles = useQuery({
    queryKey: NOTICE_KEYS.roles,
    queryFn: noticeApi.roles,
    enabled: open && audience === NOTICE_AUDIENCE.roles,
    staleTime: 60_000,
  });
  const users = useQuery({
    queryKey: NOTICE_KEYS.users(deferred),
    queryFn: () => noticeApi.searchUsers(deferred),
    enabled: open && audience === NOTICE_AUDIENCE.users,
    staleTime: 30_000,
  });

  // Each opening starts afresh: a new notice empty, an existing one from the server.
  useEffect(() => {
    if (!open) return;
    setSavedId(editingId);
    setPreview(null);
    setKeyword('');
    form.resetFields();
  }, [open, editingId, form]);
  useEffect(() => {
    const data = detail.data;
    if (!data) return;
    form.setFieldsValue(toValues(data));
    if (data.audience === NOTICE_AUDIENCE.users && data.audienceNames.length === data.audienceIds.length) {
      setUserLabels(new Map(data.audienceIds.map((id, i) => [id, data.audienceNames[i] ?? String(id)])));
    }
  }, [detail.data, form]);
  useEffect(() => {
    const items = users.data;
    if (!items?.length) return;
    setUserLabels((labels) => {
      const next = new Map(labels);
      for (const u of items)
        next.set(u.id, `${u.realName}（${u.account}）${u.orgName ? ` · ${u.orgName}` : ''}`);
      return next;
    });
  }, [users.data]);

  const selectedUsers = Form.useWatch('userIds', form) ?? [];
  const userOptions = useMemo(() => {
    const ids = new Set<number>([...(users.data?.map((u) => u.id) ?? []), ...selectedUsers]);
    return [...ids].map((id) => ({ value: id, label: userLabels.get(id) ?? String(id) }));
  }, [users.data, selectedUsers, userLabels]);
  const roleOptions = useMemo(
    () => (roles.data ?? []).map((r) => ({ value: r.id, label: r.name })),
    [roles.data],
  );

  const showError = (error: unknown) => {
    if (error instanceof UnauthorizedError) return;
    const { fields, rest } = serverFieldErrors(error, ['title', 'content', 'type', 'audience', 'publishAt']);
    if (fields.length > 0) form.setFields(fields as Parameters<typeof form.setFields>[0]);
    const text = rest[0] ?? (fields.length === 0 && error instanceof Error ? error.message : null);
    if (text) message.error(text);
  };

  /** Saves the form (add or update); answers the notice id. */
  const save = async (values: Values): Promise<number> => {
    const field = values.audience === 1 ? null : AUDIENCE_FIELD[values.audience];
    const body = {
      title: values.title.trim(),
      content: values.content ?? '',
      type: values.type,
      audience: values.audience,
      audienceIds: field ? (values[field] ?? []) : [],
    };
    if (savedId !== undefined) {
      await noticeApi.update({ id: savedId, ...body });
      return savedId;
    }
    const id = await noticeApi.add(body);
    setSavedId(id);
    return id;
  };

  const run = async (kind: 'save' | 'publish' | 'preview') => {
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    if (kind === 'publish') {
      const audienceText =
        values.audience === 1
          ? t('sysNotice.everyone')
          : `${t(AUDIENCE_LABEL[values.audience])}（${(values[AUDIENCE_FIELD[values.audience]] ?? []).length}）`;
      const later = values.mode === 'later' && values.publishAt;
      const confirmed = await modal.confirm({
        title: t('sysNotice.publishConfirmTitle'),
        content: later
          ? t('sysNotice.scheduleConfirm', {
              title: values.title,
              audience: audienceText,
              time: values.publishAt?.format(FORMAT),
            })
          : t('sysNotice.publishConfirm', { title: values.title, audience: audienceText }),
        okText: t('common.ok'),
        cancelText: t('common.cancel'),
        okButtonProps: { 'data-testid': 'notice-publish-ok' } as ButtonProps,
      });
      if (!confirmed) return;
    }
    setBusy(kind);
    try {
      const id = await save(values);
      if (kind === 'save') {
        message.success(t('sysNotice.saved'));
        onSaved();
        onClose();
      } else if (kind === 'preview') {
        const stored = await noticeApi.detail(id);
        onSaved();
        setPreview(stored.content);
      } else {
        const at = values.mode === 'later' ? values.publishAt?.format(FORMAT) : undefined;
        await noticeApi.publish(id, at);
        message.success(at ? t('sysNotice.scheduled', { time: at }) : t('sysNotice.published'));
        onSaved();
        onClose();
      }
    } catch (error) {
      showError(error);
    } finally {
      setBusy(null);
    }
  };

  const loading = editingId !== undefined && detail.isPending;
  const title = t(editingId === undefined ? 'sysNotice.addTitle' : 'sysNotice.editTitle');
  return (
    <Drawer
      open={open}
      onClose={onClose}
      size={880}
      destroyOnHidden
      title={title}
      data-testid="notice-editor"
      footer={
        <Space style={{ width: '100%', justifyContent: 'flex-end' }}>
          <Button onClick={onClose} disabled={busy !== null}>
            {t('common.cancel')}
          </Button>
          <Button
            icon={<EyeOutlined />}
            onClick={() => run('preview')}
            loading={busy === 'preview'}
            disabled={loading || (busy !== null && busy !== 'preview')}
            data-testid="notice-editor-preview"
          >
            {t('sysNotice.preview')}
          </Button>
          <Button
            icon={<SaveOutlined />}
            onClick={() => run('save')}
            loading={busy === 'save'}
            disabled={loading || (busy !== null && busy !== 'save')}
            data-testid="notice-editor-save"
          >
            {t('sysNotice.saveDraft')}
          </Button>
          {can('sysNotice:publish') ? (
            <Button
              type="primary"
              icon={<SendOutlined />}
              onClick={() => run('publish')}
              loading={busy === 'publish'}
              disabled={loading || (busy !== null && busy !== 'publish')}
              data-testid="notice-editor-publish"
            >
              {t(mode === 'later' ? 'sysNotice.saveAndSchedule' : 'sysNotice.saveAndPublish')}
            </Button>
          ) : null}
        </Space>
      }
    >
      {detail.isError ? (
        <Alert
          type="error"
          showIcon
          message={t('sysNotice.loadFailed')}
          description={detail.error instanceof Error ? detail.error.message : undefined}
        />
      ) : loading ? (
        <Skeleton active paragraph={{ rows: 10 }} />
      ) : (
        <Form<Values>
          form={form}
          layout="vertical"
          initialValues={{
            type: 1,
            audience: 1,
            mode: 'now',
            content: '',
            orgIds: [],
            roleIds: [],
            userIds: [],
          }}
          requiredMark
        >
          <Form.Item
            name="title"
            label={t('sysNotice.noticeTitle')}
            rules={[{ required: true, whitespace: true, message: t('sysNotice.titleRequired') }]}
          >
            <Input maxLength={128} showCount data-testid="notice-field-title" />
          </Form.Item>
          <Space size={32} wrap align="start">
            <Form.Item name="type" label={t('sysNotice.type')} rules={[{ required: true }]}>
              <Radio.Group
                optionType="button"
                options={[
                  { value: 1, label: t('sysNotice.typeNotice') },
                  { value: 2, label: t('sysNotice.typeAnnouncement') },
                ]}
                data-testid="notice-field-type"
              />
            </Form.Item>
            <Form.Item name="audience" label={t('sysNotice.audience')} rules={[{ required: true }]}>
              <Radio.Group
                optionType="button"
                options={([1, 2, 3, 4] as const).map((value) => ({
                  value,
                  label: <span data-testid={`notice-audience-${value}`}>{t(AUDIENCE_LABEL[value])}</span>,
                }))}
              />
            </Form.Item>
          </Space>
          {audience === NOTICE_AUDIENCE.orgs ? (
            <Form.Item
              name="orgIds"
              label={t('sysNotice.audienceOrgs')}
              extra={t('sysNotice.audienceOrgsHint')}
              rules={[{ required: true, type: 'array', min: 1, message: t('sysNotice.audienceRequired') }]}
            >
              <OrgTreeSelect multiple placeholder={t('sysNotice.pickOrgs')} data-testid="notice-field-orgs" />
            </Form.Item>
          ) : null}
          {audience === NOTICE_AUDIENCE.roles ? (
            <Form.Item
              name="roleIds"
              label={t('sysNotice.audienceRoles')}
              rules={[{ required: true, type: 'array', min: 1, message: t('sysNotice.audienceRequired') }]}
            >
              <Select
                mode="multiple"
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
                loading={roles.isPending}
                options={roleOptions}
                placeholder={t('sysNotice.pickRoles')}
                data-testid="notice-field-roles"
              />
            </Form.Item>
          ) : null}
          {audience === NOTICE_AUDIENCE.users ? (
            <Form.Item
              name="userIds"
              label={t('sysNotice.audienceUsers')}
              rules={[{ required: true, type: 'array', min: 1, message: t('sysNotice.audienceRequired') }]}
            >
              <Select
                mode="multiple"
                allowClear
                showSearch={{ filterOption: false, onSearch: setKeyword, searchValue: keyword }}
                loading={users.isFetching}
                options={userOptions}
                notFoundContent={t('sysNotice.noUsers')}
                placeholder={t('sysNotice.pickUsers')}
                onChange={() => setKeyword('')}
                data-testid="notice-field-users"
              />
            </Form.Item>
          ) : null}
          <Form.Item
            name="content"
            label={t('sysNotice.content')}
            rules={[
              {
                validator: (_: unknown, value: string | undefined) =>
                  hasContent(value)
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('sysNotice.contentRequired'))),
              },
            ]}
            required
          >
            <RichTextEditor
              placeholder={t('sysNotice.contentPlaceholder')}
              aria-label={t('sysNotice.content')}
              data-testid="notice-field-content"
            />
          </Form.Item>
          <Space size={24} wrap align="start">
            <Form.Item name="mode" label={t('sysNotice.publishMode')}>
              <Radio.Group
                options={[
                  { value: 'now', label: t('sysNotice.publishNow') },
                  {
                    value: 'later',
                    label: <span data-testid="notice-mode-later">{t('sysNotice.publishLater')}</span>,
                  },
                ]}
              />
            </Form.Item>
            {mode === 'later' ? (
              <Form.Item
                name="publishAt"
                label={t('sysNotice.publishAt')}
                rules={[
                  { required: true, message: t('sysNotice.timeRequired') },
                  {
                    validator: (_: unknown, value: Dayjs | null | undefined) =>
                      !value || value.isAfter(zoneDayjs())
                        ? Promise.resolve()
                        : Promise.reject(new Error(t('sysNotice.timePast'))),
                  },
                ]}
              >
                <DatePicker
                  showTime={{ format: 'HH:mm' }}
                  format="YYYY-MM-DD HH:mm"
                  placeholder={t('sysNotice.pickTime')}
                  disabledDate={(d) => d.isBefore(zoneDayjs(), 'day')}
                  data-testid="notice-field-publish-at"
                />
              </Form.Item>
            ) : null}
          </Space>
        </Form>
      )}
      <Modal
        open={preview !== null}
        onCancel={() => setPreview(null)}
        footer={null}
        width={760}
        title={
          <Space orientation="vertical" size={0}>
            <span>{form.getFieldValue('title')}</span>
            <Typography.Text type="secondary" style={{ fontSize: 12, fontWeight: 'normal' }}>
              {t('sysNotice.previewTitle')}
            </Typography.Text>
          </Space>
        }
        data-testid="notice-preview"
      >
        <div style={{ maxHeight: '60vh', overflowY: 'auto' }}>
          <RichTextView html={preview ?? ''} data-testid="notice-preview-body" />
        </div>
      </Modal>
    </Drawer>
  );
}
