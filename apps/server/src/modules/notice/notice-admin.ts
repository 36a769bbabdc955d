import type { PageResult } from '@shuzhi/contracts/envelope';
import {
  NOTICE_AUDIENCE,
  NOTICE_READ,
  type NoticeDetail,
  type NoticePageInput,
  type NoticeRow,
} from '@shuzhi/contracts/notice';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { applyFilters, type FilterRule } from '../../platform/crud/filters.ts';
import { paged } from '../../platform/http/paging.ts';
import { audienceIdsOf } from './notice-audience.ts';
import { type NoticeRecord, visibleNotice, visibleNotices } from './notice-store.ts';

/** The administrators' notice page and detail, with audience names and read counts. */

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
