import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Col,
  Divider,
  Drawer,
  Empty,
  Form,
  Input,
  InputNumber,
  Row,
  Select,
  Space,
  Spin,
} from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DictSelect } from '../../components/dict/dict-select.tsx';
import { OrgTreeSelect } from '../../components/org-tree/org-tree-select.tsx';
import { serverFieldErrors } from '../../platform/data/field-errors.ts';
import { resourceKeys } from '../../platform/data/resource.ts';
import { UnauthorizedError } from '../../platform/http/http-client.ts';
import { USER_KEYS, type UserPageItem, userApi } from './user.api.ts';
import {
  AREA_FIELDS,
  checks,
  isAdminAccount,
  NEW_USER_VALUES,
  sexFromIdCard,
  toFormValues,
  toPayload,
  type UserFormValues,
} from './user-form.ts';

/**
 * Role and position options, shared by the form and the grant dialog; loaded only while one of them is open,
 * so that a user who may only view the list never asks for them (they would be refused).
 */
export function useRoleOptions(enabled: boolean) {
  const query = useQuery({ queryKey: USER_KEYS.roles, queryFn: userApi.roles, staleTime: 60_000, enabled });
  return {
    loading: query.isPending,
    options: (query.data ?? []).map((r) => ({ value: r.id, label: r.name, title: `${r.name} (${r.code})` })),
  };
}
function usePositionOptions(enabled: boolean) {
  const query = useQuery({
    queryKey: USER_KEYS.positions,
    queryFn: userApi.positions,
    staleTime: 60_000,
    enabled,
  });
  return {
    loading: query.isPending,
    options: (query.data ?? []).map((p) => ({ value: p.id, label: p.name, title: `${p.name} (${p.code})` })),
  };
}

const FIELD_NAMES = [
  'account',
  'realName',
  'nickName',
  'accountType',
  'sex',
  'phone',
  'email',
  'idCardNum',
  'address',
  'orgId',
  'posId',
  'roleIdList',
  'extOrgList',
  'enterprise',
  'orderNo',
  'remark',
  ...AREA_FIELDS,
];

export type UserFormDrawerProps = {
  /** `add` (with the org picked in the tree, if any), a user to edit, or null when closed. */
  target: { mode: 'add'; orgId: number | null } | { mode: 'edit'; user: UserPageItem } | null;
  onClose(): void;
};

/** Add / edit a user in sections: account, org with position and roles, extra orgs, area levels, contact. */
export function UserFormDrawer({ target, onClose }: UserFormDrawerProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<UserFormValues>();
  const [saving, setSaving] = useState(false);
  const roles = useRoleOptions(target !== null);
  const positions = usePositionOptions(target !== null);
  const editing = target?.mode === 'edit' ? target.user : null;

  // Editing needs the user's roles and extra orgs besides the row.
  const related = useQuery({
    queryKey: ['sysUser', 'formValues', editing?.id ?? 0],
    enabled: editing !== null,
    queryFn: async () => {
      const user = editing as UserPageItem;
      const [detail, roleIds, extOrgs] = await Promise.all([
        userApi.detail(user.id),
        userApi.ownRoleList(user.id),
        userApi.ownExtOrgList(user.id),
      ]);
      return { detail, values: toFormValues(detail, roleIds, extOrgs) };
    },
    gcTime: 0,
  });

  const initial = useMemo<UserFormValues | null>(() => {
    if (!target) return null;
    if (target.mode === 'add') return { ...NEW_USER_VALUES, orgId: target.orgId };
    return related.data?.values ?? null;
  }, [target, related.data]);

  const adminAccount = editing ? isAdminAccount(editing) : false;
  const rule = (check: (value: unknown) => boolean, text: string) => ({
    validator: (_: unknown, value: unknown) =>
      check(value) ? Promise.resolve() : Promise.reject(new Error(text)),
  });
  // Picks are org ids: without `type: 'number'` the rule would check for a string and refuse them.
  const required = (label: string, select = false) =>
    select
      ? { required: true, type: 'number' as const, message: t('crud.requiredSelect', { label }) }
      : { required: true, whitespace: true, message: t('crud.required', { label }) };
  const text = (
    name:
      | 'account'
      | 'realName'
      | 'nickName'
      | 'phone'
      | 'email'
      | 'idCardNum'
      | 'enterprise'
      | 'address'
      | (typeof AREA_FIELDS)[number],
    max: number,
    extra: object = {},
  ) => (
    <Input
      allowClear
      maxLength={max}
      placeholder={t('crud.inputPlaceholder', { label: t(`sysUser.${name}`) })}
      data-testid={`user-field-${name}`}
      {...extra}
    />
  );

  const submit = async (values: UserFormValues) => {
    if (!target || saving) return;
    setSaving(true);
    try {
      if (target.mode === 'add') await userApi.add(toPayload(values));
      else await userApi.update(toPayload(values, related.data?.detail ?? target.user));
      message.success(t('crud.saved'));
      await queryClient.invalidateQueries({ queryKey: resourceKeys.all('sysUser') });
      onClose();
    } catch (error) {
      if (error instanceof UnauthorizedError) return;
      const { fields, rest } = serverFieldErrors(error, FIELD_NAMES);
      if (fields.length > 0) {
        form.setFields(fields as never);
        if (rest.length > 0) message.error(rest.join('; '));
      } else {
        message.error(error instanceof Error && error.message ? error.message : t('crud.failed'));
      }
    } finally {
      setSaving(false);
    }
  };

  const loading = editing !== null && !related.data;
  const accountTypes = [
    { value: ACCOUNT_TYPE.normal, label: t('accountType.normal') },
    { value: ACCOUNT_TYPE.member, label: t('accountType.member') },
  ];
  if (adminAccount && editing) {
    accountTypes.push({
      value: editing.accountType as typeof ACCOUNT_TYPE.normal,
      label: t(
        editing.accountType === ACCOUNT_TYPE.superAdmin ? 'accountType.superAdmin' : 'accountType.sysAdmin',
      ),
    });
  }
  const section = (key: `sysUser.section${'Account' | 'Org' | 'ExtOrg' | 'Area' | 'Contact'}`) => (
    <Divider titlePlacement="start" plain style={{ marginTop: 4 }}>
      <strong>{t(key)}</strong>
    </Divider>
  );

  return (
    <Drawer
      open={target !== null}
      title={t(editing ? 'crud.editTitle' : 'crud.addTitle', { name: t('sysUser.entity') })}
      size={880}
      onClose={saving ? undefined : onClose}
      destroyOnHidden
      maskClosable={!saving}
      data-testid="user-drawer"
      footer={
        <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button onClick={onClose} disabled={saving}>
            {t('common.cancel')}
          </Button>
          <Button
            type="primary"
            loading={saving}
            disabled={loading}
            onClick={() => form.submit()}
            data-testid="user-form-submit"
          >
            {t('common.save')}
          </Button>
        </Space>
      }
    >
      {loading || !initial ? (
        <Spin style={{ display: 'block', margin: '64px auto' }} />
      ) : (
        <Form<UserFormValues>
          scrollToFirstError
          // A new form per user: initial values apply on mount.
          key={editing ? `edit-${editing.id}` : 'add'}
          form={form}
          initialValues={initial}
          layout="vertical"
          onFinish={submit}
          disabled={saving}
          data-testid="user-form"
          onValuesChange={(changed: Partial<UserFormValues>) => {
            // A valid ID number names the sex; fill it when the box is still empty.
            if ('idCardNum' in changed && !form.getFieldValue('sex')) {
              const sex = sexFromIdCard(changed.idCardNum);
              if (sex) form.setFieldValue('sex', sex);
            }
          }}
        >
          {target?.mode === 'add' ? (
            <Alert type="info" showIcon title={t('sysUser.newUserHint')} style={{ marginBottom: 16 }} />
          ) : null}
          {section('sysUser.sectionAccount')}
          <Row gutter={16}>
            <Col span={12}>
              <Form.Item
                name="account"
                label={t('sysUser.account')}
                rules={[required(t('sysUser.account')), rule(checks.account, t('sysUser.accountRule'))]}
                extra={editing ? t('sysUser.accountFixed') : t('sysUser.accountRule')}
              >
                {text('account', 16, { autoComplete: 'off' })}
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item
                name="realName"
                label={t('sysUser.realName')}
                rules={[required(t('sysUser.realName'))]}
              >
                {text('realName', 32)}
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="nickName" label={t('sysUser.nickName')}>
                {text('nickName', 32)}
              </Form.Item>
            </Col>
            <Col span={6}>
              <Form.Item name="accountType" label={t('sysUser.accountType')}>
                <Select options={accountTypes} disabled={adminAccount} data-testid="user-field-accountType" />
              </Form.Item>
            </Col>
            <Col span={6}>
              <Form.Item name="sex" label={t('sysUser.sex')}>
                <DictSelect code="sex" numeric data-testid="user-field-sex" />
              </Form.Item>
            </Col>
          </Row>

          {section('sysUser.sectionOrg')}
          <Row gutter={16}>
            <Col span={12}>
              <Form.Item name="orgId" label={t('sysUser.org')} rules={[required(t('sysUser.org'), true)]}>
                <OrgTreeSelect data-testid="user-field-orgId" />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="posId" label={t('sysUser.pos')}>
                <Select
                  allowClear
                  showSearch={{ optionFilterProp: 'label' }}
                  loading={positions.loading}
                  options={positions.options}
                  placeholder={t('crud.selectPlaceholder', { label: t('sysUser.pos') })}
                  data-testid="user-field-posId"
                />
              </Form.Item>
            </Col>
            <Col span={24}>
              <Form.Item name="roleIdList" label={t('sysUser.roles')}>
                <Select
                  mode="multiple"
                  allowClear
                  showSearch={{ optionFilterProp: 'label' }}
                  loading={roles.loading}
                  options={roles.options}
                  placeholder={t('crud.selectPlaceholder', { label: t('sysUser.roles') })}
                  data-testid="user-field-roleIdList"
                />
              </Form.Item>
            </Col>
          </Row>

          {section('sysUser.sectionExtOrg')}
          <Form.List name="extOrgList">
            {(items, { add, remove }) => (
              <div data-testid="user-ext-orgs">
                {items.length === 0 ? (
                  <Empty
                    image={Empty.PRESENTED_IMAGE_SIMPLE}
                    description={t('sysUser.extOrgEmpty')}
                    style={{ margin: '0 0 8px' }}
                  />
                ) : null}
                {items.map((item) => (
                  <Row gutter={16} key={item.key} align="top">
                    <Col span={12}>
                      <Form.Item
                        name={[item.name, 'orgId']}
                        rules={[required(t('sysUser.org'), true)]}
                        style={{ marginBottom: 12 }}
                      >
                        <OrgTreeSelect data-testid="user-ext-org" />
                      </Form.Item>
                    </Col>
                    <Col span={10}>
                      <Form.Item name={[item.name, 'posId']} style={{ marginBottom: 12 }}>
                        <Select
                          allowClear
                          showSearch={{ optionFilterProp: 'label' }}
                          options={positions.options}
                          placeholder={t('crud.selectPlaceholder', { label: t('sysUser.pos') })}
                        />
                      </Form.Item>
                    </Col>
                    <Col span={2}>
                      <Button
                        type="text"
                        danger
                        icon={<DeleteOutlined />}
                        aria-label={t('sysUser.extOrgRemove')}
                        onClick={() => remove(item.name)}
                      />
                    </Col>
                  </Row>
                ))}
                <Button
                  type="dashed"
                  block
                  icon={<PlusOutlined />}
                  onClick={() => add({ orgId: null, posId: null })}
                  style={{ marginBottom: 16 }}
                  data-testid="user-ext-org-add"
                >
                  {t('sysUser.extOrgAdd')}
                </Button>
              </div>
            )}
          </Form.List>

          {section('sysUser.sectionArea')}
          <Row gutter={16}>
            {AREA_FIELDS.map((name) => (
              <Col span={name.endsWith('Code') || name === 'regionId' ? 10 : 14} key={name}>
                <Form.Item name={name} label={t(`sysUser.${name}`)}>
                  {text(name, name.endsWith('Code') || name === 'regionId' ? 32 : 64)}
                </Form.Item>
              </Col>
            ))}
          </Row>

          {section('sysUser.sectionContact')}
          <Row gutter={16}>
            <Col span={12}>
              <Form.Item
                name="phone"
                label={t('sysUser.phone')}
                rules={[rule(checks.phone, t('sysUser.phoneRule'))]}
              >
                {text('phone', 11)}
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item
                name="email"
                label={t('sysUser.email')}
                rules={[rule(checks.email, t('sysUser.emailRule'))]}
              >
                {text('email', 128)}
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item
                name="idCardNum"
                label={t('sysUser.idCardNum')}
                rules={[rule(checks.idCardNum, t('sysUser.idCardRule'))]}
              >
                {text('idCardNum', 18)}
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="enterprise" label={t('sysUser.enterprise')}>
                {text('enterprise', 128)}
              </Form.Item>
            </Col>
            <Col span={18}>
              <Form.Item name="address" label={t('sysUser.address')}>
                {text('address', 256)}
              </Form.Item>
            </Col>
            <Col span={6}>
              <Form.Item name="orderNo" label={t('sysUser.orderNo')}>
                <InputNumber min={0} max={1_000_000} precision={0} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col span={24}>
              <Form.Item name="remark" label={t('sysUser.remark')}>
                <Input.TextArea rows={2} maxLength={256} showCount />
              </Form.Item>
            </Col>
          </Row>
        </Form>
      )}
    </Drawer>
  );
}
