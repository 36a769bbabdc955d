import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';

/** i18n key of an account type (REFERENCE: 999 super admin, 888 system admin, 777 normal, 666 member). */
export function accountTypeKey(accountType: number | undefined) {
  switch (accountType) {
    case ACCOUNT_TYPE.superAdmin:
      return 'accountType.superAdmin';
    case ACCOUNT_TYPE.sysAdmin:
      return 'accountType.sysAdmin';
    case ACCOUNT_TYPE.member:
      return 'accountType.member';
    default:
      return 'accountType.normal';
  }
}
