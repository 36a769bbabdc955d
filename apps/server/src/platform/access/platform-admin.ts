import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import type { AuthUser } from '../context.ts';
import { HttpError } from '../errors/app-error.ts';

/**
 * Platform-wide data (one copy for every tenant: parameters, dictionaries, regions, the shared cache, the
 * host) is the platform operator's. Its pages are never in a tenant's menu set (PLATFORM_ONLY_MENUS), so
 * no tenant admin holds their permissions; this is the server-side backstop should one ever be granted.
 */
export function requireSuperAdmin(user: Pick<AuthUser, 'accountType'>): void {
  if (user.accountType !== ACCOUNT_TYPE.superAdmin) throw new HttpError(403);
}

/** A CRUD `scope` for platform-wide tables: every read and every write's row lookup is the super admin's. */
export function superAdminScope<Query>(query: Query, user: AuthUser): Query {
  requireSuperAdmin(user);
  return query;
}
