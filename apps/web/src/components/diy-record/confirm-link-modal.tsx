import { CopyOutlined } from '@ant-design/icons';
import { ROW_CONFIRM_DAYS, type RowConfirmState } from '@shuzhi/contracts/diy-confirm';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Flex,
  Form,
  Input,
  Modal,
  QRCode,
  Radio,
  Space,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../platform/feedback/feedback.ts';
import { useReclickGuard } from '../use-reclick-guard.ts';
import {
  absoluteUrl,
  DIY_CONFIRM_KEYS,
  diyConfirmApi,
  type RowConfirmCreateResult,
  type RowConfirmItem,
} from './diy-confirm.api.ts';

export type ConfirmLinkModalProps = {
  tableId: number;
  recordId: number;
  open: boolean;
  onClose: () => void;
};

const STATE_COLORS: Record<RowConfirmState, string> = {
  open: 'processing',
  confirmed: 'success',
  disputed: 'error',
  expired: 'default',
};

type Values = { subject?: string; days: (typeof ROW_CONFIRM_DAYS)[number] };

/**
 * 发起确认 (issue 6 §6): a link for the subject of a record — who it is for and how long it stays valid —
 * shown once with a copy button and a QR code, and the links sent before with their state.
 */
export function ConfirmLinkModal({ tableId, recordId, open, onClose }: ConfirmLinkModalProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [created, setCreated] = useState<RowConfirmCreateResult | null>(null);
  const links = useQuery({
    queryKey: DIY_CONFIRM_KEYS.list(tableId, recordId),
    queryFn: () => diyConfirmApi.list(tableId, recordId),
    enabled: open,
  });
  const create = useMutation({
    mutationFn: (values: Values) =>
      diyConfirmApi.create({
        tableId,
        recordId,
        days: values.days,
        ...(values.subject?.trim() ? { subject: values.subject.trim() } : {}),
      }),
    onSuccess: (result) => {
      setCreated(result);
      void queryClient.invalidateQueries({ queryKey: DIY_CONFIRM_KEYS.list(tableId, recordId) });
    },
    onError: (error) => feedback.error(error.message || t('diyConfirm.createFailed')),
  });
  const submit = useReclickGuard((values: Values) => create.mutate(values));
  const url = created ? absoluteUrl(created.url) : '';

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      feedback.success(t('diyConfirm.copied'));
    } catch {
      feedback.error(t('diyConfirm.copyFailed'));
    }
  };

  const columns: TableColumnsType<RowConfirmItem> = [
    {
      key: 'subject',
      title: t('diyConfirm.colSubject'),
      dataIndex: 'subject',
      width: 120,
      render: (value: string | null) =>
        value ?? <Typography.Text type="secondary">{t('diyConfirm.noSubject')}</Typography.Text>,
    },
    {
      key: 'state',
      title: t('diyConfirm.colState'),
      dataIndex: 'state',
      width: 96,
      render: (state: RowConfirmState) => (
        <Tag color={STATE_COLORS[state]} data-testid={`diy-confirm-state-${state}`}>
          {t(`diyConfirm.state.${state}`)}
        </Tag>
      ),
    },
    {
      key: 'answer',
      title: t('diyConfirm.colAnswer'),
      render: (_, item) =>
        item.answerTime ? (
          <span style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
            {item.answerComment ? `${item.answerComment}（${item.answerTime}）` : item.answerTime}
          </span>
        ) : null,
    },
    { key: 'expire', title: t('diyConfirm.colExpire'), dataIndex: 'expireTime', width: 170 },
    { key: 'creator', title: t('diyConfirm.colCreator'), dataIndex: 'createUserName', width: 100 },
    { key: 'createTime', title: t('diyConfirm.colCreateTime'), dataIndex: 'createTime', width: 170 },
  ];

  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={t('diyConfirm.modalTitle')}
      width="min(960px, 100vw)"
      footer={null}
      destroyOnHidden
      data-testid="diy-confirm-modal"
    >
      <Typography.Paragraph type="secondary">{t('diyConfirm.intro')}</Typography.Paragraph>
      {created ? (
        <Flex gap={16} wrap align="flex-start" style={{ marginBottom: 16 }} data-testid="diy-confirm-created">
          <QRCode value={url} size={160} data-testid="diy-confirm-qr" />
          <Flex vertical gap={8} style={{ flex: '1 1 320px', minWidth: 0 }}>
            <Typography.Text strong>{t('diyConfirm.link')}</Typography.Text>
            <Space.Compact style={{ width: '100%' }}>
              <Input value={url} readOnly aria-label={t('diyConfirm.link')} data-testid="diy-confirm-url" />
              <Button icon={<CopyOutlined />} onClick={() => void copy()} data-testid="diy-confirm-copy">
                {t('diyConfirm.copy')}
              </Button>
            </Space.Compact>
            <Typography.Text type="secondary">
              {t('diyConfirm.expireAt', { time: created.expireTime })}
            </Typography.Text>
            <Alert type="warning" showIcon title={t('diyConfirm.linkOnce')} />
            <div>
              <Button onClick={() => setCreated(null)} data-testid="diy-confirm-another">
                {t('diyConfirm.another')}
              </Button>
            </div>
          </Flex>
        </Flex>
      ) : (
        <Form
          form={form}
          layout="vertical"
          initialValues={{ days: 7 }}
          onFinish={submit}
          data-testid="diy-confirm-form"
        >
          <Form.Item name="subject" label={t('diyConfirm.subject')}>
            <Input
              maxLength={128}
              placeholder={t('diyConfirm.subjectPlaceholder')}
              data-testid="diy-confirm-subject"
            />
          </Form.Item>
          <Form.Item name="days" label={t('diyConfirm.days')}>
            <Radio.Group
              optionType="button"
              options={ROW_CONFIRM_DAYS.map((d) => ({ value: d, label: t(`diyConfirm.daysOption.d${d}`) }))}
              data-testid="diy-confirm-days"
            />
          </Form.Item>
          <Button
            type="primary"
            htmlType="submit"
            loading={create.isPending}
            data-testid="diy-confirm-create"
          >
            {t('diyConfirm.create')}
          </Button>
        </Form>
      )}
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t('diyConfirm.earlier')}
      </Typography.Title>
      {links.isError ? (
        <Alert
          type="error"
          showIcon
          title={t('diyConfirm.loadFailed')}
          description={links.error.message}
          action={
            <Button size="small" onClick={() => void links.refetch()}>
              {t('diyConfirm.retry')}
            </Button>
          }
        />
      ) : (
        <Table<RowConfirmItem>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={links.data ?? []}
          loading={links.isLoading}
          pagination={{ pageSize: 5, hideOnSinglePage: true }}
          scroll={{ x: 760 }}
          locale={{ emptyText: t('diyConfirm.noLinks') }}
          data-testid="diy-confirm-links"
        />
      )}
    </Modal>
  );
}
