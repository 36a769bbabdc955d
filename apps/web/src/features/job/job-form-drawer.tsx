import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  BUILT_IN_JOBS,
  HTTP_METHODS,
  JOB_CREATE_TYPE,
  type JobDetailAddInput,
  type JobDetailRow,
  jobDetailAddInputSchema,
} from '@shuzhi/contracts/job';
import { useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Col,
  Divider,
  Drawer,
  Form,
  Input,
  InputNumber,
  Radio,
  Row,
  Select,
  Space,
  Switch,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serverFieldErrors } from '../../platform/data/field-errors.ts';
import { UnauthorizedError } from '../../platform/http/http-client.ts';
import { JOB_KEYS, jobApi } from './job.api.ts';
import {
  type HeaderPair,
  headersToPairs,
  isBuiltInJob,
  jsonBodyError,
  pairsToHeaders,
} from './job-format.ts';
import {
  cronErrorOf,
  NEW_TRIGGER,
  TriggerFields,
  type TriggerFormValues,
  toTriggerPayload,
} from './trigger-fields.tsx';

type JobFormValues = {
  jobId: string;
  groupName?: string | null;
  description?: string | null;
  createType: 1 | 2;
  handler?: string | null;
  httpUrl?: string | null;
  httpMethod?: (typeof HTTP_METHODS)[number] | null;
  headers?: HeaderPair[];
  httpBody?: string | null;
  timeoutSeconds?: number | null;
  concurrent?: boolean;
  remark?: string | null;
  withTrigger?: boolean;
  trigger?: TriggerFormValues;
};

const JOB_FIELDS = [
  'jobId',
  'groupName',
  'description',
  'createType',
  'handler',
  'httpUrl',
  'httpMethod',
  'httpBody',
  'timeoutSeconds',
  'concurrent',
  'remark',
];
const TRIGGER_PREFIX = ['trigger'];

const NEW_JOB: Partial<JobFormValues> = {
  createType: JOB_CREATE_TYPE.http,
  httpMethod: 'POST',
  headers: [],
  timeoutSeconds: 60,
  concurrent: false,
  withTrigger: true,
  trigger: { ...NEW_TRIGGER, triggerId: 'trigger1' },
};

function formValues(row: JobDetailRow): Partial<JobFormValues> {
  return {
    jobId: row.jobId,
    groupName: row.groupName,
    description: row.description,
    createType: row.createType === JOB_CREATE_TYPE.builtIn ? 1 : 2,
    handler: row.handler,
    httpUrl: row.httpUrl,
    httpMethod: (row.httpMethod as JobFormValues['httpMethod']) ?? 'GET',
    headers: headersToPairs(row.httpHeaders),
    httpBody: row.httpBody,
    timeoutSeconds: row.timeoutSeconds,
    concurrent: row.concurrent,
    remark: row.remark,
    withTrigger: false,
  };
}

function toPayload(values: JobFormValues): JobDetailAddInput {
  const http = values.createType === JOB_CREATE_TYPE.http;
  return {
    jobId: values.jobId.trim(),
    groupName: values.groupName?.trim() || null,
    description: values.description?.trim() || null,
    createType: values.createType,
    handler: http ? null : (values.handler ?? null),
    httpUrl: http ? (values.httpUrl ?? '').trim() : null,
    httpMethod: http ? (values.httpMethod ?? 'GET') : null,
    httpHeaders: http ? pairsToHeaders(values.headers) : null,
    httpBody: http ? values.httpBody || null : null,
    timeoutSeconds: values.timeoutSeconds ?? 60,
    concurrent: values.concurrent ?? false,
    remark: values.remark?.trim() || null,
  };
}

const codeRule = jobDetailAddInputSchema.shape.jobId;

/** `null` closed, `'new'` adding, a row editing. */
export type JobFormTarget = JobDetailRow | 'new' | null;

/**
 * Adds or edits a job. A new job may come with its first trigger: its cron is checked before anything is
 * written, and should the trigger still be refused the new job is removed again, so nothing half-made stays.
 */
export function JobFormDrawer({ target, onClose }: { target: JobFormTarget; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);
  const editing = target !== null && target !== 'new' ? target : null;
  const createType = Form.useWatch('createType', form) ?? NEW_JOB.createType;
  const withTrigger = Form.useWatch('withTrigger', form) ?? false;

  useEffect(() => {
    if (target === null) return;
    form.resetFields();
    form.setFieldsValue(target === 'new' ? NEW_JOB : formValues(target));
  }, [target, form]);

  const showError = (error: unknown, prefix: readonly string[] = []) => {
    if (error instanceof UnauthorizedError) return;
    const cron = cronErrorOf(error);
    if (cron) {
      form.setFields([{ name: [...prefix, 'cron'], errors: [cron] }]);
      return;
    }
    const { fields, rest } = serverFieldErrors(
      error,
      prefix.length > 0 ? ['triggerId', 'cron', 'periodSeconds', 'startTime', 'endTime'] : JOB_FIELDS,
    );
    if (fields.length > 0)
      form.setFields(fields.map((field) => ({ ...field, name: [...prefix, ...[field.name].flat()] })));
    if (fields.length === 0 || rest.length > 0)
      message.error(rest[0] ?? (error instanceof Error && error.message ? error.message : t('crud.failed')));
  };

  const save = async () => {
    let values: JobFormValues;
    try {
      values = (await form.validateFields()) as JobFormValues;
    } catch (error) {
      const first = (error as { errorFields?: { name: (string | number)[] }[] }).errorFields?.[0];
      if (first) form.scrollToField(first.name);
      return;
    }
    setSaving(true);
    try {
      const payload = toPayload(values);
      if (editing) {
        await jobApi.update({ ...payload, id: editing.id });
      } else {
        const trigger = values.withTrigger && values.trigger ? values.trigger : null;
        await jobApi.add(payload);
        if (trigger) {
          try {
            await jobApi.addTrigger(toTriggerPayload(trigger, payload.jobId));
          } catch (error) {
            await jobApi.remove(payload.jobId).catch(() => undefined);
            showError(error, TRIGGER_PREFIX);
            return;
          }
        }
      }
      message.success(t('crud.saved'));
      await client.invalidateQueries({ queryKey: JOB_KEYS.all });
      onClose();
    } catch (error) {
      showError(error);
    } finally {
      setSaving(false);
    }
  };

  const http = createType === JOB_CREATE_TYPE.http;
  return (
    <Drawer
      open={target !== null}
      title={t(editing ? 'crud.editTitle' : 'crud.addTitle', { name: t('sysJob.entity') })}
      size={720}
      onClose={saving ? undefined : onClose}
      mask={{ closable: !saving }}
      destroyOnHidden
      data-testid="job-drawer"
      footer={
        <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button onClick={onClose} disabled={saving}>
            {t('common.cancel')}
          </Button>
          <Button type="primary" loading={saving} onClick={() => void save()} data-testid="job-save">
            {t('common.save')}
          </Button>
        </Space>
      }
    >
      <Form form={form} layout="vertical" initialValues={NEW_JOB} data-testid="job-form">
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item
              name="jobId"
              label={t('sysJob.jobId')}
              tooltip={editing ? t('sysJob.jobIdFixed') : undefined}
              rules={[
                {
                  required: true,
                  whitespace: true,
                  message: t('crud.required', { label: t('sysJob.jobId') }),
                },
                {
                  validator: (_, value) =>
                    !value || codeRule.safeParse(value).success
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('sysJob.codeRule'))),
                },
              ]}
            >
              <Input
                maxLength={64}
                disabled={editing !== null}
                autoComplete="off"
                data-testid="job-field-id"
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="groupName" label={t('sysJob.groupName')}>
              <Input maxLength={64} autoComplete="off" data-testid="job-field-group" />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="description" label={t('sysJob.description')}>
          <Input maxLength={256} data-testid="job-field-description" />
        </Form.Item>
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item name="createType" label={t('sysJob.createType')}>
              <Radio.Group
                optionType="button"
                disabled={editing !== null}
                options={[
                  { value: JOB_CREATE_TYPE.builtIn, label: t('sysJob.createTypes.builtIn') },
                  { value: JOB_CREATE_TYPE.http, label: t('sysJob.createTypes.http') },
                ]}
                data-testid="job-field-type"
              />
            </Form.Item>
          </Col>
          <Col xs={12} sm={6}>
            <Form.Item
              name="timeoutSeconds"
              label={t('sysJob.timeoutSeconds')}
              rules={[{ required: true, message: t('crud.required', { label: t('sysJob.timeoutSeconds') }) }]}
            >
              <InputNumber
                min={1}
                max={3600}
                precision={0}
                suffix={t('sysJob.seconds')}
                style={{ width: '100%' }}
              />
            </Form.Item>
          </Col>
          <Col xs={12} sm={6}>
            <Form.Item
              name="concurrent"
              label={t('sysJob.concurrent')}
              valuePropName="checked"
              tooltip={t('sysJob.concurrentHelp')}
            >
              <Switch data-testid="job-field-concurrent" />
            </Form.Item>
          </Col>
        </Row>
        {http ? (
          <>
            <Row gutter={16}>
              <Col xs={24} sm={6}>
                <Form.Item name="httpMethod" label={t('sysJob.httpMethod')} rules={[{ required: true }]}>
                  <Select
                    options={HTTP_METHODS.map((method) => ({ value: method, label: method }))}
                    data-testid="job-field-method"
                  />
                </Form.Item>
              </Col>
              <Col xs={24} sm={18}>
                <Form.Item
                  name="httpUrl"
                  label={t('sysJob.httpUrl')}
                  rules={[
                    {
                      required: true,
                      whitespace: true,
                      message: t('crud.required', { label: t('sysJob.httpUrl') }),
                    },
                    {
                      validator: (_, value: string | undefined) =>
                        !value || /^https?:\/\/\S+$/i.test(value.trim())
                          ? Promise.resolve()
                          : Promise.reject(new Error(t('sysJob.httpUrlRule'))),
                    },
                  ]}
                >
                  <Input
                    maxLength={1024}
                    placeholder="https://"
                    autoComplete="off"
                    data-testid="job-field-url"
                  />
                </Form.Item>
              </Col>
            </Row>
            <Form.Item label={t('sysJob.httpHeaders')}>
              <Form.List name="headers">
                {(rows, { add, remove }) => (
                  <Space orientation="vertical" size={8} style={{ width: '100%' }}>
                    {rows.map((row) => (
                      <Space.Compact key={row.key} style={{ width: '100%' }}>
                        <Form.Item
                          name={[row.name, 'key']}
                          noStyle
                          rules={[
                            { required: true, whitespace: true, message: t('sysJob.headerNameRequired') },
                            ({ getFieldValue }) => ({
                              validator: (_, value: string | undefined) => {
                                const all = (getFieldValue('headers') as HeaderPair[] | undefined) ?? [];
                                const name = (value ?? '').trim().toLowerCase();
                                const same = all.filter(
                                  (pair) => (pair?.key ?? '').trim().toLowerCase() === name,
                                );
                                return name && same.length > 1
                                  ? Promise.reject(new Error(t('sysJob.headerDuplicate', { name: value })))
                                  : Promise.resolve();
                              },
                            }),
                          ]}
                        >
                          <Input
                            style={{ width: '38%' }}
                            maxLength={128}
                            placeholder={t('sysJob.headerName')}
                            aria-label={t('sysJob.headerName')}
                            data-testid="job-header-key"
                          />
                        </Form.Item>
                        <Form.Item name={[row.name, 'value']} noStyle>
                          <Input
                            style={{ width: '62%' }}
                            maxLength={2048}
                            placeholder={t('sysJob.headerValue')}
                            aria-label={t('sysJob.headerValue')}
                            data-testid="job-header-value"
                          />
                        </Form.Item>
                        <Button
                          icon={<DeleteOutlined />}
                          onClick={() => remove(row.name)}
                          aria-label={t('sysJob.headerRemove')}
                        />
                      </Space.Compact>
                    ))}
                    <Button
                      type="dashed"
                      icon={<PlusOutlined />}
                      onClick={() => add({ key: '', value: '' })}
                      data-testid="job-header-add"
                    >
                      {t('sysJob.headerAdd')}
                    </Button>
                  </Space>
                )}
              </Form.List>
            </Form.Item>
            <Form.Item
              name="httpBody"
              label={t('sysJob.httpBody')}
              extra={t('sysJob.httpBodyHelp')}
              rules={[
                {
                  validator: (_, value: string | undefined) => {
                    const problem = jsonBodyError(value);
                    return problem
                      ? Promise.reject(new Error(t('sysJob.jsonInvalid', { reason: problem })))
                      : Promise.resolve();
                  },
                },
              ]}
            >
              <Input.TextArea
                rows={4}
                maxLength={65_536}
                style={{ fontFamily: 'monospace' }}
                data-testid="job-field-body"
              />
            </Form.Item>
          </>
        ) : (
          <Form.Item
            name="handler"
            label={t('sysJob.handler')}
            rules={[{ required: true, message: t('crud.requiredSelect', { label: t('sysJob.handler') }) }]}
          >
            <Select
              options={BUILT_IN_JOBS.map((handler) => ({
                value: handler,
                label: `${t(`sysJob.handlers.${handler}`)}（${handler}）`,
              }))}
              placeholder={t('crud.selectPlaceholder', { label: t('sysJob.handler') })}
              disabled={editing !== null && isBuiltInJob(editing)}
              data-testid="job-field-handler"
            />
          </Form.Item>
        )}
        <Form.Item name="remark" label={t('sysJob.remark')}>
          <Input.TextArea rows={2} maxLength={256} showCount />
        </Form.Item>
        {editing ? null : (
          <>
            <Divider titlePlacement="start" plain>
              <Space size={8}>
                <Form.Item name="withTrigger" valuePropName="checked" noStyle>
                  <Switch size="small" data-testid="job-with-trigger" />
                </Form.Item>
                <Typography.Text>{t('sysJob.firstTrigger')}</Typography.Text>
              </Space>
            </Divider>
            {withTrigger ? (
              <TriggerFields form={form} prefix={TRIGGER_PREFIX} />
            ) : (
              <Typography.Paragraph type="secondary">{t('sysJob.noTriggerHint')}</Typography.Paragraph>
            )}
          </>
        )}
      </Form>
    </Drawer>
  );
}
