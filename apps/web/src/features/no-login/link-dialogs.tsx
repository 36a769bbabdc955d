import { NO_LOGIN_MAX_DAYS, NO_LOGIN_MAX_USES, type NoLoginAddInput } from '@shuzhi/contracts/no-login';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import {
  Button,
  Drawer,
  Form,
  Image,
  Input,
  InputNumber,
  Modal,
  Radio,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReclickGuard } from '../../components/use-reclick-guard.ts';
import { feedback } from '../../platform/feedback/feedback.ts';
import { HttpError } from '../../platform/http/http-client.ts';
import {
  NO_LOGIN_KEYS,
  type NoLoginLink,
  type NoLoginSheetItem,
  type NoLoginUse,
  noLoginLinkApi,
} from './no-login.api.ts';

/** An SVG document as an image source (no markup of the server's is put into the page). */
const svgSource = (svg: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;

type CreateValues = {
  title: string;
  tableId: number;
  qrType: 'form' | 'record';
  recordId?: number;
  mode: 'view' | 'fillOne' | 'fillMany';
  days: number;
  maxUses?: number | null;
  remark?: string;
};

/** 新建链接: what the link opens and allows, for how long and how many uses. */
export function CreateLinkModal({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose(): void;
  onCreated(link: NoLoginLink): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<CreateValues>();
  const qrType = Form.useWatch('qrType', form) ?? 'form';
  const forms = useQuery({ queryKey: NO_LOGIN_KEYS.forms, queryFn: noLoginLinkApi.forms, enabled: open });
  const create = useMutation({
    mutationFn: (input: NoLoginAddInput) => noLoginLinkApi.add(input),
    onSuccess: (link) => {
      feedback.success(t('noLogin.created'));
      form.resetFields();
      onCreated(link);
    },
    onError: (error) => {
      if (error instanceof HttpError && error.errors && typeof error.errors === 'object') {
        form.setFields(
          Object.entries(error.errors).map(([name, errors]) => ({
            name: name as keyof CreateValues,
            errors: [errors].flat().map(String),
          })),
        );
      } else feedback.error(error.message);
    },
  });
  const submit = useReclickGuard((values: CreateValues) =>
    create.mutate({
      ...values,
      maxUses: values.maxUses ?? undefined,
      recordId: values.qrType === 'record' ? values.recordId : undefined,
    }),
  );
  const required = (name: string) => [{ required: true, message: t('noLogin.required', { name }) }];
  return (
    <Modal
      open={open}
      title={t('noLogin.createTitle')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okButtonProps={{ loading: create.isPending, 'data-testid': 'nologin-create-ok' }}
      destroyOnHidden
      data-testid="nologin-create-modal"
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{ qrType: 'form', mode: 'fillMany', days: 30 }}
      >
        <Form.Item name="title" label={t('noLogin.fieldTitle')} rules={required(t('noLogin.fieldTitle'))}>
          <Input
            maxLength={64}
            placeholder={t('noLogin.fieldTitlePlaceholder')}
            data-testid="nologin-field-title"
          />
        </Form.Item>
        <Form.Item name="tableId" label={t('noLogin.fieldForm')} rules={required(t('noLogin.fieldForm'))}>
          <Select
            showSearch
            optionFilterProp="label"
            loading={forms.isFetching}
            placeholder={t('noLogin.fieldFormPlaceholder')}
            options={(forms.data ?? []).map((f) => ({ value: f.id, label: f.title }))}
            data-testid="nologin-field-form"
          />
        </Form.Item>
        <Form.Item name="qrType" label={t('noLogin.fieldQrType')}>
          <Radio.Group
            optionType="button"
            onChange={(e) => {
              if (e.target.value === 'record' && form.getFieldValue('mode') === 'fillMany') {
                form.setFieldValue('mode', 'view');
              }
            }}
            options={[
              { value: 'form', label: t('noLogin.qrTypeForm') },
              { value: 'record', label: t('noLogin.qrTypeRecord') },
            ]}
          />
        </Form.Item>
        {qrType === 'record' ? (
          <Form.Item
            name="recordId"
            label={t('noLogin.fieldRecordId')}
            rules={required(t('noLogin.fieldRecordId'))}
          >
            <InputNumber min={1} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        ) : null}
        <Form.Item name="mode" label={t('noLogin.fieldMode')}>
          <Radio.Group
            optionType="button"
            options={[
              { value: 'fillMany', label: t('noLogin.modeFillMany'), disabled: qrType === 'record' },
              { value: 'fillOne', label: t('noLogin.modeFillOne') },
              { value: 'view', label: t('noLogin.modeView') },
            ]}
            data-testid="nologin-field-mode"
          />
        </Form.Item>
        <Space wrap size={16}>
          <Form.Item name="days" label={t('noLogin.fieldDays')} rules={required(t('noLogin.fieldDays'))}>
            <InputNumber min={1} max={NO_LOGIN_MAX_DAYS} precision={0} />
          </Form.Item>
          <Form.Item name="maxUses" label={t('noLogin.fieldMaxUses')} tooltip={t('noLogin.fieldMaxUsesHint')}>
            <InputNumber min={1} max={NO_LOGIN_MAX_USES} precision={0} placeholder={t('noLogin.unlimited')} />
          </Form.Item>
        </Space>
        <Form.Item name="remark" label={t('noLogin.fieldRemark')}>
          <Input.TextArea maxLength={256} rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** One link's QR code, its address to copy, PNG and SVG to download. */
export function QrModal({ link, onClose }: { link: NoLoginLink | null; onClose(): void }) {
  const { t } = useTranslation();
  const sheet = useQuery({
    queryKey: NO_LOGIN_KEYS.sheet(link ? [link.id] : []),
    queryFn: () => noLoginLinkApi.sheet(link ? [link.id] : []),
    enabled: link !== null,
  });
  const item: NoLoginSheetItem | undefined = sheet.data?.[0];
  const download = (href: string, name: string) => {
    const a = document.createElement('a');
    a.href = href;
    a.download = name;
    a.click();
  };
  const png = async () => {
    if (!link) return;
    try {
      const blob = await noLoginLinkApi.png(link.id);
      const url = URL.createObjectURL(blob);
      download(url, `${link.title}.png`);
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (error) {
      feedback.error((error as Error).message);
    }
  };
  return (
    <Modal open={link !== null} title={link?.title} onCancel={onClose} footer={null} destroyOnHidden>
      {item ? (
        <Space orientation="vertical" align="center" style={{ width: '100%' }} data-testid="nologin-qr">
          <Image src={svgSource(item.svg)} width={240} preview={false} alt={item.title} />
          <Typography.Paragraph
            copyable={{ text: item.url }}
            style={{ wordBreak: 'break-all', fontSize: 12 }}
          >
            <span data-testid="nologin-qr-url">{item.url}</span>
          </Typography.Paragraph>
          <Space>
            <Button onClick={() => void png()}>{t('noLogin.downloadPng')}</Button>
            <Button onClick={() => download(svgSource(item.svg), `${item.title}.svg`)}>
              {t('noLogin.downloadSvg')}
            </Button>
          </Space>
        </Space>
      ) : null}
    </Modal>
  );
}

/** A link's use log: time, what was done, IP, browser, refusals with their code. */
export function UsesDrawer({ link, onClose }: { link: NoLoginLink | null; onClose(): void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const uses = useQuery({
    queryKey: NO_LOGIN_KEYS.uses(link?.id ?? 0, page),
    queryFn: () => noLoginLinkApi.uses(link?.id ?? 0, page),
    enabled: link !== null,
    placeholderData: keepPreviousData,
  });
  return (
    <Drawer
      open={link !== null}
      title={`${t('noLogin.uses')} · ${link?.title ?? ''}`}
      size="large"
      onClose={onClose}
      destroyOnHidden
    >
      <Table<NoLoginUse>
        rowKey="id"
        size="small"
        dataSource={uses.data?.items ?? []}
        loading={uses.isFetching}
        locale={{ emptyText: t('noLogin.noUses') }}
        pagination={{ current: page, total: uses.data?.total ?? 0, pageSize: 20, onChange: setPage }}
        scroll={{ x: 720 }}
        data-testid="nologin-uses"
        columns={[
          { key: 'time', title: t('noLogin.colTime'), width: 150, render: (_, u) => u.createTime },
          {
            key: 'action',
            title: t('noLogin.colAction'),
            width: 110,
            render: (_, u) => (
              <Tag
                color={
                  u.action === 'refused'
                    ? 'red'
                    : u.action === 'add' || u.action === 'update'
                      ? 'green'
                      : undefined
                }
              >
                {t(`noLogin.useAction.${u.action}`)}
              </Tag>
            ),
          },
          {
            key: 'record',
            title: t('noLogin.colRecord'),
            width: 160,
            render: (_, u) => u.recordId ?? u.code ?? '',
          },
          { key: 'ip', title: t('noLogin.colIp'), width: 120, render: (_, u) => u.ip },
          { key: 'agent', title: t('noLogin.colAgent'), ellipsis: true, render: (_, u) => u.userAgent ?? '' },
        ]}
      />
    </Drawer>
  );
}

/** A printable sheet of QR codes in a window of its own: two columns of cards, printed from there. */
export function printSheet(
  items: readonly NoLoginSheetItem[],
  title: string,
  validText: (time: string) => string,
) {
  const win = window.open('', '_blank');
  if (!win) return;
  const doc = win.document;
  doc.title = title;
  const style = doc.createElement('style');
  style.textContent = `body{font-family:sans-serif;margin:12mm}
.grid{display:grid;grid-template-columns:repeat(2,1fr);gap:8mm}
.card{border:1px dashed #999;padding:6mm;text-align:center;break-inside:avoid}
.card img{width:60mm;height:60mm}.t{font-size:16px;font-weight:600;margin:4px 0}.v{font-size:12px;color:#555}
@media print{body{margin:0}}`;
  doc.head.appendChild(style);
  const grid = doc.createElement('div');
  grid.className = 'grid';
  for (const item of items) {
    const card = doc.createElement('div');
    card.className = 'card';
    const img = doc.createElement('img');
    img.src = svgSource(item.svg);
    img.alt = item.title;
    const name = doc.createElement('div');
    name.className = 't';
    name.textContent = item.title;
    const valid = doc.createElement('div');
    valid.className = 'v';
    valid.textContent = validText(item.expireTime.slice(0, 16));
    card.append(img, name, valid);
    grid.appendChild(card);
  }
  doc.body.appendChild(grid);
  setTimeout(() => win.print(), 300);
}
