import { NO_PERIOD, PERIOD_KINDS, type PeriodSettings } from '@shuzhi/contracts/diy-period';
import type { FormAudience, FormRow } from '@shuzhi/contracts/diy-table';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
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
  Skeleton,
  Space,
  Switch,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CategoryTreeSelect } from '../../components/diy-classify/category-tree-select.tsx';
import { OrgTreeSelect } from '../../components/org-tree/org-tree-select.tsx';
import { UserPickSelect } from '../../components/people-pick/user-pick-select.tsx';
import { encryptPassword } from '../../platform/crypto/password-cipher.ts';
import { type FieldName, serverFieldErrors } from '../../platform/data/field-errors.ts';
import { errorCodeIn, UnauthorizedError } from '../../platform/http/http-client.ts';
import { sessionApi } from '../../platform/session/session.api.ts';
import { AudienceField, EMPTY_AUDIENCE } from './audience-field.tsx';
import { FORM_KEYS, formApi } from './diy-table.api.ts';

/** What happens to the form password: none / keep the current one, set a new one, or remove it. */
type PasswordMode = 'keep' | 'set' | 'clear';

export type SettingsValues = {
  title: string;
  categoryId: number | null;
  ownerOrgId: number | null;
  status: 1 | 2;
  fillers: FormAudience;
  viewers: FormAudience;
  reviewerIds: number[];
  needsReview: boolean;
  passwordMode: PasswordMode;
  password?: string;
  orderNo: number;
  remark?: string | null;
  period: PeriodSettings;
};

/** The period's settings, which live under `period` in the form. */
const PERIOD_FIELDS: readonly FieldName[] = ['kind', 'dueDays', 'graceDays', 'onePerOrg'];
const FIELDS = [
  'title',
  'categoryId',
  'ownerOrgId',
  'status',
  'reviewerIds',
  'password',
  'orderNo',
  'remark',
  'kind',
  'dueDays',
  'graceDays',
  'onePerOrg',
];
/** Business codes that belong to a field of the drawer. */
const CODE_FIELD = { F1010: 'categoryId', F1011: 'password' } as const;
const PASSWORD_MIN = 6;
const PASSWORD_MAX = 12;

const DEFAULTS: SettingsValues = {
  title: '',
  categoryId: null,
  ownerOrgId: null,
  status: 1,
  fillers: EMPTY_AUDIENCE,
  viewers: EMPTY_AUDIENCE,
  reviewerIds: [],
  needsReview: true,
  passwordMode: 'keep',
  orderNo: 100,
  remark: '',
  period: NO_PERIOD,
};

function toValues(row: FormRow): SettingsValues {
  return {
    title: row.title,
    categoryId: row.categoryId,
    ownerOrgId: row.ownerOrgId,
    status: row.status === 2 ? 2 : 1,
    fillers: row.fillers,
    viewers: row.viewers,
    reviewerIds: row.reviewerIds,
    needsReview: row.needsReview,
    passwordMode: 'keep',
    orderNo: row.orderNo,
    remark: row.remark ?? '',
    period: { ...NO_PERIOD, ...row.period },
  };
}

export type SettingsTarget = { id?: number } | null;

/**
 * 新增 / 编辑设置 of a form in a drawer: title, category, owner org, status, who fills and who views, reviewers,
 * review, the form password (SM2-encrypted like the login; set, keep or clear), order and remark. Server
 * field errors land on their fields. `onSaved` gets the form's id, whether it is new and its title.
 */
export function FormSettingsDrawer({
  target,
  onClose,
  onSaved,
}: {
  target: SettingsTarget;
  onClose(): void;
  onSaved(id: number, created: boolean, title: string): void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<SettingsValues>();
  const [saving, setSaving] = useState(false);
  const open = target !== null;
  const editingId = target?.id;
  const detail = useQuery({
    queryKey: FORM_KEYS.detail(editingId ?? 0),
    queryFn: () => formApi.detail(editingId ?? 0),
    enabled: open && editingId !== undefined,
    staleTime: 0,
    gcTime: 0,
  });
  const hasPassword = detail.data?.isShowPwd ?? false;
  const passwordMode = Form.useWatch('passwordMode', form) ?? 'keep';
  const periodKind = Form.useWatch(['period', 'kind'], form) ?? 'none';
  const savedKind = detail.data?.period?.kind ?? 'none';

  useEffect(() => {
    if (!open) return;
    form.resetFields();
  }, [open, form]);
  useEffect(() => {
    if (detail.data) form.setFieldsValue(toValues(detail.data));
  }, [detail.data, form]);

  const showError = (error: unknown) => {
    if (error instanceof UnauthorizedError) return;
    const { fields, rest } = serverFieldErrors(error, FIELDS);
    const code = errorCodeIn(error, ['F1010', 'F1011']);
    if (code && error instanceof Error) fields.push({ name: CODE_FIELD[code], errors: [error.message] });
    // The period's settings live under `period` in the form.
    const named = fields.map((f) =>
      PERIOD_FIELDS.includes(f.name) ? { ...f, name: ['period', f.name] } : f,
    );
    if (named.length > 0) form.setFields(named as Parameters<typeof form.setFields>[0]);
    const text = rest[0] ?? (fields.length === 0 && error instanceof Error ? error.message : null);
    if (text) message.error(text);
  };

  const submit = async () => {
    if (saving) return;
    let values: SettingsValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      let password: string | undefined;
      if (values.passwordMode === 'set' && values.password) {
        const { publicKey } = await sessionApi.loginConfig();
        password = encryptPassword(values.password, publicKey);
      }
      const body = {
        title: values.title.trim(),
        categoryId: values.categoryId ?? null,
        status: values.status,
        fillers: values.fillers,
        viewers: values.viewers,
        reviewerIds: values.reviewerIds,
        needsReview: values.needsReview,
        orderNo: values.orderNo,
        remark: values.remark?.trim() || null,
        period: { ...NO_PERIOD, ...values.period },
        ...(values.ownerOrgId ? { ownerOrgId: values.ownerOrgId } : {}),
        ...(password ? { password } : {}),
      };
      if (editingId !== undefined) {
        await formApi.update({
          id: editingId,
          ...body,
          ...(values.passwordMode === 'clear' ? { clearPassword: true } : {}),
        });
        message.success(t('crud.saved'));
        onSaved(editingId, false, body.title);
      } else {
        const id = await formApi.add(body);
        message.success(t('formAdmin.created'));
        onSaved(id, true, body.title);
      }
      onClose();
    } catch (error) {
      showError(error);
    } finally {
      setSaving(false);
    }
  };

  const loading = editingId !== undefined && detail.isPending;
  const passwordChoices = hasPassword
    ? [
        { value: 'keep', label: t('formAdmin.passwordKeep') },
        { value: 'set', label: t('formAdmin.passwordChange') },
        {
          value: 'clear',
          label: <span data-testid="form-password-clear">{t('formAdmin.passwordClear')}</span>,
        },
      ]
    : [
        { value: 'keep', label: t('formAdmin.passwordNone') },
        { value: 'set', label: <span data-testid="form-password-set">{t('formAdmin.passwordSet')}</span> },
      ];

  return (
    <Drawer
      open={open}
      onClose={saving ? undefined : onClose}
      size={720}
      destroyOnHidden
      title={t(editingId === undefined ? 'formAdmin.addTitle' : 'formAdmin.editTitle')}
      data-testid="form-settings"
      footer={
        <Space style={{ width: '100%', justifyContent: 'flex-end' }}>
          <Button onClick={onClose} disabled={saving}>
            {t('common.cancel')}
          </Button>
          <Button
            type="primary"
            onClick={() => void submit()}
            loading={saving}
            disabled={loading || detail.isError}
            data-testid="form-settings-save"
          >
            {t('common.save')}
          </Button>
        </Space>
      }
    >
      {detail.isError ? (
        <Alert
          type="error"
          showIcon
          title={t('crud.loadFailed')}
          description={detail.error instanceof Error ? detail.error.message : undefined}
          data-testid="form-settings-error"
        />
      ) : loading ? (
        <Skeleton active paragraph={{ rows: 12 }} />
      ) : (
        <Form<SettingsValues>
          form={form}
          layout="vertical"
          initialValues={DEFAULTS}
          disabled={saving}
          onFinish={() => void submit()}
          requiredMark
        >
          <Form.Item
            name="title"
            label={t('formAdmin.formTitle')}
            rules={[{ required: true, whitespace: true, message: t('formAdmin.titleRequired') }]}
          >
            <Input maxLength={128} showCount data-testid="form-field-title" />
          </Form.Item>
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item name="categoryId" label={t('formAdmin.category')}>
                <CategoryTreeSelect
                  fallbackLabel={detail.data?.categoryName}
                  data-testid="form-field-category"
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="ownerOrgId"
                label={t('formAdmin.ownerOrg')}
                extra={editingId === undefined ? t('formAdmin.ownerOrgHint') : undefined}
              >
                <OrgTreeSelect allowClear={editingId === undefined} data-testid="form-field-owner" />
              </Form.Item>
            </Col>
          </Row>
          <Row gutter={16}>
            <Col xs={24} md={8}>
              <Form.Item name="status" label={t('crud.status')}>
                <Radio.Group
                  optionType="button"
                  options={[
                    { value: 1, label: t('crud.enabled') },
                    { value: 2, label: t('crud.disabled') },
                  ]}
                />
              </Form.Item>
            </Col>
            <Col xs={12} md={8}>
              <Form.Item name="needsReview" label={t('formAdmin.needsReview')} valuePropName="checked">
                <Switch data-testid="form-field-needs-review" />
              </Form.Item>
            </Col>
            <Col xs={12} md={8}>
              <Form.Item name="orderNo" label={t('formAdmin.orderNo')} rules={[{ required: true }]}>
                <InputNumber min={0} max={1_000_000} precision={0} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
          </Row>
          <Divider titlePlacement="start" plain>
            {t('formAdmin.access')}
          </Divider>
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item name="fillers" label={t('formAdmin.fillers')} extra={t('formAdmin.audienceHint')}>
                <AudienceField enterpriseLabel={t('formAdmin.enterpriseFill')} testId="form-field-fillers" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="viewers" label={t('formAdmin.viewers')} extra={t('formAdmin.viewersHint')}>
                <AudienceField enterpriseLabel={t('formAdmin.enterpriseView')} testId="form-field-viewers" />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="reviewerIds" label={t('formAdmin.reviewers')} extra={t('formAdmin.reviewersHint')}>
            <UserPickSelect data-testid="form-field-reviewers" />
          </Form.Item>
          <Divider titlePlacement="start" plain>
            {t('formAdmin.periodSection')}
          </Divider>
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item name={['period', 'kind']} label={t('formAdmin.periodKind')}>
                <Select
                  options={PERIOD_KINDS.map((kind) => ({ value: kind, label: t(`diyPeriod.kinds.${kind}`) }))}
                  data-testid="form-field-period-kind"
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name={['period', 'onePerOrg']}
                label={t('formAdmin.onePerOrg')}
                valuePropName="checked"
                tooltip={t('formAdmin.onePerOrgHint')}
              >
                <Switch disabled={periodKind === 'none'} data-testid="form-field-one-per-org" />
              </Form.Item>
            </Col>
          </Row>
          {periodKind !== 'none' ? (
            <Row gutter={16}>
              <Col xs={12} md={12}>
                <Form.Item
                  name={['period', 'dueDays']}
                  label={t('formAdmin.dueDays')}
                  extra={periodKind === 'custom' ? t('formAdmin.customDueHint') : t('formAdmin.dueDaysHint')}
                  rules={[{ required: true, message: t('formAdmin.daysRequired') }]}
                >
                  <InputNumber
                    min={0}
                    max={365}
                    precision={0}
                    suffix={t('formAdmin.days')}
                    style={{ width: '100%' }}
                    disabled={periodKind === 'custom'}
                    data-testid="form-field-due-days"
                  />
                </Form.Item>
              </Col>
              <Col xs={12} md={12}>
                <Form.Item
                  name={['period', 'graceDays']}
                  label={t('formAdmin.graceDays')}
                  extra={t('formAdmin.graceDaysHint')}
                  rules={[{ required: true, message: t('formAdmin.daysRequired') }]}
                >
                  <InputNumber
                    min={0}
                    max={365}
                    precision={0}
                    suffix={t('formAdmin.days')}
                    style={{ width: '100%' }}
                    disabled={periodKind === 'custom'}
                    data-testid="form-field-grace-days"
                  />
                </Form.Item>
              </Col>
            </Row>
          ) : null}
          {editingId !== undefined && periodKind !== savedKind ? (
            <Alert
              type="info"
              showIcon
              title={t('formAdmin.periodKindChange')}
              style={{ marginBottom: 16 }}
              data-testid="form-period-change-hint"
            />
          ) : (
            <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
              {t('formAdmin.periodHint')}
            </Typography.Paragraph>
          )}
          <Divider titlePlacement="start" plain>
            {t('formAdmin.password')}
          </Divider>
          {hasPassword ? (
            <Typography.Paragraph type="secondary" data-testid="form-password-state">
              {t('formAdmin.passwordIsSet')}
            </Typography.Paragraph>
          ) : null}
          <Form.Item name="passwordMode">
            <Radio.Group options={passwordChoices} />
          </Form.Item>
          {passwordMode === 'set' ? (
            <Form.Item
              name="password"
              label={t(hasPassword ? 'formAdmin.newPassword' : 'formAdmin.password')}
              style={{ maxWidth: 360 }}
              rules={[
                { required: true, message: t('formAdmin.passwordRequired') },
                { min: PASSWORD_MIN, max: PASSWORD_MAX, message: t('formAdmin.passwordLength') },
              ]}
            >
              <Input.Password
                maxLength={PASSWORD_MAX}
                autoComplete="new-password"
                placeholder={t('formAdmin.passwordPlaceholder')}
                data-testid="form-field-password"
              />
            </Form.Item>
          ) : null}
          {passwordMode === 'clear' ? (
            <Alert
              type="warning"
              showIcon
              title={t('formAdmin.passwordClearHint')}
              style={{ marginBottom: 16 }}
            />
          ) : null}
          <Form.Item name="remark" label={t('formAdmin.remark')}>
            <Input.TextArea maxLength={256} showCount autoSize={{ minRows: 2, maxRows: 4 }} />
          </Form.Item>
        </Form>
      )}
    </Drawer>
  );
}
