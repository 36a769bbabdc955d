import type { BusinessErrorCode } from '@shuzhi/contracts/errors';
import type { FastifyRequest } from 'fastify';
import type { PasswordChange } from '../auth/password-change.ts';
import { AppError } from '../errors/app-error.ts';

/**
 * What an account that must change its password (isDefPwd / isUpdatePwd) may still call: the password
 * change and sign-out, and what the web app's forced-change screen loads on the way there (user info, menus
 * and buttons of the shell, client config, dictionaries, the unread-notice badge, unlocking a locked screen,
 * the user centre's own profile). Public routes, the SM2 key and captcha among them, are not affected.
 * Keyed by method and route pattern; see docs/security.md "Forced password change".
 */
export const PASSWORD_CHANGE_ROUTES: ReadonlySet<string> = new Set([
  'POST /api/sysUser/changePwd',
  'POST /api/sysAuth/logout',
  'GET /api/sysAuth/userInfo',
  'GET /api/sysAuth/refreshToken',
  'GET /api/sysAuth/watermarkConfig',
  'POST /api/sysAuth/unLockScreen',
  'GET /api/sysMenu/loginMenuTree',
  'GET /api/sysMenu/ownBtnPermList',
  'GET /api/sysConfig/list',
  'GET /api/sysDictType/allDictList',
  'GET /api/sysDictType/version',
  'GET /api/sysNotice/unReadList',
  'GET /api/sysNotice/unReadSummary',
  'GET /api/sysUser/baseInfo',
]);

const REFUSALS: Record<PasswordChange, BusinessErrorCode> = { default: 'D1034', expired: 'D1035' };

const routeKey = (method: string, url: string) => `${method} ${url}`;

/** The refusal of a call made before the password change it owes, or undefined when the call is served. */
export function passwordChangeRefusal(
  request: FastifyRequest,
  due: PasswordChange | undefined,
): AppError | undefined {
  if (!due) return undefined;
  const url = request.routeOptions.url ?? '';
  return PASSWORD_CHANGE_ROUTES.has(routeKey(request.method, url)) ? undefined : new AppError(REFUSALS[due]);
}

/** Allow-list entries that name no registered route (a renamed route would silently lock users out). */
export function unknownPasswordChangeRoutes(routes: { method: string; url: string }[]): string[] {
  const known = new Set(routes.map((r) => routeKey(r.method, r.url)));
  return [...PASSWORD_CHANGE_ROUTES].filter((key) => !known.has(key));
}
