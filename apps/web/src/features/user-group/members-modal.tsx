import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Empty, Modal, Select, Space, Table, Typography } from 'antd';
import { useDeferredValue, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../platform/access/access.tsx';
import { feedback } from '../../platform/feedback/feedback.ts';
import {
  type PickableUser,
  USER_GROUP_KEYS,
  type UserGroupMember,
  type UserGroupRow,
  userGroupApi,
} from './user-group.api.ts';

type Member = Pick<UserGroupMember, 'id' | 'account' | 'realName' | 'orgName'>;

/**
 * The members of a group: the current list (remove one), a user search to add more, saved together with
 * `setMembers`. Without `sysUserGroup:update` the list is read-only.
 */
export function MembersModal({ group, onClose }: { group: UserGroupRow | null; onClose(): void }) {
  const { t } = useTranslation();
  const { can } = useCan();
  const editable = can('sysUserGroup:update');
  const client = useQueryClient();
  const open = group !== null;
  const members = useQuery({
    queryKey: USER_GROUP_KEYS.members(group?.id ?? 0),
    queryFn: () => userGroupApi.members(group?.id ?? 0),
    enabled: open,
  });
  const [draft, setDraft] = useState<Member[] | null>(null);
  const [keyword, setKeyword] = useState('');
  const deferred = useDeferredValue(keyword.trim());
  const [picked, setPicked] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);
  const users = useQuery({
    queryKey: USER_GROUP_KEYS.pick(deferred),
    queryFn: () => userGroupApi.searchUsers(deferred),
    enabled: open && editable,
    staleTime: 30_000,
  });

  // A freshly opened group starts from its saved members.
  useEffect(() => {
    if (!open) {
      setDraft(null);
      setKeyword('');
      setPicked(null);
    }
  }, [open]);
  const list: Member[] = draft ?? members.data ?? [];
  const inList = new Set(list.map((m) => m.id));

  const add = () => {
    const user = users.data?.items.find((u) => u.id === picked);
    if (!user || inList.has(user.id)) return;
    setDraft([
      ...list,
      { id: user.id, account: user.account, realName: user.realName, orgName: user.orgName },
    ]);
    setPicked(null);
  };

  const save = async () => {
    if (!group) return;
    setSaving(true);
    try {
      await userGroupApi.setMembers(
        group.id,
        list.map((m) => m.id),
      );
      await client.invalidateQueries({ queryKey: USER_GROUP_KEYS.members(group.id) });
      feedback.success(t('sysUserGroup.saved'));
      onClose();
    } catch (error) {
      feedback.error(error instanceof Error ? error.message : t('crud.failed'));
    } finally {
      setSaving(false);
    }
  };

  const options = (users.data?.items ?? []).map((u: PickableUser) => ({
    value: u.id,
    disabled: inList.has(u.id),
    label: `${u.realName}（${u.account}）${u.orgName ? ` · ${u.orgName}` : ''}`,
  }));

  return (
    <Modal
      open={open}
      title={group ? t('sysUserGroup.membersTitle', { name: group.name }) : ''}
      width={760}
      onCancel={onClose}
      onOk={editable ? save : onClose}
      okText={editable ? t('common.save') : t('common.ok')}
      cancelButtonProps={editable ? undefined : { style: { display: 'none' } }}
      confirmLoading={saving}
      destroyOnHidden
      data-testid="group-members-modal"
    >
      {editable && (
        <Space.Compact style={{ width: '100%', marginBottom: 12 }}>
          <Select<number>
            showSearch
            allowClear
            value={picked}
            onChange={(value) => setPicked(value ?? null)}
            onSearch={setKeyword}
            filterOption={false}
            options={options}
            loading={users.isFetching}
            placeholder={t('sysUserGroup.pickUser')}
            notFoundContent={users.isFetching ? null : t('sysUserGroup.noUsers')}
            style={{ flex: 1 }}
            data-testid="group-member-picker"
          />
          <Button type="primary" disabled={picked === null} onClick={add} data-testid="group-member-add">
            {t('sysUserGroup.addMember')}
          </Button>
        </Space.Compact>
      )}
      <Table<Member>
        rowKey="id"
        size="small"
        loading={members.isPending}
        dataSource={list}
        pagination={list.length > 10 ? { pageSize: 10, size: 'small' } : false}
        locale={{
          emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('sysUserGroup.noMembers')} />,
        }}
        data-testid="group-member-list"
        columns={[
          { key: 'account', dataIndex: 'account', title: t('sysUserGroup.account') },
          { key: 'realName', dataIndex: 'realName', title: t('sysUserGroup.realName') },
          { key: 'orgName', dataIndex: 'orgName', title: t('sysUserGroup.orgName') },
          ...(editable
            ? [
                {
                  key: 'actions',
                  title: t('crud.actions'),
                  width: 90,
                  render: (_: unknown, row: Member) => (
                    <Button
                      type="link"
                      danger
                      size="small"
                      onClick={() => setDraft(list.filter((m) => m.id !== row.id))}
                    >
                      {t('sysUserGroup.remove')}
                    </Button>
                  ),
                },
              ]
            : []),
        ]}
      />
      <Typography.Text type="secondary">
        {t('sysUserGroup.memberCount', { count: list.length })}
      </Typography.Text>
    </Modal>
  );
}
