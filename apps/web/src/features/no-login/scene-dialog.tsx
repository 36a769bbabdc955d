import { DeleteOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { NO_LOGIN_MAX_DAYS } from '@shuzhi/contracts/no-login';
import { SCENE_MAX_ENTRIES, type SceneEntry, type SceneEntryType } from '@shuzhi/contracts/no-login-pages';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Flex,
  Form,
  type FormInstance,
  Input,
  InputNumber,
  Modal,
  Select,
  Space,
  Typography,
  Upload,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { diyFormApi } from '../../components/diy-form/diy-form.api.ts';
import { useReclickGuard } from '../../components/use-reclick-guard.ts';
import { feedback } from '../../platform/feedback/feedback.ts';
import { noLoginLinkApi } from './no-login.api.ts';
import { showSaveError, useRequiredRule } from './page-dialog-errors.ts';
import { type Scene, sceneApi, statementApi } from './public-pages.api.ts';

type EntryValues = {
  type: SceneEntryType;
  title: string;
  note?: string;
  linkId?: number;
  statementId?: number;
  url?: string;
};
type Values = { title: string; intro?: string; days: number; entries: EntryValues[] };
const FIELD_NAMES = ['title', 'intro', 'days', 'entries', 'bannerFileId'];
const ENTRY_TYPES: readonly SceneEntryType[] = ['form', 'statement', 'link'];
const BANNER_ACCEPT = '.png,.jpg,.jpeg,.gif,.webp';

function toEntry(values: EntryValues): SceneEntry {
  const common = { title: values.title, ...(values.note ? { note: values.note } : {}) };
  if (values.type === 'form') return { type: 'form', ...common, linkId: values.linkId ?? 0 };
  if (values.type === 'statement')
    return { type: 'statement', ...common, statementId: values.statementId ?? 0 };
  return { type: 'link', ...common, url: values.url ?? '' };
}

/** The live fill links and statements staff may put in a scene (the server checks them again). */
function useEntryChoices(open: boolean) {
  const links = useQuery({
    queryKey: ['scene', 'choices', 'links'],
    queryFn: () => noLoginLinkApi.page({ page: 1, pageSize: 200 }),
    enabled: open,
  });
  const statements = useQuery({
    queryKey: ['scene', 'choices', 'statements'],
    queryFn: () => statementApi.page({ page: 1, pageSize: 200 }),
    enabled: open,
  });
  return {
    links: (links.data?.items ?? [])
      .filter((l) => l.state === 'active' && l.qrType === 'form' && l.mode !== 'view')
      .map((l) => ({ value: l.id, label: `${l.title}（${l.tableTitle ?? l.tableId}）` })),
    statements: (statements.data?.items ?? [])
      .filter((s) => s.state === 'active')
      .map((s) => ({ value: s.id, label: s.title })),
  };
}

/** The entries of a scene: their type, name, what they open and a note. */
function EntryList({
  form,
  choices,
}: {
  form: FormInstance<Values>;
  choices: ReturnType<typeof useEntryChoices>;
}) {
  const { t } = useTranslation();
  const required = useRequiredRule();
  return (
    <Form.List name="entries">
      {(items, { add, remove }) => (
        <Flex vertical gap={8}>
          {items.map((item, index) => (
            <Card
              key={item.key}
              size="small"
              data-testid={`scene-entry-form-${index}`}
              extra={
                items.length > 1 ? (
                  <Button type="text" danger icon={<DeleteOutlined />} onClick={() => remove(item.name)} />
                ) : null
              }
            >
              <Flex gap={8} wrap>
                <Form.Item
                  name={[item.name, 'type']}
                  label={t('publicPages.entryType')}
                  style={{ width: 140 }}
                >
                  <Select
                    options={ENTRY_TYPES.map((type) => ({
                      value: type,
                      label: t(`publicPages.entryTypes.${type}`),
                    }))}
                  />
                </Form.Item>
                <Form.Item
                  name={[item.name, 'title']}
                  label={t('publicPages.entryTitle')}
                  rules={required(t('publicPages.entryTitle'))}
                  style={{ flex: 1, minWidth: 180 }}
                >
                  <Input maxLength={64} />
                </Form.Item>
              </Flex>
              <Form.Item noStyle shouldUpdate>
                {() => {
                  const type = form.getFieldValue(['entries', item.name, 'type']) as SceneEntryType;
                  if (type === 'form') {
                    return (
                      <Form.Item
                        name={[item.name, 'linkId']}
                        label={t('publicPages.entryLink')}
                        rules={required(t('publicPages.entryLink'))}
                      >
                        <Select showSearch optionFilterProp="label" options={choices.links} />
                      </Form.Item>
                    );
                  }
                  if (type === 'statement') {
                    return (
                      <Form.Item
                        name={[item.name, 'statementId']}
                        label={t('publicPages.entryStatement')}
                        rules={required(t('publicPages.entryStatement'))}
                      >
                        <Select showSearch optionFilterProp="label" options={choices.statements} />
                      </Form.Item>
                    );
                  }
                  return (
                    <Form.Item
                      name={[item.name, 'url']}
                      label={t('publicPages.entryUrl')}
                      rules={[
                        ...required(t('publicPages.entryUrl')),
                        { pattern: /^https?:\/\/\S+$/i, message: t('publicPages.entryUrl') },
                      ]}
                    >
                      <Input maxLength={1000} placeholder="https://" />
                    </Form.Item>
                  );
                }}
              </Form.Item>
              <Form.Item
                name={[item.name, 'note']}
                label={t('publicPages.entryNote')}
                style={{ marginBottom: 0 }}
              >
                <Input maxLength={200} />
              </Form.Item>
            </Card>
          ))}
          {items.length < SCENE_MAX_ENTRIES ? (
            <Button
              icon={<PlusOutlined />}
              onClick={() => add({ type: 'link', title: '' })}
              data-testid="scene-add-entry"
            >
              {t('publicPages.addEntry')}
            </Button>
          ) : null}
        </Flex>
      )}
    </Form.List>
  );
}

/** 新建场景 / 修改场景: title, banner image, intro and the entries (forms to fill, statements, links). */
export function SceneDialog({
  open,
  editing,
  onClose,
  onSaved,
}: {
  open: boolean;
  editing: Scene | null;
  onClose(): void;
  onSaved(scene: Scene): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [banner, setBanner] = useState<{ id: number; name: string } | null>(null);
  const [uploading, setUploading] = useState(false);
  const choices = useEntryChoices(open);
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    setBanner(
      editing?.bannerFileId ? { id: editing.bannerFileId, name: t('publicPages.bannerUploaded') } : null,
    );
    if (editing)
      form.setFieldsValue({ title: editing.title, intro: editing.intro ?? '', entries: editing.entries });
  }, [open, editing, form, t]);
  const save = useMutation({
    mutationFn: (values: Values) => {
      const common = {
        title: values.title,
        intro: values.intro ?? '',
        bannerFileId: banner?.id ?? null,
        entries: values.entries.map(toEntry),
      };
      return editing
        ? sceneApi.edit({ id: editing.id, ...common })
        : sceneApi.add({ ...common, days: values.days });
    },
    onSuccess: (scene) => {
      feedback.success(t('publicPages.saved'));
      onSaved(scene);
    },
    onError: (error) => showSaveError(form, FIELD_NAMES, error),
  });
  const submit = useReclickGuard((values: Values) => save.mutate(values));
  const upload = async (file: File) => {
    setUploading(true);
    try {
      const stored = await diyFormApi.upload(file, file.name);
      setBanner({ id: stored.id, name: stored.fileName });
    } catch (error) {
      feedback.error((error as Error).message);
    } finally {
      setUploading(false);
    }
  };
  const required = useRequiredRule();
  return (
    <Modal
      open={open}
      title={editing ? t('publicPages.editScene') : t('publicPages.createScene')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'scene-save' }}
      destroyOnHidden
      width={720}
      data-testid="scene-dialog"
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{ days: 30, entries: [{ type: 'form', title: '' }] }}
      >
        <Form.Item
          name="title"
          label={t('publicPages.fieldTitle')}
          rules={required(t('publicPages.fieldTitle'))}
        >
          <Input maxLength={64} data-testid="scene-title" />
        </Form.Item>
        <Form.Item label={t('publicPages.fieldBanner')}>
          <Space wrap>
            <Upload
              accept={BANNER_ACCEPT}
              showUploadList={false}
              beforeUpload={(file) => {
                void upload(file);
                return false;
              }}
            >
              <Button icon={<UploadOutlined />} loading={uploading} data-testid="scene-banner-upload">
                {t('publicPages.uploadBanner')}
              </Button>
            </Upload>
            {banner ? (
              <>
                <Typography.Text data-testid="scene-banner-name">{banner.name}</Typography.Text>
                <Button type="link" danger onClick={() => setBanner(null)}>
                  {t('publicPages.removeBanner')}
                </Button>
              </>
            ) : null}
          </Space>
        </Form.Item>
        <Form.Item name="intro" label={t('publicPages.fieldIntro')}>
          <Input.TextArea maxLength={2000} autoSize={{ minRows: 2, maxRows: 6 }} />
        </Form.Item>
        {editing ? null : (
          <Form.Item
            name="days"
            label={t('publicPages.fieldDays')}
            rules={required(t('publicPages.fieldDays'))}
          >
            <InputNumber min={1} max={NO_LOGIN_MAX_DAYS} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        )}
        <Typography.Title level={5}>{t('publicPages.entries')}</Typography.Title>
        <Alert type="info" showIcon message={t('publicPages.noScreenHint')} style={{ marginBottom: 12 }} />
        <EntryList form={form} choices={choices} />
      </Form>
    </Modal>
  );
}
