import type { FormAudience } from '@shuzhi/contracts/diy-table';
import { Checkbox, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { OrgTreeSelect } from '../../components/org-tree/org-tree-select.tsx';
import { RolePickSelect } from '../../components/people-pick/role-pick-select.tsx';
import { UserPickSelect } from '../../components/people-pick/user-pick-select.tsx';

export const EMPTY_AUDIENCE: FormAudience = {
  all: false,
  orgIds: [],
  roleIds: [],
  userIds: [],
  enterprises: false,
};

/**
 * Who may fill or view a form, as a Form.Item control: everyone of the tenant, or any mix of orgs (with
 * their subtrees), roles and users; enterprise users of the chosen orgs (or of the tenant with 全部) only
 * when enterprises are admitted. A shared control of 表单管理 (the notice editor picks one kind of
 * recipients, so it is not reused here).
 */
export function AudienceField({
  value,
  onChange,
  enterpriseLabel,
  testId,
}: {
  value?: FormAudience;
  onChange?(value: FormAudience): void;
  /** 允许企业填报 / 允许企业查看. */
  enterpriseLabel: string;
  testId: string;
}) {
  const { t } = useTranslation();
  const audience = value ?? EMPTY_AUDIENCE;
  const set = (patch: Partial<FormAudience>) => onChange?.({ ...audience, ...patch });

  return (
    <Flex vertical gap={8} data-testid={testId}>
      <Checkbox
        checked={audience.all}
        onChange={(e) => set({ all: e.target.checked })}
        data-testid={`${testId}-all`}
      >
        {t('formAdmin.audienceAll')}
      </Checkbox>
      {audience.all ? null : (
        <>
          <OrgTreeSelect
            multiple
            value={audience.orgIds}
            onChange={(ids) => set({ orgIds: (ids as number[] | null) ?? [] })}
            placeholder={t('formAdmin.audienceOrgs')}
            maxTagCount="responsive"
            data-testid={`${testId}-orgs`}
          />
          <RolePickSelect
            source="/api/diyTable/pickRoles"
            value={audience.roleIds}
            onChange={(ids) => set({ roleIds: ids })}
            placeholder={t('formAdmin.audienceRoles')}
            data-testid={`${testId}-roles`}
          />
          <UserPickSelect
            value={audience.userIds}
            onChange={(ids) => set({ userIds: ids })}
            placeholder={t('formAdmin.audienceUsers')}
            data-testid={`${testId}-users`}
          />
        </>
      )}
      <Checkbox
        checked={audience.enterprises}
        onChange={(e) => set({ enterprises: e.target.checked })}
        data-testid={`${testId}-enterprises`}
      >
        {enterpriseLabel}
      </Checkbox>
      {audience.enterprises && !audience.all && audience.orgIds.length === 0 ? (
        <Typography.Text type="warning" style={{ fontSize: 12 }} data-testid={`${testId}-enterprise-hint`}>
          {t('formAdmin.enterpriseHint')}
        </Typography.Text>
      ) : null}
    </Flex>
  );
}
