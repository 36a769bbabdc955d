import { CopyOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Modal, Select, Space, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { resourceKeys } from '../../platform/data/resource.ts';
import { USER_KEYS, type UserPageItem, userApi } from './user.api.ts';
import { useRoleOptions } from './user-form-drawer.tsx';

/** The new password after a reset: shown this once, with a copy button; nothing keeps it afterwards. */
export function NewPasswordModal({
  shown,
  onClose,
}: {
  shown: { name: string; password: string } | null;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const copy = async () => {
    if (!shown) return;
    try {
      await navigator.clipboard.writeText(shown.password);
      message.success(t('sysUser.copied'));
    } catch {
      message.error(t('crud.failed'));
    }
  };
  return (
    <Modal
      open={shown !== null}
      title={t('sysUser.resetPwdDone')}
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Button type="primary" onClick={onClose} data-testid="user-password-close">
          {t('common.ok')}
        </Button>
      }
      data-testid="user-password-modal"
    >
      {shown ? (
        <Space orientation="vertical" size={12} style={{ width: '100%' }}>
          <Typography.Text>{t('sysUser.resetPwdShown', { name: shown.name })}</Typography.Text>
          <Space.Compact style={{ width: '100%' }}>
            <Typography.Text
              code
              style={{ fontSize: 18, padding: '4px 12px', flex: 1 }}
              data-testid="user-new-password"
            >
              {shown.password}
            </Typography.Text>
            <Button icon={<CopyOutlined />} onClick={() => void copy()} data-testid="user-password-copy">
              {t('sysUser.copy')}
            </Button>
          </Space.Compact>
        </Space>
      ) : null}
    </Modal>
  );
}

/** Replaces a user's roles. */
export function GrantRoleModal({ user, onClose }: { user: UserPageItem | null; onClose(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const roles = useRoleOptions(user !== null);
  const [value, setValue] = useState<number[]>([]);
  const [saving, setSaving] = useState(false);
  const own = useQuery({
    queryKey: USER_KEYS.ownRoles(user?.id ?? 0),
    queryFn: () => userApi.ownRoleList(user?.id ?? 0),
    enabled: user !== null,
    gcTime: 0,
  });
  useEffect(() => {
    if (own.data) setValue(own.data);
  }, [own.data]);

  const save = async () => {
    if (!user) return;
    setSaving(true);
    try {
      await userApi.grantRole({ userId: user.id, roleIdList: value });
      message.success(t('sysUser.granted'));
      await queryClient.invalidateQueries({ queryKey: resourceKeys.all('sysUser') });
      onClose();
    } catch {
      // The HTTP client has shown the error.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={user !== null}
      title={t('sysUser.grantRoleTitle', { name: user?.realName ?? '' })}
      onCancel={onClose}
      onOk={() => void save()}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      okButtonProps={{ disabled: own.isPending, 'data-testid': 'user-grant-ok' }}
      destroyOnHidden
      data-testid="user-grant-modal"
    >
      {own.isError ? (
        <Alert type="error" showIcon title={t('crud.loadFailed')} />
      ) : own.isPending ? (
        <Spin style={{ display: 'block', margin: '24px auto' }} />
      ) : (
        <Select
          mode="multiple"
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          style={{ width: '100%' }}
          loading={roles.loading}
          options={roles.options}
          value={value}
          onChange={setValue}
          placeholder={t('crud.selectPlaceholder', { label: t('sysUser.roles') })}
          data-testid="user-grant-select"
        />
      )}
    </Modal>
  );
}
