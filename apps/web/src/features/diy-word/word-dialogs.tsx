import { UploadOutlined } from '@ant-design/icons';
import type { WordSourceKind } from '@shuzhi/contracts/diy-word';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Drawer,
  Form,
  Input,
  Modal,
  Radio,
  Select,
  Space,
  Table,
  Typography,
  Upload,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FilePreviewTarget } from '../../components/file-preview/file-preview.tsx';
import { feedback } from '../../platform/feedback/feedback.ts';
import { WORD_KEYS, type WordFields, type WordOutput, type WordTemplate, wordApi } from './diy-word.api.ts';

/** The names a template of a source may use: a table of placeholders with their meanings. */
function PlaceholderHelp({ fields }: { fields: WordFields | undefined }) {
  const { t } = useTranslation();
  if (!fields) return null;
  return (
    <>
      <Typography.Paragraph type="secondary">{t('diyWord.helpIntro')}</Typography.Paragraph>
      <Table
        rowKey="name"
        size="small"
        pagination={false}
        dataSource={fields.names}
        data-testid="word-help-table"
        columns={[
          {
            key: 'name',
            title: t('diyWord.helpName'),
            width: 200,
            render: (_, n) => (
              <Typography.Text code copyable>
                {n.kind === 'loop' ? `{#${n.name}}…{/${n.name}}` : `{${n.name}}`}
              </Typography.Text>
            ),
          },
          {
            key: 'label',
            title: t('diyWord.helpLabel'),
            render: (_, n) =>
              n.kind === 'loop'
                ? `${n.label} — ${t('diyWord.helpLoop')} ${n.inner.map((i) => `{${i.name}} ${i.label}`).join('、')}`
                : n.label,
          },
        ]}
      />
    </>
  );
}

/** 占位符 of a template's source. */
export function HelpDrawer({ template, onClose }: { template: WordTemplate | null; onClose(): void }) {
  const { t } = useTranslation();
  const fields = useQuery({
    queryKey: WORD_KEYS.fields(template?.tableId ?? 0),
    queryFn: () => wordApi.fields(template?.tableId ?? 0),
    enabled: !!template,
  });
  return (
    <Drawer open={!!template} onClose={onClose} width={640} title={t('diyWord.helpTitle')} destroyOnHidden>
      {fields.isError ? <Alert type="error" message={fields.error.message} /> : null}
      <PlaceholderHelp fields={fields.data} />
    </Drawer>
  );
}

type UploadValues = { tableId?: number; name?: string; remark?: string };

/** 上传模板: source, name, remark and the .docx; the server's refusal (bad placeholders, broken file) is shown. */
export function UploadModal({
  open,
  tableId,
  onClose,
  onUploaded,
}: {
  open: boolean;
  tableId?: number;
  onClose(): void;
  onUploaded(): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<UploadValues>();
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const chosen = Form.useWatch('tableId', form);
  const sources = useQuery({ queryKey: WORD_KEYS.sources, queryFn: wordApi.sources, enabled: open });
  const fields = useQuery({
    queryKey: WORD_KEYS.fields(chosen ?? 0),
    queryFn: () => wordApi.fields(chosen ?? 0),
    enabled: open && !!chosen,
  });
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue({ tableId });
    setFile(null);
    setError(null);
  }, [open, tableId, form]);
  const upload = useMutation({
    mutationFn: (values: Required<Pick<UploadValues, 'tableId' | 'name'>> & UploadValues) =>
      wordApi.upload(file as File, (file as File).name, values),
    onSuccess: () => {
      feedback.success(t('diyWord.uploaded'));
      onUploaded();
    },
    onError: (e) => setError(e.message),
  });
  const submit = async () => {
    const values = await form.validateFields();
    if (!file) {
      setError(t('diyWord.fileRequired'));
      return;
    }
    setError(null);
    upload.mutate({ ...values, tableId: values.tableId as number, name: values.name as string });
  };
  return (
    <Modal
      open={open}
      title={t('diyWord.uploadTitle')}
      onCancel={onClose}
      onOk={() => void submit()}
      confirmLoading={upload.isPending}
      width={720}
      destroyOnHidden
    >
      {error ? (
        <Alert
          type="error"
          showIcon
          message={error}
          data-testid="word-upload-error"
          style={{ marginBottom: 12 }}
        />
      ) : null}
      <Form form={form} layout="vertical" data-testid="word-upload-form">
        <Form.Item
          name="tableId"
          label={t('diyWord.source')}
          rules={[{ required: true, message: t('diyWord.sourceRequired') }]}
        >
          <Select
            showSearch
            optionFilterProp="label"
            loading={sources.isFetching}
            data-testid="word-upload-source"
            options={(sources.data ?? []).map((s) => ({
              value: s.id,
              label: `${s.title}（${t(`diyWord.kind.${s.sourceKind}`)}）`,
            }))}
          />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('diyWord.name')}
          rules={[{ required: true, whitespace: true, message: t('diyWord.nameRequired') }]}
        >
          <Input maxLength={64} data-testid="word-upload-name" />
        </Form.Item>
        <Form.Item name="remark" label={t('diyWord.remark')}>
          <Input maxLength={256} />
        </Form.Item>
        <Form.Item label={t('diyWord.file')} required>
          <Upload
            accept=".docx"
            maxCount={1}
            beforeUpload={(f) => {
              setFile(f);
              return false;
            }}
            onRemove={() => setFile(null)}
            fileList={file ? [{ uid: '1', name: file.name, status: 'done' }] : []}
          >
            <Button icon={<UploadOutlined />} data-testid="word-upload-file">
              {t('diyWord.chooseFile')}
            </Button>
          </Upload>
        </Form.Item>
      </Form>
      <PlaceholderHelp fields={fields.data} />
    </Modal>
  );
}

type GenerateMode = 'record' | 'batch' | 'bulletin';

const modesOf = (kind: WordSourceKind): GenerateMode[] =>
  kind === 'form' ? ['record', 'batch'] : ['bulletin'];

/** 生成: a record (forms), each unit of a period (forms, one .zip) or a bulletin (roll-ups, query reports). */
export function GenerateModal({
  template,
  onClose,
  onGenerated,
}: {
  template: WordTemplate | null;
  onClose(): void;
  onGenerated(output: WordOutput): void;
}) {
  const { t } = useTranslation();
  const kind = template?.sourceKind ?? 'form';
  const [mode, setMode] = useState<GenerateMode>('record');
  const [recordId, setRecordId] = useState<number | undefined>();
  const [periodId, setPeriodId] = useState<number | undefined>();
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setMode(modesOf(kind)[0] as GenerateMode);
    setRecordId(undefined);
    setPeriodId(undefined);
    setError(null);
  }, [kind]);
  const tableId = template?.tableId ?? 0;
  const fields = useQuery({
    queryKey: WORD_KEYS.fields(tableId),
    queryFn: () => wordApi.fields(tableId),
    enabled: !!template,
  });
  const records = useQuery({
    queryKey: WORD_KEYS.records(tableId),
    queryFn: () => wordApi.records(tableId),
    enabled: !!template && mode === 'record',
  });
  const generate = useMutation({
    mutationFn: () => {
      const id = template?.id ?? 0;
      if (mode === 'record') return wordApi.record(id, recordId ?? 0);
      if (mode === 'batch') return wordApi.batch(id, periodId ?? 0);
      return wordApi.bulletin(id, periodId);
    },
    onSuccess: onGenerated,
    onError: (e) => setError(e.message),
  });
  const missing =
    mode === 'record'
      ? recordId
        ? null
        : t('diyWord.recordRequired')
      : mode === 'batch' && !periodId
        ? t('diyWord.periodRequired')
        : null;
  const periods = fields.data?.periods ?? [];
  return (
    <Modal
      open={!!template}
      title={`${t('diyWord.generateTitle')} — ${template?.name ?? ''}`}
      onCancel={onClose}
      onOk={() => {
        if (missing) setError(missing);
        else {
          setError(null);
          generate.mutate();
        }
      }}
      okText={t('diyWord.generate')}
      confirmLoading={generate.isPending}
      destroyOnHidden
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Radio.Group value={mode} onChange={(e) => setMode(e.target.value)} data-testid="word-generate-mode">
          {modesOf(kind).map((m) => (
            <Radio key={m} value={m}>
              {t(
                m === 'record'
                  ? 'diyWord.modeRecord'
                  : m === 'batch'
                    ? 'diyWord.modeBatch'
                    : 'diyWord.modeBulletin',
              )}
            </Radio>
          ))}
        </Radio.Group>
        {mode === 'record' ? (
          <Select
            style={{ width: '100%' }}
            showSearch
            optionFilterProp="label"
            placeholder={t('diyWord.record')}
            loading={records.isFetching}
            value={recordId}
            onChange={setRecordId}
            data-testid="word-generate-record"
            options={(records.data ?? []).map((r) => ({
              value: r.id,
              label: [r.dataNo, r.createOrgName, r.periodName, r.createTime.slice(0, 10)]
                .filter(Boolean)
                .join(' · '),
            }))}
          />
        ) : null}
        {mode !== 'record' && kind !== 'query' && periods.length > 0 ? (
          <Select
            style={{ width: '100%' }}
            placeholder={mode === 'batch' ? t('diyWord.period') : t('diyWord.latestPeriod')}
            allowClear={mode === 'bulletin'}
            value={periodId}
            onChange={setPeriodId}
            data-testid="word-generate-period"
            options={periods.map((p) => ({ value: p.id, label: p.name }))}
          />
        ) : null}
        {kind === 'query' ? (
          <Typography.Text type="secondary">{t('diyWord.queryNote')}</Typography.Text>
        ) : null}
        {error ? <Alert type="error" showIcon message={error} data-testid="word-generate-error" /> : null}
      </Space>
    </Modal>
  );
}

/** 已生成: a template's generated files, previewed in the file preview dialog or downloaded. */
export function OutputsDrawer({
  template,
  onClose,
  preview,
}: {
  template: WordTemplate | null;
  onClose(): void;
  preview(target: FilePreviewTarget): void;
}) {
  const { t } = useTranslation();
  const outputs = useQuery({
    queryKey: WORD_KEYS.outputs(template?.id ?? 0),
    queryFn: () => wordApi.outputs(template?.id ?? 0),
    enabled: !!template,
  });
  return (
    <Drawer open={!!template} onClose={onClose} width={760} title={t('diyWord.outputsTitle')} destroyOnHidden>
      {outputs.isError ? <Alert type="error" message={outputs.error.message} /> : null}
      <OutputTable outputs={outputs.data ?? []} loading={outputs.isFetching} preview={preview} />
    </Drawer>
  );
}

export function OutputTable({
  outputs,
  loading,
  preview,
}: {
  outputs: WordOutput[];
  loading?: boolean;
  preview(target: FilePreviewTarget): void;
}) {
  const { t } = useTranslation();
  const download = (o: WordOutput) =>
    wordApi.download(o).catch((e: Error) => feedback.error(e.message || t('diyWord.loadFailed')));
  return (
    <Table<WordOutput>
      rowKey="id"
      size="small"
      loading={loading}
      pagination={false}
      dataSource={outputs}
      data-testid="word-outputs"
      columns={[
        { key: 'file', title: t('diyWord.colOutput'), render: (_, o) => o.fileName },
        {
          key: 'kind',
          title: t('diyWord.colKind'),
          width: 110,
          render: (_, o) => t(`diyWord.outputKind.${o.kind}`),
        },
        { key: 'count', title: t('diyWord.colCount'), width: 70, render: (_, o) => o.count },
        { key: 'time', title: t('diyWord.colTime'), width: 150, render: (_, o) => o.createTime.slice(0, 16) },
        {
          key: 'actions',
          title: t('diyWord.colActions'),
          width: 130,
          render: (_, o) => (
            <Space size={4}>
              {o.fileName.endsWith('.docx') ? (
                <Button
                  type="link"
                  size="small"
                  onClick={() => preview({ url: wordApi.previewUrl(o.fileId), fileName: o.fileName })}
                  data-testid="word-output-preview"
                >
                  {t('diyWord.preview')}
                </Button>
              ) : null}
              <Button
                type="link"
                size="small"
                onClick={() => void download(o)}
                data-testid="word-output-download"
              >
                {t('diyWord.download')}
              </Button>
            </Space>
          ),
        },
      ]}
    />
  );
}
