import type { TaskDetail } from '@shuzhi/contracts/diy-task';
import { DEFAULT_URGE_PLAN, type TaskUrgePlan } from '@shuzhi/contracts/diy-task-urge';
import { Button, Form, InputNumber, Space, Switch } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';

/**
 * The task's automatic urging ladder in the create and edit drawers (docs/tasks.md "Urging"): on or off, the
 * days before the due time (distinct whole numbers 1–30, at most five) and how many daily reminders follow it
 * (0–30). The server checks the same (a field error under `urge.…`).
 */

export type UrgePlanValues = {
  enabled?: boolean;
  beforeDays?: (number | null | undefined)[];
  afterDays?: number | null;
};

const MAX_BEFORE = 5;
const isDay = (value: unknown, min: number) =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= 30;

/** The form's starting values: the task's plan (off: the default steps, switched off), or the default. */
export function urgePlanValues(plan: TaskDetail['urge'] | undefined): UrgePlanValues {
  const steps = plan ?? DEFAULT_URGE_PLAN;
  return { enabled: plan !== null, beforeDays: [...steps.beforeDays], afterDays: steps.afterDays };
}

/** The payload's `urge`: the steps when on, `{enabled: false}` when off. */
export function urgePlanOf(values: UrgePlanValues | undefined): Partial<TaskUrgePlan> {
  if (values?.enabled === false) return { enabled: false };
  return {
    enabled: true,
    beforeDays: (values?.beforeDays ?? []).filter((d): d is number => typeof d === 'number'),
    afterDays: values?.afterDays ?? 0,
  };
}

/** The plan in words: 到期前 3、1 天提醒；逾期后每日提醒，共 3 天. */
export function urgePlanText(t: TFunction, plan: TaskDetail['urge']): string {
  if (!plan) return t('taskUrge.planOff');
  return [
    plan.beforeDays.length > 0
      ? t('taskUrge.planSummaryBefore', { days: plan.beforeDays.join(t('common.listSeparator')) })
      : t('taskUrge.planSummaryNoBefore'),
    plan.afterDays > 0
      ? t('taskUrge.planSummaryAfter', { count: plan.afterDays })
      : t('taskUrge.planSummaryNoAfter'),
  ].join(t('taskUrge.planJoin'));
}

/** 自动催办 switch and, when on, its steps, in the form field `urge`. */
export function UrgePlanFields({ testId }: { testId: string }) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item
        name={['urge', 'enabled']}
        label={t('taskUrge.plan')}
        valuePropName="checked"
        extra={t('taskUrge.planHint')}
      >
        <Switch data-testid={`${testId}-urge`} />
      </Form.Item>
      <Form.Item noStyle dependencies={[['urge', 'enabled']]}>
        {({ getFieldValue }) =>
          getFieldValue(['urge', 'enabled']) === false ? null : <UrgeSteps testId={testId} t={t} />
        }
      </Form.Item>
    </>
  );
}

function UrgeSteps({ testId, t }: { testId: string; t: TFunction }) {
  return (
    <>
      <Form.List
        name={['urge', 'beforeDays']}
        rules={[
          {
            validator: async (_, days: (number | null | undefined)[] | undefined) => {
              const set = (days ?? []).filter((d) => typeof d === 'number');
              if (set.length > MAX_BEFORE) throw new Error(t('taskUrge.planTooMany'));
              if (new Set(set).size !== set.length) throw new Error(t('taskUrge.planDistinct'));
            },
          },
        ]}
      >
        {(fields, { add, remove }, { errors }) => (
          <Form.Item label={t('taskUrge.planBefore')} extra={t('taskUrge.planBeforeHint')}>
            <Space wrap data-testid={`${testId}-urge-before`}>
              {fields.map((field, i) => (
                <Space.Compact key={field.key}>
                  <Form.Item
                    name={field.name}
                    noStyle
                    rules={[
                      { required: true, message: t('taskUrge.planDayRequired') },
                      {
                        validator: async (_, value: unknown) => {
                          if (value !== null && value !== undefined && !isDay(value, 1))
                            throw new Error(t('taskUrge.planDayRange'));
                        },
                      },
                    ]}
                  >
                    <InputNumber
                      style={{ width: 72 }}
                      aria-label={`${t('taskUrge.planBefore')} ${i + 1}`}
                      data-testid={`${testId}-urge-day`}
                    />
                  </Form.Item>
                  <Button onClick={() => remove(field.name)} aria-label={t('taskUrge.planRemoveDay')}>
                    ×
                  </Button>
                </Space.Compact>
              ))}
              {fields.length < MAX_BEFORE ? (
                <Button onClick={() => add()} data-testid={`${testId}-urge-add`}>
                  {t('taskUrge.planAddDay')}
                </Button>
              ) : null}
            </Space>
            <Form.ErrorList errors={errors} />
          </Form.Item>
        )}
      </Form.List>
      <Form.Item
        name={['urge', 'afterDays']}
        label={t('taskUrge.planAfter')}
        extra={t('taskUrge.planAfterHint')}
        rules={[
          { required: true, message: t('taskUrge.planAfterRange') },
          {
            validator: async (_, value: unknown) => {
              if (value !== null && value !== undefined && !isDay(value, 0))
                throw new Error(t('taskUrge.planAfterRange'));
            },
          },
        ]}
      >
        <InputNumber style={{ width: 120 }} data-testid={`${testId}-urge-after`} />
      </Form.Item>
    </>
  );
}
