import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import { type PageResult, STATUS } from '@shuzhi/contracts/envelope';
import {
  AUDIENCE_PICK_LIMIT,
  type AudienceRole,
  type AudienceUser,
  NOTICE_AUDIENCE,
  NOTICE_READ,
  NOTICE_STATUS,
  type NoticeDetail,
  type NoticeEventPayload,
  type NoticePageInput,
  type NoticeRow,
  type NoticeWithdrawnPayload,
  type ReceivedNotice,
  type ReceivedNoticeDetail,
  type ReceivedPageInput,
  UNREAD_LIST_SIZE,
  type UnreadList,
} from '@shuzhi/contracts/notice';
import { ORG_PATH_SEPARATOR } from '@shuzhi/contracts/org';
import { REALTIME_EVENTS } from '@shuzhi/contracts/realtime';
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import type { Database, SysNoticeTable } from '../../db/schema.ts';
import { dataScopeOf, whereInScope } from '../../platform/access/data-scope.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { applyFilters, type FilterRule } from '../../platform/crud/filters.ts';
import { formatDateTime, parseDateTime } from '../../platform/db/time.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { paged } from '../../platform/http/paging.ts';
import { emitToTenant, emitToUser } from '../../platform/realtime/hub.ts';
import { enabledRoleChoices } from '../role/role.service.ts';

type Db = Kysely<Database> | Transaction<Database>;
export type NoticeRecord = Selectable<SysNoticeTable>;

/** Inbox rows written per INSERT … SELECT. */
const INBOX_BATCH = 5_000;
/** Realtime emits sent before yielding to the event loop (a large audience must not stall requests). */
const EMIT_CHUNK = 500;

/** The audience ids stored as a JSON array. */
export function audienceIdsOf(text: string | null): number[] {
  if (!text) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((v): v is number => Number.isSafeInteger(v)) : [];
  } catch {
    return [];
  }
}

/**
 * Every id of the audience must be a live org, role or user of the notice's tenant (D1002); orgs, roles and
 * users need at least one (D7003). Answers the ids without repeats, as they will be stored.
 */
export async function checkAudience(
  db: Db,
  tenantId: number,
  audience: number,
  ids: readonly number[],
): Promise<number[]> {
  if (audience === NOTICE_AUDIENCE.all) return [];
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) throw new AppError('D7003');
  const table =
    audience === NOTICE_AUDIENCE.orgs
      ? 'sys_org'
      : audience === NOTICE_AUDIENCE.roles
        ? 'sys_role'
        : 'sys_user';
  const found = await db
    .selectFrom(table)
    .select('id')
    .where('id', 'in', wanted)
    .where('tenant_id', '=', tenantId)
    .where('is_delete', '=', 0)
    .execute();
  if (found.length !== wanted.length) throw new AppError('D1002');
  return wanted;
}

/** Notices the caller may see and manage: live, their tenant (the super admin any), their data scope. */
async function visibleNotices(ctx: AppContext, db: Db, user: AuthUser) {
  let query = db.selectFrom('sys_notice').where('is_delete', '=', 0);
  if (user.accountType !== ACCOUNT_TYPE.superAdmin) query = query.where('tenant_id', '=', user.tenantId);
  // The scope is read on `db`: inside a transaction SQLite has one connection.
  const view = await dataScopeOf({ ...ctx, db: db as AppContext['db'] }, user);
  return whereInScope(query, view, 'create_org_id', 'create_user_id');
}

async function visibleNotice(ctx: AppContext, db: Db, user: AuthUser, id: number): Promise<NoticeRecord> {
  const row = await (await visibleNotices(ctx, db, user)).selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('D1002');
  return row;
}

const PAGE_FILTERS: Record<string, FilterRule<string>> = {
  title: { like: 'title' },
  type: { eq: 'type' },
  status: { eq: 'status' },
};
const PAGE_SORTABLE: Record<string, string> = {
  title: 'title',
  type: 'type',
  status: 'status',
  publicTime: 'public_time',
  publishAt: 'publish_at',
  createTime: 'create_time',
};

function rowOf(
  r: NoticeRecord,
  names: Map<string, string>,
  counts: Map<number, [number, number]>,
): NoticeRow {
  const ids = audienceIdsOf(r.audience_ids);
  const [recipientCount, readCount] = counts.get(r.id) ?? [0, 0];
  return {
    id: r.id,
    title: r.title,
    type: r.type,
    status: r.status,
    audience: r.audience,
    audienceIds: ids,
    audienceNames: ids.map((id) => names.get(`${r.audience}:${id}`)).filter((n): n is string => !!n),
    publishAt: r.publish_at,
    publicTime: r.public_time,
    publicUserName: r.public_user_name,
    publicOrgName: r.public_org_name,
    cancelTime: r.cancel_time,
    recipientCount,
    readCount,
    createTime: r.create_time,
    updateTime: r.update_time,
    createUserId: r.create_user_id,
    createUserName: r.create_user_name,
    updateUserId: r.update_user_id,
    updateUserName: r.update_user_name,
  };
}

/** Names of the audiences' orgs, roles and users (keyed `audience:id`), and the inbox counts per notice. */
async function decorate(ctx: AppContext, rows: NoticeRecord[]): Promise<NoticeRow[]> {
  const wanted = { orgs: new Set<number>(), roles: new Set<number>(), users: new Set<number>() };
  for (const r of rows) {
    const set =
      r.audience === NOTICE_AUDIENCE.orgs
        ? wanted.orgs
        : r.audience === NOTICE_AUDIENCE.roles
          ? wanted.roles
          : r.audience === NOTICE_AUDIENCE.users
            ? wanted.users
            : null;
    for (const id of audienceIdsOf(r.audience_ids)) set?.add(id);
  }
  const names = new Map<string, string>();
  if (wanted.orgs.size > 0) {
    const orgs = await ctx.db
      .selectFrom('sys_org')
      .select(['id', 'name'])
      .where('id', 'in', [...wanted.orgs])
      .execute();
    for (const o of orgs) names.set(`${NOTICE_AUDIENCE.orgs}:${o.id}`, o.name);
  }
  if (wanted.roles.size > 0) {
    const roles = await ctx.db
      .selectFrom('sys_role')
      .select(['id', 'name'])
      .where('id', 'in', [...wanted.roles])
      .execute();
    for (const o of roles) names.set(`${NOTICE_AUDIENCE.roles}:${o.id}`, o.name);
  }
  if (wanted.users.size > 0) {
    const users = await ctx.db
      .selectFrom('sys_user')
      .select(['id', 'real_name'])
      .where('id', 'in', [...wanted.users])
      .execute();
    for (const o of users) names.set(`${NOTICE_AUDIENCE.users}:${o.id}`, o.real_name);
  }
  const counts = new Map<number, [number, number]>();
  const published = rows.filter((r) => r.public_time !== null).map((r) => r.id);
  if (published.length > 0) {
    const stats = await ctx.db
      .selectFrom('sys_notice_user')
      .select((eb) => [
        'notice_id',
        eb.fn.countAll().as('total'),
        eb.fn.sum(eb.case().when('read_status', '=', NOTICE_READ.read).then(1).else(0).end()).as('read'),
      ])
      .where('notice_id', 'in', published)
      .groupBy('notice_id')
      .execute();
    for (const s of stats) counts.set(s.notice_id, [Number(s.total), Number(s.read ?? 0)]);
  }
  return rows.map((r) => rowOf(r, names, counts));
}

/** `page`: the caller's notices (tenant and data scope), newest first unless sorted. */
export async function noticePage(
  ctx: AppContext,
  user: AuthUser,
  input: NoticePageInput & { page: number; pageSize: number; descStr: string },
): Promise<PageResult<NoticeRow>> {
  const query = applyFilters(
    await visibleNotices(ctx, ctx.db, user),
    PAGE_FILTERS,
    input as Record<string, unknown>,
    ctx.dialect,
  );
  const result = await paged(query.selectAll(), input, { sortable: PAGE_SORTABLE, defaultOrder: 'id' });
  return { ...result, items: await decorate(ctx, result.items as NoticeRecord[]) };
}

/** `detail`: one notice with its body. */
export async function noticeDetail(ctx: AppContext, user: AuthUser, id: number): Promise<NoticeDetail> {
  const row = await visibleNotice(ctx, ctx.db, user, id);
  const [item] = await decorate(ctx, [row]);
  return { ...(item as NoticeRow), content: row.content };
}

/** Live, enabled users of the tenant whom the audience names, nothing selected yet. */
function recipients(db: Db, notice: Pick<NoticeRecord, 'tenant_id' | 'audience' | 'audience_ids'>) {
  const tenantId = notice.tenant_id;
  const ids = audienceIdsOf(notice.audience_ids);
  let query = db
    .selectFrom('sys_user as u')
    .where('u.tenant_id', '=', tenantId)
    .where('u.is_delete', '=', 0)
    .where('u.status', '=', STATUS.enabled);
  if (notice.audience === NOTICE_AUDIENCE.all) return query;
  // Nobody, when the ids are gone (an audience is checked on save and at publishing; this is the last guard).
  if (ids.length === 0) return query.where(sql<boolean>`1 = 0`);
  if (notice.audience === NOTICE_AUDIENCE.orgs) {
    // Each org with its subtree: an org's full_ids is its ancestors' ids and its own, joined by commas.
    const subtree = db
      .selectFrom('sys_org as o')
      .innerJoin('sys_org as r', (join) =>
        join.on((eb) =>
          eb.or([
            eb('o.id', '=', eb.ref('r.id')),
            eb('o.full_ids', 'like', sql<string>`${sql.ref('r.full_ids')} || ${`${ORG_PATH_SEPARATOR}%`}`),
          ]),
        ),
      )
      .select('o.id')
      .where('r.id', 'in', ids)
      .where('r.tenant_id', '=', tenantId)
      .where('o.tenant_id', '=', tenantId)
      .where('o.is_delete', '=', 0);
    const extra = db.selectFrom('sys_user_ext_org as x').select('x.user_id').where('x.org_id', 'in', subtree);
    query = query.where((eb) => eb.or([eb('u.org_id', 'in', subtree), eb('u.id', 'in', extra)]));
  } else if (notice.audience === NOTICE_AUDIENCE.roles) {
    const members = db
      .selectFrom('sys_user_role as ur')
      .innerJoin('sys_role as ro', 'ro.id', 'ur.role_id')
      .select('ur.user_id')
      .where('ur.role_id', 'in', ids)
      .where('ro.tenant_id', '=', tenantId)
      .where('ro.is_delete', '=', 0);
    query = query.where('u.id', 'in', members);
  } else {
    query = query.where('u.id', 'in', ids);
  }
  return query;
}

// Inbox row ids. The platform's ids are 41 bits of milliseconds, 5 of worker and 7 of sequence; an INSERT …
// SELECT numbers its rows in SQL, so each batch reserves whole milliseconds of this worker's sequence space
// for sys_notice_user alone (ahead of the generator's clock, never twice in a process). Other tables may
// reuse those ids; this table's never repeat.
const SEQUENCE_SPAN = 128;
const MS_FACTOR = 4096;
const reserved = new WeakMap<object, number>();

function reserveInboxIds(ctx: AppContext, count: number): { firstMs: number; worker: number } {
  const probe = ctx.newId();
  const ms = Math.floor(probe / MS_FACTOR);
  const worker = (Math.floor(probe / SEQUENCE_SPAN) % 32) * SEQUENCE_SPAN;
  const firstMs = Math.max(ms + 1, (reserved.get(ctx.cache) ?? 0) + 1);
  reserved.set(ctx.cache, firstMs + Math.ceil(count / SEQUENCE_SPAN) - 1);
  return { firstMs, worker };
}

/**
 * Writes one unread inbox row per recipient, replacing the notice's earlier rows (a notice published again
 * after a withdrawal starts unread). Set-based: each batch is one INSERT … SELECT of the next recipients by
 * user id. Answers the number of rows.
 */
async function materialiseInbox(
  ctx: AppContext,
  trx: Transaction<Database>,
  notice: NoticeRecord,
  now: string,
): Promise<number> {
  await trx.deleteFrom('sys_notice_user').where('notice_id', '=', notice.id).execute();
  const time = ctx.dialect === 'postgres' ? sql`cast(${now} as timestamp)` : sql`${now}`;
  let cursor = 0;
  let total = 0;
  for (;;) {
    const { firstMs, worker } = reserveInboxIds(ctx, INBOX_BATCH);
    const batch = recipients(trx, notice)
      .select(['u.id', sql<number>`row_number() over (order by ${sql.ref('u.id')}) - 1`.as('rn')])
      .where('u.id', '>', cursor)
      .orderBy('u.id')
      .limit(INBOX_BATCH);
    const result = await trx
      .insertInto('sys_notice_user')
      .columns(['id', 'notice_id', 'user_id', 'tenant_id', 'read_status', 'create_time'])
      .expression(
        trx
          .selectFrom(batch.as('r'))
          .select([
            sql<number>`(cast(${sql.lit(firstMs)} as bigint) + r.rn / ${sql.lit(SEQUENCE_SPAN)}) * ${sql.lit(MS_FACTOR)} + ${sql.lit(worker)} + r.rn % ${sql.lit(SEQUENCE_SPAN)}`.as(
              'id',
            ),
            sql<number>`cast(${notice.id} as bigint)`.as('notice_id'),
            'r.id as user_id',
            sql<number>`cast(${notice.tenant_id} as bigint)`.as('tenant_id'),
            sql<number>`${sql.lit(NOTICE_READ.unread)}`.as('read_status'),
            time.as('create_time'),
          ]),
      )
      .executeTakeFirst();
    const inserted = Number(result.numInsertedOrUpdatedRows ?? 0);
    total += inserted;
    if (inserted < INBOX_BATCH) return total;
    const last = await trx
      .selectFrom('sys_notice_user')
      .select((eb) => eb.fn.max('user_id').as('last'))
      .where('notice_id', '=', notice.id)
      .executeTakeFirst();
    cursor = Number(last?.last ?? 0);
  }
}

/** Tells the recipients' browsers (after the commit): `notice` per user, or the tenant's room for everyone. */
async function announce(ctx: AppContext, notice: NoticeRecord): Promise<void> {
  const payload: NoticeEventPayload = {
    id: notice.id,
    title: notice.title,
    type: notice.type,
    publicTime: notice.public_time ?? formatDateTime(),
    publicUserName: notice.public_user_name,
  };
  await tellRecipients(ctx, notice, REALTIME_EVENTS.notice, payload);
}

async function tellRecipients(
  ctx: AppContext,
  notice: NoticeRecord,
  event: string,
  payload: NoticeEventPayload | NoticeWithdrawnPayload,
): Promise<void> {
  if (notice.audience === NOTICE_AUDIENCE.all) {
    emitToTenant(ctx, notice.tenant_id, event, payload);
    return;
  }
  const rows = await ctx.db
    .selectFrom('sys_notice_user')
    .select('user_id')
    .where('notice_id', '=', notice.id)
    .execute();
  for (let i = 0; i < rows.length; i++) {
    emitToUser(ctx, (rows[i] as { user_id: number }).user_id, event, payload);
    if ((i + 1) % EMIT_CHUNK === 0) await new Promise((resolve) => setImmediate(resolve));
  }
}

function announceLater(ctx: AppContext, notice: NoticeRecord, event: 'notice' | 'withdrawn'): void {
  const run =
    event === 'notice'
      ? announce(ctx, notice)
      : tellRecipients(ctx, notice, REALTIME_EVENTS.noticeWithdrawn, { id: notice.id });
  run.catch((error: unknown) => ctx.log.warn({ err: error, noticeId: notice.id }, 'notice push failed'));
}

/** Publishes a claimed notice inside `trx`: stamps the time, writes the inbox. */
async function publishIn(
  ctx: AppContext,
  trx: Transaction<Database>,
  id: number,
  now: string,
  publisher: Partial<NoticeRecord>,
): Promise<NoticeRecord> {
  await trx
    .updateTable('sys_notice')
    .set({ ...publisher, status: NOTICE_STATUS.published, public_time: now, cancel_time: null })
    .where('id', '=', id)
    .execute();
  const notice = await trx
    .selectFrom('sys_notice')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  await materialiseInbox(ctx, trx, notice, now);
  return notice;
}

/**
 * `POST /public`: publishes now (inbox rows for every recipient, realtime push), or schedules it for
 * `publishAt` (D7002 unless ahead). D7004 when already published; D7003 / D1002 for an empty or stale audience.
 */
export async function publishNotice(
  ctx: AppContext,
  user: AuthUser,
  id: number,
  publishAt: string | null | undefined,
): Promise<void> {
  const now = new Date();
  const stamp = formatDateTime(now);
  const published = await ctx.db.transaction().execute(async (trx) => {
    const row = await visibleNotice(ctx, trx, user, id);
    if (row.status === NOTICE_STATUS.published) throw new AppError('D7004');
    await checkAudience(trx, row.tenant_id, row.audience, audienceIdsOf(row.audience_ids));
    const publisher = {
      public_user_id: user.userId,
      public_user_name: user.realName,
      public_org_id: user.orgId || null,
      public_org_name: user.orgName || null,
      update_time: stamp,
      update_user_id: user.userId,
      update_user_name: user.realName,
    };
    if (publishAt) {
      const at = parseDateTime(publishAt);
      if (at.getTime() <= now.getTime()) throw new AppError('D7002');
      await trx
        .updateTable('sys_notice')
        .set({
          ...publisher,
          status: NOTICE_STATUS.scheduled,
          publish_at: formatDateTime(at),
          cancel_time: null,
        })
        .where('id', '=', id)
        .execute();
      return null;
    }
    return publishIn(ctx, trx, id, stamp, { ...publisher, publish_at: null });
  });
  if (published) announceLater(ctx, published, 'notice');
}

/** `POST /withdraw`: a published (or scheduled) notice leaves every inbox; D7001 otherwise. */
export async function withdrawNotice(ctx: AppContext, user: AuthUser, id: number): Promise<void> {
  const stamp = formatDateTime();
  const was = await ctx.db.transaction().execute(async (trx) => {
    const row = await visibleNotice(ctx, trx, user, id);
    if (row.status !== NOTICE_STATUS.published && row.status !== NOTICE_STATUS.scheduled) {
      throw new AppError('D7001');
    }
    await trx
      .updateTable('sys_notice')
      .set({
        status: NOTICE_STATUS.withdrawn,
        cancel_time: stamp,
        update_time: stamp,
        update_user_id: user.userId,
        update_user_name: user.realName,
      })
      .where('id', '=', id)
      .execute();
    return row;
  });
  if (was.status === NOTICE_STATUS.published) announceLater(ctx, was, 'withdrawn');
}

/**
 * Publishes every scheduled notice whose time has come, in every tenant; answers how many. Each notice is
 * claimed by a conditional update (still scheduled → published) in the transaction that writes its inbox,
 * so processes running this at the same time publish each notice once.
 */
export async function publishDueNotices(ctx: AppContext, now: Date = new Date()): Promise<number> {
  const due = await ctx.db
    .selectFrom('sys_notice')
    .select('id')
    .where('status', '=', NOTICE_STATUS.scheduled)
    .where('is_delete', '=', 0)
    .where('publish_at', '<=', formatDateTime(now))
    .orderBy('publish_at')
    .orderBy('id')
    .execute();
  let count = 0;
  for (const { id } of due) {
    try {
      const stamp = formatDateTime(now);
      const notice = await ctx.db.transaction().execute(async (trx) => {
        const claim = await trx
          .updateTable('sys_notice')
          .set({ status: NOTICE_STATUS.published })
          .where('id', '=', id)
          .where('status', '=', NOTICE_STATUS.scheduled)
          .where('is_delete', '=', 0)
          .executeTakeFirst();
        if (Number(claim.numUpdatedRows) !== 1) return null;
        return publishIn(ctx, trx, id, stamp, {});
      });
      if (notice) {
        count += 1;
        announceLater(ctx, notice, 'notice');
      }
    } catch (error) {
      // One notice failing (its audience gone bad) must not hold up the others; the next run tries again.
      ctx.log.error({ err: error, noticeId: id }, 'scheduled notice could not be published');
    }
  }
  return count;
}

// The inbox: the caller's own rows of published, live notices.
function inbox(db: Db, user: AuthUser) {
  return db
    .selectFrom('sys_notice_user as nu')
    .innerJoin('sys_notice as n', 'n.id', 'nu.notice_id')
    .where('nu.user_id', '=', user.userId)
    .where('nu.tenant_id', '=', user.tenantId)
    .where('n.status', '=', NOTICE_STATUS.published)
    .where('n.is_delete', '=', 0);
}

const INBOX_COLUMNS = [
  'n.id',
  'n.title',
  'n.type',
  'n.public_time',
  'n.public_user_name',
  'n.public_org_name',
  'nu.read_status',
  'nu.read_time',
] as const;

type InboxRow = {
  id: number;
  title: string;
  type: number;
  public_time: string | null;
  public_user_name: string | null;
  public_org_name: string | null;
  read_status: number;
  read_time: string | null;
};

const received = (r: InboxRow): ReceivedNotice => ({
  id: r.id,
  title: r.title,
  type: r.type,
  publicTime: r.public_time,
  publicUserName: r.public_user_name,
  publicOrgName: r.public_org_name,
  readStatus: r.read_status,
  readTime: r.read_time,
});

const INBOX_FILTERS: Record<string, FilterRule<string>> = {
  title: { like: 'n.title' },
  type: { eq: 'n.type' },
  readStatus: { eq: 'nu.read_status' },
};

/** `pageReceived`: the caller's inbox, newest first. */
export async function receivedPage(
  ctx: AppContext,
  user: AuthUser,
  input: ReceivedPageInput & { page: number; pageSize: number; descStr: string },
): Promise<PageResult<ReceivedNotice>> {
  const query = applyFilters(
    inbox(ctx.db, user),
    INBOX_FILTERS,
    input as Record<string, unknown>,
    ctx.dialect,
  )
    .select([...INBOX_COLUMNS])
    .orderBy('n.public_time', 'desc');
  return paged(
    query,
    { ...input, field: null, order: null },
    {
      sortable: {},
      defaultOrder: 'n.id',
      map: (r) => received(r as InboxRow),
    },
  );
}

/** `unReadList`: the unread count and the newest unread notices. */
export async function unreadList(ctx: AppContext, user: AuthUser): Promise<UnreadList> {
  const unread = inbox(ctx.db, user).where('nu.read_status', '=', NOTICE_READ.unread);
  const countRow = await unread.select((eb) => eb.fn.countAll().as('count')).executeTakeFirst();
  const rows = await unread
    .select([...INBOX_COLUMNS])
    .orderBy('n.public_time', 'desc')
    .orderBy('n.id', 'desc')
    .limit(UNREAD_LIST_SIZE)
    .execute();
  return { count: Number(countRow?.count ?? 0), items: rows.map((r) => received(r as InboxRow)) };
}

async function markRead(db: Db, user: AuthUser, ids: number[] | null): Promise<number> {
  let query = db
    .updateTable('sys_notice_user')
    .set({ read_status: NOTICE_READ.read, read_time: formatDateTime() })
    .where('user_id', '=', user.userId)
    .where('tenant_id', '=', user.tenantId)
    .where('read_status', '=', NOTICE_READ.unread);
  if (ids) query = query.where('notice_id', 'in', ids);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** `setRead`: one received notice is read (D1002 unless it is in the caller's inbox). */
export async function setRead(ctx: AppContext, user: AuthUser, id: number): Promise<void> {
  const row = await inbox(ctx.db, user).select('n.id').where('n.id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('D1002');
  await markRead(ctx.db, user, [id]);
}

/** `setAllRead`: every received notice is read. */
export async function setAllRead(ctx: AppContext, user: AuthUser): Promise<void> {
  await markRead(ctx.db, user, null);
}

/** `received?id=`: one received notice with its body; reading it marks it read. */
export async function receivedDetail(
  ctx: AppContext,
  user: AuthUser,
  id: number,
): Promise<ReceivedNoticeDetail> {
  const row = await inbox(ctx.db, user)
    .select([...INBOX_COLUMNS, 'n.content'])
    .where('n.id', '=', id)
    .executeTakeFirst();
  if (!row) throw new AppError('D1002');
  let item = received(row as InboxRow);
  if (item.readStatus === NOTICE_READ.unread) {
    await markRead(ctx.db, user, [id]);
    item = { ...item, readStatus: NOTICE_READ.read, readTime: formatDateTime() };
  }
  return { ...item, content: row.content };
}

/**
 * Users a notice editor may address: live, enabled users of the tenant inside the editor's data scope,
 * by keyword (account, name) or by ids (labels of chosen ones). The editor needs no user-admin permission.
 */
export async function audienceUsers(
  ctx: AppContext,
  user: AuthUser,
  query: { keyword?: string; ids?: string },
): Promise<AudienceUser[]> {
  const view = await dataScopeOf(ctx, user);
  let q = ctx.db
    .selectFrom('sys_user as u')
    .leftJoin('sys_org as o', 'o.id', 'u.org_id')
    .select(['u.id', 'u.account', 'u.real_name', 'o.name as org_name'])
    .where('u.tenant_id', '=', user.tenantId)
    .where('u.is_delete', '=', 0)
    .where('u.status', '=', STATUS.enabled)
    .where('u.account_type', '!=', ACCOUNT_TYPE.superAdmin);
  q = whereInScope(q, view, 'u.org_id', 'u.id');
  const asked = (query.ids ?? '').split(',').filter(Boolean);
  // Labels of chosen users: digits beyond the safe integers name nobody, and never reach the database.
  const ids = asked
    .map(Number)
    .filter((id) => Number.isSafeInteger(id) && id > 0)
    .slice(0, AUDIENCE_PICK_LIMIT * 50);
  if (asked.length > 0 && ids.length === 0) return [];
  if (ids.length > 0) q = q.where('u.id', 'in', ids);
  else {
    q = applyFilters(
      q,
      { keyword: { like: ['u.account', 'u.real_name'] } },
      { keyword: query.keyword },
      ctx.dialect,
    ) as typeof q;
  }
  const rows = await q
    .orderBy('u.real_name')
    .orderBy('u.id')
    .limit(ids.length > 0 ? ids.length : AUDIENCE_PICK_LIMIT)
    .execute();
  return rows.map((r) => ({ id: r.id, account: r.account, realName: r.real_name, orgName: r.org_name }));
}

/** The tenant's enabled roles, for the role audience. */
export function audienceRoles(ctx: AppContext, user: AuthUser): Promise<AudienceRole[]> {
  return enabledRoleChoices(ctx, user.tenantId);
}
