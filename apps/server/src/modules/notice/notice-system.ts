import { STATUS } from '@shuzhi/contracts/envelope';
import { NOTICE_AUDIENCE, NOTICE_STATUS } from '@shuzhi/contracts/notice';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { materialiseInbox } from './notice-delivery.ts';
import type { NoticeRecord } from './notice-store.ts';

/** Notice type 通知 (1); 公告 is 2. */
const NOTICE_TYPE_NOTICE = 1;

export type OrgNotice = { tenantId: number; title: string; content: string; orgIds: readonly number[] };

/**
 * A notice other modules send on a user's behalf (a task handed out): published at once, inside the caller's
 * transaction, to the live, enabled users whose org (or extra org) is one of `orgIds` — those units alone,
 * not the units below them. Null when nobody is there to tell. The caller announces the answer after its
 * commit (`announcePublished`).
 */
export async function publishToOrgUsers(
  ctx: AppContext,
  trx: Transaction<Database>,
  sender: NoticeSender,
  notice: OrgNotice,
  now: string,
): Promise<NoticeRecord | null> {
  if (notice.orgIds.length === 0) return null;
  const userIds = new Set<number>();
  const orgIds = [...new Set(notice.orgIds)];
  // Chunks keep the IN lists within every driver's bound parameters.
  for (let i = 0; i < orgIds.length; i += 1000) {
    const chunk = orgIds.slice(i, i + 1000);
    const rows = await trx
      .selectFrom('sys_user as u')
      .select('u.id')
      .where('u.tenant_id', '=', notice.tenantId)
      .where('u.is_delete', '=', 0)
      .where('u.status', '=', STATUS.enabled)
      .where((eb) =>
        eb.or([
          eb('u.org_id', 'in', chunk),
          eb(
            'u.id',
            'in',
            eb.selectFrom('sys_user_ext_org as x').select('x.user_id').where('x.org_id', 'in', chunk),
          ),
        ]),
      )
      .execute();
    for (const r of rows) userIds.add(r.id);
  }
  return publishToUsers(ctx, trx, sender, { ...notice, userIds: [...userIds] }, now);
}

/** Who a system notice names as its publisher: a signed-in user, or the maker of what it is about. */
export type NoticeSender = Pick<AuthUser, 'userId' | 'realName' | 'orgId' | 'orgName'>;

export type UserNotice = { tenantId: number; title: string; content: string; userIds: readonly number[] };

/** Like `publishToOrgUsers`, to the users named (a reminder to a unit's fillers and leaders). */
export async function publishToUsers(
  ctx: AppContext,
  trx: Transaction<Database>,
  sender: NoticeSender,
  notice: UserNotice,
  now: string,
): Promise<NoticeRecord | null> {
  const userIds = new Set(notice.userIds);
  if (userIds.size === 0) return null;
  const id = ctx.newId();
  await trx
    .insertInto('sys_notice')
    .values({
      id,
      tenant_id: notice.tenantId,
      title: notice.title,
      content: notice.content,
      type: NOTICE_TYPE_NOTICE,
      status: NOTICE_STATUS.published,
      audience: NOTICE_AUDIENCE.users,
      audience_ids: JSON.stringify([...userIds].sort((a, b) => a - b)),
      publish_at: null,
      public_time: now,
      public_user_id: sender.userId,
      public_user_name: sender.realName,
      public_org_id: sender.orgId || null,
      public_org_name: sender.orgName || null,
      cancel_time: null,
      create_org_id: sender.orgId || null,
      create_org_name: sender.orgName || null,
      create_time: now,
      update_time: null,
      create_user_id: sender.userId,
      create_user_name: sender.realName,
      update_user_id: null,
      update_user_name: null,
      is_delete: 0,
    })
    .execute();
  const row = await trx.selectFrom('sys_notice').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  await materialiseInbox(ctx, trx, row, now);
  return row;
}
