import type { PageResult } from '@shuzhi/contracts/envelope';
import {
  NOTICE_READ,
  NOTICE_STATUS,
  type ReceivedNotice,
  type ReceivedNoticeDetail,
  type ReceivedPageInput,
  UNREAD_LIST_SIZE,
  type UnreadList,
} from '@shuzhi/contracts/notice';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { applyFilters, type FilterRule } from '../../platform/crud/filters.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { paged } from '../../platform/http/paging.ts';
import type { Db } from './notice-store.ts';

/** The caller's inbox: received notices, the unread list, read marks. */

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

/** `unReadSummary`: the unread count and the newest unread notices (the web app's bell). */
export async function unreadSummary(ctx: AppContext, user: AuthUser): Promise<UnreadList> {
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

/**
 * `unReadList`: the newest unread notices with their bodies, as an array (what the family's clients read;
 * their bell shows title, type, a text excerpt of the body and the publish time). Reading nothing marks it read.
 */
export async function unreadItems(ctx: AppContext, user: AuthUser): Promise<ReceivedNoticeDetail[]> {
  const rows = await inbox(ctx.db, user)
    .where('nu.read_status', '=', NOTICE_READ.unread)
    .select([...INBOX_COLUMNS, 'n.content'])
    .orderBy('n.public_time', 'desc')
    .orderBy('n.id', 'desc')
    .limit(UNREAD_LIST_SIZE)
    .execute();
  return rows.map((r) => ({ ...received(r as InboxRow), content: r.content }));
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
