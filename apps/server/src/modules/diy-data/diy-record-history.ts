import { type FormDesign, type RecordValues, valueFields } from '@shuzhi/contracts/diy-form';
import type { RecordHistory } from '@shuzhi/contracts/diy-table';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import type { Db } from '../../platform/db/db.ts';
import { findRow, type OpenForm, openForm, requireQuery } from './diy-data.service.ts';

/** The steps of a record (`diy_record_history`): what each write changed, and the record's history. */

export type Change = { field: string; label: string; before: unknown; after: unknown };

export function changesBetween(
  design: FormDesign,
  before: RecordValues | null,
  after: RecordValues,
): Change[] {
  const changes: Change[] = [];
  for (const field of valueFields(design)) {
    const b = before?.[field.id] ?? null;
    const a = after[field.id] ?? null;
    if (JSON.stringify(b) !== JSON.stringify(a)) {
      changes.push({ field: field.id, label: field.label, before: b, after: a });
    }
  }
  return changes;
}

export async function writeHistory(
  ctx: AppContext,
  db: Db,
  open: OpenForm,
  recordId: number,
  action: RecordHistory['action'],
  changes: Change[],
  version: number,
  now: string,
  comment: string | null = null,
  orgName: string | null = null,
): Promise<void> {
  await db
    .insertInto('diy_record_history')
    .values({
      id: ctx.newId(),
      tenant_id: open.form.tenant_id,
      table_id: open.form.id,
      record_id: recordId,
      action,
      changes: JSON.stringify(changes),
      comment,
      version,
      user_id: open.caller.user.userId,
      user_name: open.caller.user.realName,
      create_time: now,
      org_name: orgName,
    })
    .execute();
}

export async function recordHistory(
  ctx: AppContext,
  user: AuthUser,
  tableId: number,
  id: number,
): Promise<RecordHistory[]> {
  const open = await openForm(ctx, user, tableId);
  requireQuery(open);
  await findRow(ctx.db, open, id);
  const rows = await ctx.db
    .selectFrom('diy_record_history')
    .selectAll()
    .where('table_id', '=', open.form.id)
    .where('record_id', '=', id)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    action: r.action as RecordHistory['action'],
    changes: parseChanges(r.changes),
    comment: r.comment,
    userName: r.user_name,
    orgName: r.org_name,
    createTime: r.create_time,
    version: r.version,
  }));
}

function parseChanges(text: string): RecordHistory['changes'] {
  try {
    const value = JSON.parse(text);
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}
