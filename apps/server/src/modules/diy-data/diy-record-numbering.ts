import { type FormDesign, type Numbering, numberingSchema, valueFields } from '@shuzhi/contracts/diy-form';
import { sql } from 'kysely';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import type { Db } from '../../platform/db/db.ts';
import { formatDateTime, wallClockAt } from '../../platform/db/time.ts';
import { columnFor } from '../../platform/diy/data-table.ts';
import { recordsOf, updateRecords } from '../../platform/diy/dynamic-table.ts';
import { recordCan } from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { designOf, findRow, openForm, recordFacts } from './diy-data.service.ts';
import { writeHistory } from './diy-record-history.ts';

/**
 * Serial numbers of records (`data_no`): the form's numbering, its per-period counters, and a number given
 * on demand (`POST /api/diyTable/tableDataNo/{id}`).
 */

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The counter's period: the date part of the number, on the product zone's calendar. */
export function periodKey(numbering: Numbering, now: Date): string {
  const wall = wallClockAt(now);
  const y = String(wall.year);
  const m = pad(wall.month);
  const d = pad(wall.day);
  switch (numbering.datePart) {
    case 'yyyy':
      return y;
    case 'yyyyMM':
      return `${y}${m}`;
    case 'yyyyMMdd':
      return `${y}${m}${d}`;
    default:
      return '';
  }
}

/** The form's numbering: its own, or the default when it has a serial-number field. */
export function numberingOf(design: FormDesign): Numbering | null {
  if (design.numbering) return design.numbering;
  return design.fields.some((f) => f.type === 'serialNo') ? numberingSchema.parse({}) : null;
}

/**
 * The next serial number of a form, in the record's transaction: the counter row of the period is created
 * or incremented in one statement, so concurrent submissions get distinct numbers and a rolled-back
 * submission gives its number back.
 */
export async function nextDataNo(
  db: Db,
  newId: () => number,
  tableId: number,
  numbering: Numbering,
  now: Date = new Date(),
): Promise<string> {
  const period = periodKey(numbering, now);
  const row = await db
    .insertInto('diy_table_seq')
    .values({ id: newId(), table_id: tableId, period_key: period, last_no: 1 })
    .onConflict((oc) =>
      oc.columns(['table_id', 'period_key']).doUpdateSet({ last_no: sql<number>`diy_table_seq.last_no + 1` }),
    )
    .returning('last_no')
    .executeTakeFirstOrThrow();
  return `${numbering.prefix}${period}${pad(Number(row.last_no), numbering.digits)}`;
}

/**
 * `POST /api/diyTable/tableDataNo/{id}`: gives a record without a serial number its number (the form's
 * numbering, or the default one), in one transaction with the counter, so numbers stay distinct and
 * gap-free; a record that has one answers it. The record's filler (while they may change it), a form admin
 * or a reviewer may ask.
 */
export async function recordDataNo(
  ctx: AppContext,
  user: AuthUser,
  tableId: number,
  recordId: number,
): Promise<{ dataNo: string }> {
  return ctx.db.transaction().execute(async (trx) => {
    const open = await openForm(ctx, user, tableId, trx);
    let row = await findRow(trx, open, recordId);
    const can = recordCan(open.auth, open.caller, recordFacts(row));
    if (!can.update && !open.auth.admin && !open.auth.audit) throw new AppError('F1001');
    if (row.data_no) return { dataNo: row.data_no };
    if (ctx.dialect === 'postgres') {
      // Two calls for the same record take turns; the second one then sees the first one's number.
      const locked = await recordsOf(trx, open.form.id)
        .select(['data_no'])
        .where('id', '=', recordId)
        .forUpdate()
        .executeTakeFirst();
      if (locked?.data_no) return { dataNo: locked.data_no };
      row = { ...row, data_no: locked?.data_no ?? null };
    }
    const now = new Date();
    const nowText = formatDateTime(now);
    const numbering = open.design.numbering ?? numberingSchema.parse({});
    const dataNo = await nextDataNo(trx, ctx.newId, open.form.id, numbering, now);
    const design = await designOf(ctx, trx, open, row.version);
    const serial: Record<string, string> = {};
    for (const field of valueFields(design)) {
      if (field.type !== 'serialNo') continue;
      const column = columnFor(open.columns, field.id, row.version);
      if (column) serial[column.columnName] = dataNo;
    }
    const result = await updateRecords(trx, open.form.id, { data_no: dataNo }, serial)
      .where('id', '=', recordId)
      .where('data_no', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw new AppError('F1008');
    const change = [{ field: 'dataNo', label: '编号', before: null, after: dataNo }];
    await writeHistory(ctx, trx, open, recordId, 'update', change, row.version, nowText);
    return { dataNo };
  });
}
