import { TASK_ORG_TYPES } from '@shuzhi/contracts/diy-task';
import type { OrgNode } from '@shuzhi/contracts/org';
import { Checkbox, Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { OrgTreeSelect } from '../../components/org-tree/org-tree-select.tsx';
import { RolePickSelect } from '../../components/people-pick/role-pick-select.tsx';
import { UserPickSelect } from '../../components/people-pick/user-pick-select.tsx';

export type ReceiverValues = {
  orgIds?: number[];
  subtree?: boolean;
  orgTypes?: string[];
  roleIds?: number[];
  userIds?: number[];
};

/** Receivers may be named by any of these; at least one must be given. */
const NAMING = ['orgIds', 'orgTypes', 'roleIds', 'userIds'] as const;

/**
 * Receivers of a distribution: units, with or without the units below them, by unit type, or by the units of
 * chosen roles' users and of named users (a task goes to units: a person stands for their own unit).
 */
export function ReceiverFields({ nodes }: { nodes?: readonly OrgNode[] }) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item
        name={['receivers', 'orgIds']}
        label={t('diyTask.receivers')}
        rules={[
          ({ getFieldValue }) => ({
            validator: (_: unknown, value: number[] | undefined) =>
              (value?.length ?? 0) > 0 ||
              NAMING.some((key) => (getFieldValue(['receivers', key])?.length ?? 0) > 0)
                ? Promise.resolve()
                : Promise.reject(new Error(t('diyTask.receiversRequired'))),
          }),
        ]}
      >
        <OrgTreeSelect multiple nodes={nodes} treeCheckable={false} data-testid="task-field-orgs" />
      </Form.Item>
      <Form.Item name={['receivers', 'subtree']} valuePropName="checked">
        <Checkbox data-testid="task-field-subtree">{t('diyTask.subtree')}</Checkbox>
      </Form.Item>
      <Form.Item
        name={['receivers', 'orgTypes']}
        label={t('diyTask.orgTypes')}
        extra={t('diyTask.orgTypesHint')}
      >
        <Select
          mode="multiple"
          allowClear
          data-testid="task-field-org-types"
          options={TASK_ORG_TYPES.map((type) => ({ value: type, label: t(`diyTask.orgTypeNames.${type}`) }))}
        />
      </Form.Item>
      <Form.Item name={['receivers', 'roleIds']} label={t('diyTask.roles')} extra={t('diyTask.rolesHint')}>
        <RolePickSelect source="/api/diyTask/pickRoles" data-testid="task-field-roles" />
      </Form.Item>
      <Form.Item name={['receivers', 'userIds']} label={t('diyTask.users')} extra={t('diyTask.usersHint')}>
        <UserPickSelect data-testid="task-field-users" />
      </Form.Item>
    </>
  );
}

/** The receivers part of a request body. */
export const receiversOf = (values: ReceiverValues | undefined) => ({
  orgIds: values?.orgIds ?? [],
  subtree: values?.subtree ?? false,
  orgTypes: (values?.orgTypes ?? []) as (typeof TASK_ORG_TYPES)[number][],
  roleIds: values?.roleIds ?? [],
  userIds: values?.userIds ?? [],
});
