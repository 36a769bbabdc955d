import {
  NOTICE_AUDIENCE,
  NOTICE_STATUS,
  type NoticeEventPayload,
  type NoticeWithdrawnPayload,
} from '@shuzhi/contracts/notice';
import { REALTIME_EVENTS } from '@shuzhi/contracts/realtime';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime, parseDateTime } from '../../platform/db/time.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { emitToTenant, emitToUser } from '../../platform/realtime/hub.ts';
import { audienceIdsOf, checkAudience } from './notice-audience.ts';
import { materialiseInbox } from './notice-delivery.ts';
import { type NoticeRecord, visibleNotice } from './notice-store.ts';

/** Publishing and withdrawing notices (now or when due), and telling the recipients at once. */

/** Realtime emits sent before yielding to the event loop (a large audience must not stall requests). */
const EMIT_CHUNK = 500;

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

/** Tells the recipients of a notice published inside another module's transaction, once it committed. */
export function announcePublished(ctx: AppContext, notice: NoticeRecord): void {
  announceLater(ctx, notice, 'notice');
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
