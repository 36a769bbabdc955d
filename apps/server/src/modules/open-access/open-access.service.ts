import { randomBytes } from 'node:crypto';
import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import type { PageInput } from '@shuzhi/contracts/envelope';
import type {
  OpenAccessAddInput,
  OpenAccessItem,
  OpenAccessSecret,
  OpenAccessToken,
} from '@shuzhi/contracts/open-access';
import { own } from '@shuzhi/contracts/own';
import type { FastifyRequest } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { dataScopeOf, orgInScope } from '../../platform/access/data-scope.ts';
import { forgetOpenAccessKey, verifySignedRequest } from '../../platform/access/signed-request.ts';
import { recordVisit } from '../../platform/audit/audit.ts';
import { openSession } from '../../platform/auth/sessions.ts';
import { sm4Seal } from '../../platform/auth/sm4.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import type { CrudHooks } from '../../platform/crud/crud.ts';
import { applyFilters, type FilterRule } from '../../platform/crud/filters.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { AppError, HttpError } from '../../platform/errors/app-error.ts';
import { businessMessage } from '../../platform/errors/messages.ts';
import { paged } from '../../platform/http/paging.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** Random, URL-safe: 16 bytes for the key (public), 32 for the secret. */
const newAccessKey = () => randomBytes(16).toString('base64url');
const newSecret = () => randomBytes(32).toString('base64url');

const FILTERS: Record<string, FilterRule<string>> = {
  accessKey: { like: 'k.access_key' },
  bindUserId: { eq: 'k.bind_user_id' },
  bindUser: { like: ['u.account', 'u.real_name'] },
  status: { eq: 'k.status' },
};

export const OPEN_ACCESS_SORTABLE: Record<string, string> = {
  accessKey: 'k.access_key',
  bindUserAccount: 'u.account',
  status: 'k.status',
  lastUsedTime: 'k.last_used_time',
  createTime: 'k.create_time',
  updateTime: 'k.update_time',
};

/** Live keys the user may see (their tenant; the super admin sees all), with the bound user. Never the secret. */
function visible(db: Db, user: AuthUser) {
  let query = db
    .selectFrom('sys_open_access as k')
    .leftJoin('sys_user as u', 'u.id', 'k.bind_user_id')
    .leftJoin('sys_org as o', 'o.id', 'u.org_id')
    .select([
      'k.id',
      'k.tenant_id',
      'k.access_key',
      'k.bind_user_id',
      'k.status',
      'k.last_used_time',
      'k.remark',
      'k.create_time',
      'k.update_time',
      'k.create_user_id',
      'k.create_user_name',
      'k.update_user_id',
      'k.update_user_name',
      'u.account as bind_user_account',
      'u.real_name as bind_user_real_name',
      'o.name as bind_user_org_name',
    ])
    .where('k.is_delete', '=', 0);
  if (user.accountType !== ACCOUNT_TYPE.superAdmin) query = query.where('k.tenant_id', '=', user.tenantId);
  return query;
}

type ItemRow = Awaited<ReturnType<ReturnType<typeof visible>['executeTakeFirstOrThrow']>>;

function toItem(row: ItemRow): OpenAccessItem {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    accessKey: row.access_key,
    bindUserId: row.bind_user_id,
    status: row.status,
    lastUsedTime: row.last_used_time,
    remark: row.remark,
    createTime: row.create_time,
    updateTime: row.update_time,
    createUserId: row.create_user_id,
    createUserName: row.create_user_name,
    updateUserId: row.update_user_id,
    updateUserName: row.update_user_name,
    bindUserAccount: row.bind_user_account,
    bindUserRealName: row.bind_user_real_name,
    bindUserOrgName: row.bind_user_org_name,
  };
}

function filtered(ctx: AppContext, user: AuthUser, input: Record<string, unknown>) {
  return applyFilters(visible(ctx.db, user), FILTERS, input, ctx.dialect) as ReturnType<typeof visible>;
}

export function openAccessPage(ctx: AppContext, user: AuthUser, input: PageInput & Record<string, unknown>) {
  return paged(filtered(ctx, user, input), input, {
    sortable: OPEN_ACCESS_SORTABLE,
    defaultOrder: 'k.id',
    map: toItem,
  });
}

export async function openAccessList(
  ctx: AppContext,
  user: AuthUser,
  input: Record<string, unknown>,
): Promise<OpenAccessItem[]> {
  const rows = await filtered(ctx, user, input).orderBy('k.id', 'desc').limit(10_000).execute();
  return rows.map(toItem);
}

/** Batches of items for the export, in the page's order. */
export async function* openAccessExportRows(
  ctx: AppContext,
  user: AuthUser,
  input: PageInput & Record<string, unknown>,
): AsyncGenerator<Record<string, unknown>[]> {
  const column = input.field && input.order ? own(OPEN_ACCESS_SORTABLE, input.field) : undefined;
  const base = filtered(ctx, user, input);
  const ordered = column
    ? base.orderBy(column as 'k.id', input.order === input.descStr ? 'desc' : 'asc').orderBy('k.id', 'desc')
    : base.orderBy('k.id', 'desc');
  for (let offset = 0; ; offset += 1000) {
    const rows = await ordered.limit(1000).offset(offset).execute();
    yield rows.map(toItem);
    if (rows.length < 1000) return;
  }
}

export async function openAccessDetail(ctx: AppContext, user: AuthUser, id: number): Promise<OpenAccessItem> {
  const row = await visible(ctx.db, user).where('k.id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('D1002');
  return toItem(row);
}

/**
 * The user a key may be bound to: a live user of the key's tenant (D1002 otherwise), no mightier than the
 * caller (a key acts with its user's rights, so binding one must not raise the caller's own: 403), and for
 * callers with a data scope, a user of their visible orgs or themselves (D2003).
 */
async function checkBindable(
  ctx: AppContext,
  user: AuthUser,
  bindUserId: number,
  tenantId: number | null,
): Promise<{ tenantId: number }> {
  // Outside any transaction: SQLite has one connection, and the data scope may load through ctx.db.
  const target = await ctx.db
    .selectFrom('sys_user')
    .select(['id', 'tenant_id', 'account_type', 'org_id'])
    .where('id', '=', bindUserId)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  if (!target) throw new AppError('D1002');
  const superAdmin = user.accountType === ACCOUNT_TYPE.superAdmin;
  const expectedTenant = tenantId ?? (superAdmin ? target.tenant_id : user.tenantId);
  if (target.tenant_id !== expectedTenant) throw new AppError('D1002');
  if (!superAdmin) {
    if (target.account_type > user.accountType) throw new HttpError(403);
    if (target.id !== user.userId) {
      const view = await dataScopeOf(ctx, user);
      if (!orgInScope(view, target.org_id)) throw new AppError('D2003');
    }
  }
  return { tenantId: target.tenant_id };
}

/** Creates a key; the answer is the only time its secret is shown. */
export async function addOpenAccess(
  ctx: AppContext,
  user: AuthUser,
  input: Required<Pick<OpenAccessAddInput, 'bindUserId'>> & { status: 1 | 2; remark?: string | null },
): Promise<OpenAccessSecret> {
  const id = ctx.newId();
  const accessKey = newAccessKey();
  const accessSecret = newSecret();
  const { tenantId } = await checkBindable(ctx, user, Number(input.bindUserId), null);
  await ctx.db
    .insertInto('sys_open_access')
    .values({
      id,
      tenant_id: tenantId,
      access_key: accessKey,
      access_secret: sm4Seal(accessSecret, ctx.config.dataKey),
      bind_user_id: Number(input.bindUserId),
      status: input.status,
      last_used_time: null,
      remark: input.remark ?? null,
      create_time: formatDateTime(),
      update_time: null,
      create_user_id: user.userId,
      create_user_name: user.realName,
      update_user_id: null,
      update_user_name: null,
      is_delete: 0,
    })
    .execute();
  // An unknown key is remembered briefly as unknown; this one exists from now on.
  await forgetOpenAccessKey(ctx, accessKey);
  return { id, accessKey, accessSecret };
}

/** A new secret for a key; the old one stops working at once. */
export async function resetOpenAccessSecret(
  ctx: AppContext,
  user: AuthUser,
  id: number,
): Promise<OpenAccessSecret> {
  const accessSecret = newSecret();
  const accessKey = await ctx.db.transaction().execute(async (trx) => {
    const row = await visible(trx, user).where('k.id', '=', id).executeTakeFirst();
    if (!row) throw new AppError('D1002');
    await trx
      .updateTable('sys_open_access')
      .set({
        access_secret: sm4Seal(accessSecret, ctx.config.dataKey),
        update_time: formatDateTime(),
        update_user_id: user.userId,
        update_user_name: user.realName,
      })
      .where('id', '=', id)
      .execute();
    return row.access_key;
  });
  await forgetOpenAccessKey(ctx, accessKey);
  return { id, accessKey, accessSecret };
}

/** Changes the bound user and the remark; the key and the secret stay. */
export async function updateOpenAccess(
  ctx: AppContext,
  user: AuthUser,
  input: { id: number; bindUserId?: number; remark?: string | null },
): Promise<null> {
  const row = await visible(ctx.db, user).where('k.id', '=', input.id).executeTakeFirst();
  if (!row) throw new AppError('D1002');
  if (input.bindUserId !== undefined && input.bindUserId !== row.bind_user_id) {
    await checkBindable(ctx, user, input.bindUserId, row.tenant_id);
  }
  const result = await ctx.db
    .updateTable('sys_open_access')
    .set({
      ...(input.bindUserId !== undefined ? { bind_user_id: input.bindUserId } : {}),
      ...(input.remark !== undefined ? { remark: input.remark } : {}),
      update_time: formatDateTime(),
      update_user_id: user.userId,
      update_user_name: user.realName,
    })
    .where('id', '=', input.id)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new AppError('D1002');
  await forgetOpenAccessKey(ctx, row.access_key);
  return null;
}

/** After the factory's status changes and deletes: the keys' cached entries go at once. */
export const openAccessHooks: CrudHooks<'sys_open_access', unknown, unknown> = {
  async afterChange({ ctx, ids }) {
    if (ids.length === 0) return;
    const rows = await ctx.db
      .selectFrom('sys_open_access')
      .select('access_key')
      .where('id', 'in', ids)
      .execute();
    for (const row of rows) await forgetOpenAccessKey(ctx, row.access_key);
  },
};

/**
 * `GET /api/auth/token`: a signed request (same rule as every open-access call) opens a session for the
 * key's bound user, for login-free pages and integrations that need a Bearer token. Leaves a visit-log row.
 */
export async function tokenForSignedRequest(ctx: AppContext, req: FastifyRequest): Promise<OpenAccessToken> {
  const started = performance.now();
  const client = { ip: req.ip, userAgent: req.headers['user-agent'] ?? null };
  const keyHeader = req.headers.accesskey;
  const who = {
    userId: null as number | null,
    tenantId: null as number | null,
    // Until the key is known, the row names the key the caller claimed.
    account: String(Array.isArray(keyHeader) ? keyHeader[0] : (keyHeader ?? '')).slice(0, 64),
    realName: null as string | null,
  };
  const visit = (success: boolean, code: string, message: string | null) =>
    recordVisit(ctx, {
      action: success ? 'login' : 'loginFail',
      success,
      code,
      message,
      user: who,
      ...client,
      elapsed: performance.now() - started,
    });
  try {
    const caller = await verifySignedRequest(ctx, req);
    Object.assign(who, {
      userId: caller.userId,
      tenantId: caller.tenantId,
      account: caller.account,
      realName: caller.realName,
    });
    const pair = await openSession(
      ctx,
      { id: caller.userId, tenantId: caller.tenantId },
      { ...client, loginType: null, service: true },
    );
    visit(true, '200', null);
    return { accessToken: pair.accessToken, refreshToken: pair.refreshToken };
  } catch (error) {
    if (error instanceof AppError)
      visit(false, error.code, businessMessage(error.code, 'zh-CN', error.params));
    throw error;
  }
}
