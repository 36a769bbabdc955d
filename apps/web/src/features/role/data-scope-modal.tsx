import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import { ROLE_DATA_SCOPE } from '@shuzhi/contracts/role';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, type ButtonProps, Modal, Radio, Space, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { OrgTree } from '../../components/org-tree/org-tree.tsx';
import { useReclickGuard } from '../../components/use-reclick-guard.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';
import { ROLE_KEYS, type RoleRow, roleApi } from './role.api.ts';

const SCOPES = [1, 2, 3, 4, 5] as const;

/**
 * 数据范围: scope 1–5 with what each means; 5 picks the custom orgs from the admin's own visible org tree,
 * each org on its own. Only the super admin grants 1 (a role that already has it keeps it).
 */
export function DataScopeModal({ role, onClose }: { role: RoleRow | null; onClose(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const superAdmin = useSessionStore((s) => s.userInfo?.accountType === ACCOUNT_TYPE.superAdmin);
  const open = role !== null;
  const [scope, setScope] = useState<number>(ROLE_DATA_SCOPE.self);
  const [orgIds, setOrgIds] = useState<number[]>([]);
  const own = useQuery({
    queryKey: ROLE_KEYS.ownOrgs(role?.id ?? 0),
    queryFn: () => roleApi.ownOrgList(role?.id ?? 0),
    enabled: open,
    staleTime: 0,
  });

  useEffect(() => {
    if (role) setScope(role.dataScope);
  }, [role]);
  useEffect(() => {
    if (open && own.data) setOrgIds(own.data);
  }, [open, own.data]);

  const save = useMutation({
    mutationFn: roleApi.grantDataScope,
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['sysRole'] });
      message.success(t('sysRole.granted'));
      onClose();
    },
  });
  const submit = useReclickGuard(() => {
    if (!role || save.isPending) return;
    save.mutate({
      id: role.id,
      dataScope: scope,
      orgIdList: scope === ROLE_DATA_SCOPE.custom ? orgIds : [],
    });
  });
  const allLocked = !superAdmin && role?.dataScope !== ROLE_DATA_SCOPE.all;

  return (
    <Modal
      open={open}
      onCancel={onClose}
      onOk={submit}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      okButtonProps={{ disabled: own.isPending, 'data-testid': 'role-scope-save' } as ButtonProps}
      title={role ? t('sysRole.grantScopeTitle', { name: role.name }) : null}
      width={scope === ROLE_DATA_SCOPE.custom ? 640 : 520}
      destroyOnHidden
      data-testid="role-scope-modal"
    >
      <Radio.Group
        value={scope}
        onChange={(e) => setScope(e.target.value as number)}
        style={{ width: '100%' }}
        data-testid="role-scope-radio"
      >
        <Space orientation="vertical" size={6} style={{ width: '100%' }}>
          {SCOPES.map((value) => (
            <Radio
              key={value}
              value={value}
              disabled={value === ROLE_DATA_SCOPE.all && allLocked}
              data-testid={`role-scope-${value}`}
            >
              <span>{t(`sysRole.scope.${value}`)}</span>
              <Typography.Text type="secondary" style={{ marginInlineStart: 8, fontSize: 12 }}>
                {value === ROLE_DATA_SCOPE.all && allLocked
                  ? t('sysRole.scopeAllOnlySuper')
                  : t(`sysRole.scopeHelp.${value}`)}
              </Typography.Text>
            </Radio>
          ))}
        </Space>
      </Radio.Group>
      {scope === ROLE_DATA_SCOPE.custom ? (
        <div style={{ marginTop: 16 }} data-testid="role-scope-orgs">
          <Space style={{ marginBottom: 8 }} wrap>
            <Typography.Text strong>{t('sysRole.scopeOrgs')}</Typography.Text>
            <Typography.Text type="secondary">{t('sysRole.scopeOrgsHint')}</Typography.Text>
            <Typography.Text type="secondary" data-testid="role-scope-org-count">
              {t('sysRole.scopeOrgsCount', { count: orgIds.length })}
            </Typography.Text>
          </Space>
          {own.isError ? (
            <Alert
              type="error"
              showIcon
              title={t('crud.loadFailed')}
              action={
                <Button size="small" onClick={() => void own.refetch()}>
                  {t('common.retry')}
                </Button>
              }
            />
          ) : own.isPending ? (
            <Spin style={{ display: 'block', margin: '24px auto' }} />
          ) : (
            <OrgTree checkable checkedIds={orgIds} onCheck={setOrgIds} height={320} />
          )}
        </div>
      ) : null}
    </Modal>
  );
}
