import { STATUS } from '@shuzhi/contracts/envelope';
import { NOTICE_AUDIENCE, NOTICE_READ } from '@shuzhi/contracts/notice';
import { ORG_PATH_SEPARATOR } from '@shuzhi/contracts/org';
import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AppContext } from '../../platform/context.ts';
import { audienceIdsOf } from './notice-audience.ts';
import type { Db, NoticeRecord } from './notice-store.ts';

/** Delivery of a published notice: its recipients, their inbox rows (written in SQL, in batches). */

/** Inbox rows written per INSERT … SELECT. */
const INBOX_BATCH = 5_000;

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
export async function materialiseInbox(
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
