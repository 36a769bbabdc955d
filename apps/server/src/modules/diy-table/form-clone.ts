import type { cloneInputSchema } from '@shuzhi/contracts/diy-table';
import type { Transaction } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../../db/schema.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { type AnyDb, copyDataTable, dataTableName } from '../../platform/diy/data-table.ts';
import { adminForm, parseDesign } from '../../platform/diy/form-access.ts';
import { EMPTY_DESIGN, versionDesign } from './form-version.ts';

/**
 * The periods of a form cloned with its records: copied as they are (dates, version, closed) with new ids,
 * each logged as made, and the copied records pointed at the copies.
 */
async function copyPeriods(
  ctx: AppContext,
  trx: Transaction<Database>,
  user: AuthUser,
  from: number,
  to: number,
  now: string,
): Promise<void> {
  const periods = await trx.selectFrom('diy_table_period').selectAll().where('table_id', '=', from).execute();
  for (const p of periods) {
    const id = ctx.newId();
    await trx
      .insertInto('diy_table_period')
      .values({
        ...p,
        id,
        table_id: to,
        create_time: now,
        create_user_id: user.userId,
        create_user_name: user.realName,
      })
      .execute();
    await trx
      .insertInto('diy_table_period_log')
      .values({
        id: ctx.newId(),
        tenant_id: p.tenant_id,
        table_id: to,
        period_id: id,
        action: 'create',
        comment: null,
        changes: '[]',
        user_id: user.userId,
        user_name: user.realName,
        create_time: now,
      })
      .execute();
    await (trx as unknown as AnyDb)
      .updateTable(dataTableName(to))
      .set({ period_id: id })
      .where('period_id', '=', p.id)
      .execute();
  }
}

/**
 * `POST /clone`: a new form with the source's settings (no password) and design as its draft; with records,
 * the copy gets the source's versions, columns and live records as they are.
 */
export async function cloneForm(
  ctx: AppContext,
  user: AuthUser,
  input: z.output<typeof cloneInputSchema>,
): Promise<number> {
  const id = ctx.newId();
  await ctx.db.transaction().execute(async (trx) => {
    const { form } = await adminForm(ctx, user, input.id, trx);
    const now = formatDateTime();
    const published = await versionDesign(ctx, trx, form.id, form.version);
    const draft = parseDesign(form.draft_design) ?? published ?? EMPTY_DESIGN;
    const withRecords = input.withRecords && form.version > 0;
    const org = await trx
      .selectFrom('sys_org')
      .select('name')
      .where('id', '=', user.orgId)
      .executeTakeFirst();
    await trx
      .insertInto('diy_table')
      .values({
        ...form,
        id,
        title: input.title ?? `${form.title} - 副本`.slice(0, 128),
        pwd_hash: null,
        draft_design: withRecords && !form.draft_design ? null : JSON.stringify(draft),
        draft_revision: 0,
        version: withRecords ? form.version : 0,
        record_count: withRecords ? form.record_count : 0,
        last_update_time: withRecords ? now : null,
        create_time: now,
        create_user_id: user.userId,
        create_user_name: user.realName,
        update_time: null,
        update_user_id: null,
        update_user_name: null,
        create_org_id: user.orgId || null,
        create_org_name: org?.name ?? null,
        delete_time: null,
        delete_user_name: null,
      })
      .execute();
    if (!withRecords) return;
    const versions = await trx
      .selectFrom('diy_table_version')
      .selectAll()
      .where('table_id', '=', form.id)
      .execute();
    for (const v of versions) {
      await trx
        .insertInto('diy_table_version')
        .values({ ...v, id: ctx.newId(), table_id: id })
        .execute();
    }
    await copyDataTable(trx, ctx.dialect, ctx.newId, form.id, id, now);
    await copyPeriods(ctx, trx, user, form.id, id, now);
    const seqs = await trx.selectFrom('diy_table_seq').selectAll().where('table_id', '=', form.id).execute();
    for (const s of seqs) {
      await trx
        .insertInto('diy_table_seq')
        .values({ ...s, id: ctx.newId(), table_id: id })
        .execute();
    }
  });
  return id;
}
