import { CheckCircleFilled, LoadingOutlined } from '@ant-design/icons';
import type { CheckCronResult, JobTriggerAddInput, JobTriggerRow, TriggerType } from '@shuzhi/contracts/job';
import { jobTriggerAddInputSchema } from '@shuzhi/contracts/job';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Col,
  DatePicker,
  Form,
  type FormInstance,
  Input,
  InputNumber,
  Radio,
  Row,
  Space,
  Switch,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../platform/access/access.tsx';
import { hasErrorCode } from '../../platform/http/http-client.ts';
import { JOB_KEYS, jobApi } from './job.api.ts';
import { JOB_PERMS } from './job-actions.ts';
import { CRON_PRESETS, DATE_TIME_FORMAT } from './job-format.ts';

const CRON_CHECK_DELAY_MS = 400;
/** The next runs of an expression move with the clock; a check is reused for half a minute. */
const CRON_CACHE_MS = 30_000;

export type TriggerFormValues = {
  triggerId?: string;
  description?: string | null;
  triggerType: TriggerType;
  cron?: string | null;
  periodSeconds?: number | null;
  startTime?: Dayjs | null;
  endTime?: Dayjs | null;
  maxNumberOfRuns?: number | null;
  runOnStart?: boolean;
};

export const NEW_TRIGGER: TriggerFormValues = {
  triggerType: 'cron',
  cron: '0 0 3 * * *',
  periodSeconds: 3600,
  maxNumberOfRuns: 0,
  runOnStart: false,
};

export function triggerFormValues(row: JobTriggerRow): TriggerFormValues {
  return {
    triggerId: row.triggerId,
    description: row.description,
    triggerType: row.triggerType,
    cron: row.cron,
    periodSeconds: row.periodSeconds,
    startTime: row.startTime ? dayjs(row.startTime) : null,
    endTime: row.endTime ? dayjs(row.endTime) : null,
    maxNumberOfRuns: row.maxNumberOfRuns,
    runOnStart: row.runOnStart,
  };
}

export function toTriggerPayload(values: TriggerFormValues, jobId: string): JobTriggerAddInput {
  const cron = values.triggerType === 'cron';
  return {
    jobId,
    triggerId: (values.triggerId ?? '').trim(),
    triggerType: values.triggerType,
    cron: cron ? (values.cron ?? '').trim() : null,
    periodSeconds: cron ? null : (values.periodSeconds ?? null),
    description: values.description?.trim() || null,
    startTime: values.startTime ? values.startTime.format(DATE_TIME_FORMAT) : null,
    endTime: values.endTime ? values.endTime.format(DATE_TIME_FORMAT) : null,
    maxNumberOfRuns: values.maxNumberOfRuns ?? 0,
    runOnStart: values.runOnStart ?? false,
  };
}

/** The reason in a J1000 answer ("Cron 表达式无效：…"), for the cron field. */
export function cronErrorOf(error: unknown): string | null {
  return hasErrorCode(error, 'J1000') ? error.message : null;
}

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** The server's verdict on a cron expression, checked as it is typed: the next five runs or why it is invalid. */
function CronCheck({ cron }: { cron: string }) {
  const { t } = useTranslation();
  const { can } = useCan();
  const allowed = can(JOB_PERMS.checkCron);
  const text = useDebounced(cron.trim(), CRON_CHECK_DELAY_MS);
  const query = useQuery<CheckCronResult>({
    queryKey: JOB_KEYS.cron(text),
    queryFn: () => jobApi.checkCron(text),
    enabled: allowed && text !== '',
    staleTime: CRON_CACHE_MS,
  });
  if (!allowed || text === '') return null;
  if (query.isPending || text !== cron.trim()) {
    return (
      <Typography.Text type="secondary" data-testid="cron-check-pending">
        <LoadingOutlined /> {t('sysJob.cronChecking')}
      </Typography.Text>
    );
  }
  if (query.isError) {
    return (
      <Typography.Text type="danger" data-testid="cron-check-error">
        {query.error instanceof Error ? query.error.message : t('crud.failed')}
      </Typography.Text>
    );
  }
  const result = query.data;
  // The field itself shows why an expression is refused (its rule asks the same, cached, check).
  if (!result.valid) return null;
  return (
    <div data-testid="cron-check-valid">
      <Typography.Text type="success">
        <CheckCircleFilled /> {t('sysJob.cronNextRuns')}
      </Typography.Text>
      <ol style={{ margin: '4px 0 0', paddingInlineStart: 22 }}>
        {result.nextRuns.map((time) => (
          <li key={time}>
            <Typography.Text type="secondary">{time}</Typography.Text>
          </li>
        ))}
      </ol>
    </div>
  );
}

const codeRule = jobTriggerAddInputSchema.shape.triggerId;

/** The fields of a trigger, under `prefix` in the form (the job drawer nests its first trigger). */
export function TriggerFields({
  form,
  prefix = [],
  editing = false,
}: {
  form: FormInstance;
  prefix?: readonly string[];
  editing?: boolean;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { can } = useCan();
  const canCheck = can(JOB_PERMS.checkCron);
  const name = (field: string) => [...prefix, field];
  /** The server's parser decides; without an answer (no permission, network) its check on saving still stands. */
  const checkCron = async (_: unknown, value: string | undefined) => {
    const text = (value ?? '').trim();
    if (!text || !canCheck) return;
    const result = await client
      .fetchQuery({
        queryKey: JOB_KEYS.cron(text),
        queryFn: () => jobApi.checkCron(text),
        staleTime: CRON_CACHE_MS,
      })
      .catch(() => null);
    if (result && !result.valid) throw new Error(result.message ?? t('sysJob.cronInvalid', { reason: '' }));
  };
  const type = (Form.useWatch(name('triggerType'), form) as TriggerType | undefined) ?? 'cron';
  const cron = (Form.useWatch(name('cron'), form) as string | undefined) ?? '';
  return (
    <>
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item
            name={name('triggerId')}
            label={t('sysJob.triggerId')}
            rules={[
              {
                required: true,
                whitespace: true,
                message: t('crud.required', { label: t('sysJob.triggerId') }),
              },
              {
                validator: (_, value) =>
                  !value || codeRule.safeParse(value).success
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('sysJob.codeRule'))),
              },
            ]}
          >
            <Input maxLength={64} disabled={editing} autoComplete="off" data-testid="trigger-field-id" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name={name('triggerType')} label={t('sysJob.triggerType')}>
            <Radio.Group
              optionType="button"
              options={[
                { value: 'cron', label: t('sysJob.triggerTypes.cron') },
                { value: 'period', label: t('sysJob.triggerTypes.period') },
              ]}
              data-testid="trigger-field-type"
            />
          </Form.Item>
        </Col>
      </Row>
      {type === 'cron' ? (
        <Form.Item
          label={t('sysJob.cron')}
          required
          tooltip={t('sysJob.cronHelp')}
          extra={
            <Space orientation="vertical" size={6} style={{ marginTop: 6, width: '100%' }}>
              <Space wrap size={[6, 6]}>
                {CRON_PRESETS.map((preset) => (
                  <Button
                    key={preset.key}
                    size="small"
                    onClick={() => {
                      form.setFieldValue(name('cron'), preset.cron);
                      void form.validateFields([name('cron')]);
                    }}
                    data-testid={`cron-preset-${preset.key}`}
                  >
                    {t(`sysJob.cronPresets.${preset.key}`)}
                  </Button>
                ))}
              </Space>
              <CronCheck cron={cron} />
            </Space>
          }
        >
          <Form.Item
            noStyle
            name={name('cron')}
            validateDebounce={CRON_CHECK_DELAY_MS}
            rules={[
              { required: true, whitespace: true, message: t('crud.required', { label: t('sysJob.cron') }) },
              { validator: checkCron },
            ]}
          >
            <Input
              maxLength={128}
              placeholder="0 0 3 * * *"
              autoComplete="off"
              style={{ fontFamily: 'monospace' }}
              data-testid="trigger-field-cron"
            />
          </Form.Item>
        </Form.Item>
      ) : (
        <Form.Item
          name={name('periodSeconds')}
          label={t('sysJob.periodSeconds')}
          rules={[{ required: true, message: t('crud.required', { label: t('sysJob.periodSeconds') }) }]}
        >
          <InputNumber
            min={1}
            max={31_536_000}
            precision={0}
            suffix={t('sysJob.seconds')}
            style={{ width: '100%' }}
            data-testid="trigger-field-period"
          />
        </Form.Item>
      )}
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item name={name('startTime')} label={t('sysJob.startTime')}>
            <DatePicker showTime format={DATE_TIME_FORMAT} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item
            name={name('endTime')}
            label={t('sysJob.endTime')}
            dependencies={[name('startTime')]}
            rules={[
              ({ getFieldValue }) => ({
                validator: (_, value: Dayjs | null) => {
                  const start = getFieldValue(name('startTime')) as Dayjs | null;
                  return !value || !start || value.isAfter(start)
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('sysJob.endAfterStart')));
                },
              }),
            ]}
          >
            <DatePicker showTime format={DATE_TIME_FORMAT} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item
            name={name('maxNumberOfRuns')}
            label={t('sysJob.maxNumberOfRuns')}
            extra={t('sysJob.maxRunsHelp')}
          >
            <InputNumber min={0} max={1_000_000_000} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item
            name={name('runOnStart')}
            label={t('sysJob.runOnStart')}
            valuePropName="checked"
            tooltip={t('sysJob.runOnStartHelp')}
          >
            <Switch />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name={name('description')} label={t('sysJob.triggerDescription')}>
        <Input maxLength={256} />
      </Form.Item>
    </>
  );
}
