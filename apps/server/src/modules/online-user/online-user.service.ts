import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import { type PageInput, type PageResult, pageResult } from '@shuzhi/contracts/envelope';
import type { OnlineUser } from '@shuzhi/contracts/online-user';
import { own } from '@shuzhi/contracts/own';
import { dataScopeOf, whereInScope } from '../../platform/access/data-scope.ts';
import { parseUserAgent } from '../../platform/audit/user-agent.ts';
import { revokeSession } from '../../platform/auth/sessions.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { applyFilters } from '../../platform/crud/filters.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { connectedSessions } from '../../platform/realtime/hub.ts';

export type OnlineUserFilters = { account?: string | null; realName?: string | null };

const FILTERS = { account: { like: 'u.account' }, realName: { like: 'u.real_name' } } as const;
const SORTABLE: Record<string, string> = {
  account: 'u.account',
  realName: 'u.real_name',
  loginTime: 's.create_time',
  lastActiveTime: 's.last_active_time',
  ip: 's.ip',
};
const EXPORT_BATCH = 1_000;

/**
 * Live sessions the caller may see: not revoked, refresh token not run out, user not deleted; of the
 * caller's tenant (the super admin: every tenant) and, like the user list, within their data scope
 * (sessions of users of visible orgs, and their own).
 */
async function visibleSessions(ctx: AppContext, user: AuthUser) {
  let query = ctx.db
    .selectFrom('sys_session as s')
    .innerJoin('sys_user as u', 'u.id', 's.user_id')
    .leftJoin('sys_org as o', 'o.id', 'u.org_id')
    .where('s.revoked', '=', 0)
    .where('s.refresh_expire_time', '>', formatDateTime())
    .where('u.is_delete', '=', 0);
  if (user.accountType !== ACCOUNT_TYPE.superAdmin) query = query.where('s.tenant_id', '=', user.tenantId);
  return whereInScope(query, await dataScopeOf(ctx, user), 'u.org_id', 'u.id');
}

const COLUMNS = [
  's.id',
  's.tenant_id',
  's.user_id',
  's.ip',
  's.user_agent',
  's.login_type',
  's.create_time',
  's.last_active_time',
  'u.account',
  'u.real_name',
  'u.org_id',
  'o.name as org_name',
] as const;

type Row = {
  id: number;
  tenant_id: number;
  user_id: number;
  ip: string | null;
  user_agent: string | null;
  login_type: number | null;
  create_time: string;
  last_active_time: string;
  account: string;
  real_name: string | null;
  org_id: number | null;
  org_name: string | null;
};

async function toItems(ctx: AppContext, user: AuthUser, rows: Row[]): Promise<OnlineUser[]> {
  const connected = await connectedSessions(
    ctx,
    rows.map((r) => r.id),
  );
  return rows.map((r) => {
    const client = parseUserAgent(r.user_agent);
    return {
      id: r.id,
      tenantId: r.tenant_id,
      userId: r.user_id,
      account: r.account,
      realName: r.real_name,
      orgId: r.org_id,
      orgName: r.org_name,
      ip: r.ip,
      browser: client.browser,
      os: client.os,
      loginType: r.login_type,
      loginTime: r.create_time,
      lastActiveTime: r.last_active_time,
      online: connected.has(r.id),
      current: r.id === user.sessionId,
    };
  });
}

async function filtered(ctx: AppContext, user: AuthUser, filters: OnlineUserFilters) {
  return applyFilters(await visibleSessions(ctx, user), FILTERS, filters, ctx.dialect);
}

export async function onlineUserPage(
  ctx: AppContext,
  user: AuthUser,
  input: PageInput & OnlineUserFilters,
): Promise<PageResult<OnlineUser>> {
  const query = await filtered(ctx, user, input);
  const countRow = await query.select((eb) => eb.fn.countAll().as('total')).executeTakeFirst();
  const total = Number(countRow?.total ?? 0);
  const column = input.field && input.order ? own(SORTABLE, input.field) : undefined;
  const direction = input.order === input.descStr ? 'desc' : 'asc';
  // Column names come from the whitelist; the newest sign-in first otherwise, id as the tie-breaker.
  let ordered = query.select(COLUMNS);
  if (column) ordered = ordered.orderBy(column as 's.id', direction);
  const rows = (await ordered
    .orderBy('s.create_time', 'desc')
    .orderBy('s.id', 'desc')
    .limit(input.pageSize)
    .offset((input.page - 1) * input.pageSize)
    .execute()) as Row[];
  return pageResult(await toItems(ctx, user, rows), total, input.page, input.pageSize);
}

/** Every matching session, in batches, for the Excel export. */
export async function* onlineUserBatches(
  ctx: AppContext,
  user: AuthUser,
  filters: OnlineUserFilters,
): AsyncGenerator<OnlineUser[]> {
  const query = (await filtered(ctx, user, filters))
    .select(COLUMNS)
    .orderBy('s.create_time', 'desc')
    .orderBy('s.id', 'desc');
  for (let offset = 0; ; offset += EXPORT_BATCH) {
    const rows = (await query.limit(EXPORT_BATCH).offset(offset).execute()) as Row[];
    if (rows.length === 0) return;
    yield await toItems(ctx, user, rows);
    if (rows.length < EXPORT_BATCH) return;
  }
}

/**
 * Forces a visible live session off: revoked server-side (its tokens stop working at once), its browsers get
 * `forceOffline` and go to the login page. D1002 for a session that is gone or out of sight; the caller's
 * own session cannot be forced off.
 */
export async function forceOffline(ctx: AppContext, user: AuthUser, sessionId: number): Promise<null> {
  if (sessionId === user.sessionId) throw new AppError('D1032');
  const row = await (await visibleSessions(ctx, user))
    .select('s.id')
    .where('s.id', '=', sessionId)
    .executeTakeFirst();
  if (!row) throw new AppError('D1002');
  await revokeSession(ctx, sessionId, 'force_offline');
  return null;
}
