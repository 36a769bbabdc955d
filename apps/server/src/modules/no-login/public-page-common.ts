import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import type { PublicPageState } from '@shuzhi/contracts/no-login-pages';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { type PageKind, readPageCode, signPageCode } from './no-login-code.ts';
import { epochOf, throttle } from './no-login-scope.ts';

/**
 * What public statements and custom scenes share (docs/no-login.md): their signed code (the link code's
 * layout with its own key), their state, and the checks of a code a stranger brings, in the links' order:
 * signature (N1000), exists (N1008), same tenant (N1005), withdrawn, expired, the rate of the code (N1009).
 */

type PageRow = {
  id: number;
  tenant_id: number;
  expire_time: string;
  withdraw_time: string | null;
  is_delete: number;
};
const TABLE_OF: Record<PageKind, 'sys_statement' | 'sys_scene'> = {
  statement: 'sys_statement',
  scene: 'sys_scene',
};
/** Withdrawn and expired, per kind. */
const ENDED = { statement: ['N1020', 'N1021'], scene: ['N1022', 'N1023'] } as const;

export function pageCode(ctx: AppContext, kind: PageKind, row: PageRow): string {
  return signPageCode(ctx, kind, {
    tenantId: Number(row.tenant_id),
    linkId: Number(row.id),
    expires: epochOf(row.expire_time),
  });
}

export function pageState(row: PageRow, now: string): PublicPageState {
  if (row.withdraw_time !== null) return 'withdrawn';
  if (row.expire_time <= now) return 'expired';
  return 'active';
}

/** The caller's tenant (every tenant's rows for the super admin). */
export function tenantOf(user: AuthUser): number | null {
  return user.accountType === ACCOUNT_TYPE.superAdmin ? null : user.tenantId;
}

/** A statement's or scene's row a stranger's code opens, live; refusals as the links' (HTTP 401/403). */
export async function openedRow<R extends PageRow>(
  ctx: AppContext,
  kind: PageKind,
  code: string,
  load: (id: number) => Promise<R | undefined>,
): Promise<R> {
  const claims = readPageCode(ctx, kind, code);
  if (!claims) throw new AppError('N1000', undefined, 401);
  const row = await load(claims.linkId);
  if (row?.is_delete !== 0) throw new AppError('N1008', undefined, 401);
  if (Number(row.tenant_id) !== claims.tenantId) throw new AppError('N1005', undefined, 403);
  const [withdrawn, expired] = ENDED[kind];
  if (row.withdraw_time !== null) throw new AppError(withdrawn, undefined, 401);
  if (claims.expires * 1000 <= Date.now() || row.expire_time <= formatDateTime()) {
    throw new AppError(expired, undefined, 401);
  }
  await throttle(ctx, `${kind}:${row.id}`);
  return { ...row, id: Number(row.id), tenant_id: Number(row.tenant_id) };
}

/** Counts one opening of the public page. */
export async function countView(ctx: AppContext, kind: PageKind, id: number): Promise<void> {
  await ctx.db
    .updateTable(TABLE_OF[kind] as 'sys_statement')
    .set((eb) => ({ view_count: eb('view_count', '+', 1) }))
    .where('id', '=', id)
    .execute();
}
