import { carriedField, type FormDesign, type RecordValues, valueFields } from '@shuzhi/contracts/diy-form';
import type { PrefillResult } from '@shuzhi/contracts/diy-period';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { type DataRow, fromRow } from '../../platform/diy/data-table.ts';
import { formTable, withDataTables } from '../../platform/diy/dynamic-table.ts';
import { parsePeriodSettings } from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { periodOfForm } from '../diy-period/diy-period.service.ts';
import { type PeriodSpan, shiftIntoPeriod } from '../diy-period/period-shift.ts';
import { designOf, openForm } from './diy-data.service.ts';

/**
 * The values a new record of period `to` takes from a record of period `from`: numbered, uploaded and computed
 * values left out, and fields whose default comes from the filer or the period (the new record's own default
 * applies: 填报人 is whoever files now); dates within the source period moved into the new one
 * (`shiftIntoPeriod`).
 */
function prefillValues(
  design: FormDesign,
  source: RecordValues,
  from: PeriodSpan,
  to: PeriodSpan,
): RecordValues {
  const out: RecordValues = {};
  for (const field of valueFields(design)) {
    if (!carriedField(field)) continue;
    const value = source[field.id];
    if (value === null || value === undefined) continue;
    if (field.type === 'subTable' && Array.isArray(value)) {
      const keep = (field.columns ?? []).filter(carriedField);
      out[field.id] = (value as RecordValues[]).map((r) =>
        Object.fromEntries(
          keep
            .filter((c) => r?.[c.id] !== undefined)
            .map((c) => [c.id, shiftIntoPeriod(c.type, r[c.id], from, to)]),
        ),
      );
    } else out[field.id] = shiftIntoPeriod(field.type, value, from, to);
  }
  return out;
}

/**
 * `GET /prefill?periodId=`: the newest live record (not a zero report) of the caller's org (or the caller,
 * without an org) in a period that started before this one, its values reduced to the fields of this
 * period's version that are carried (`carriedField`). Null when there is none.
 */
export async function prefill(
  ctx: AppContext,
  user: AuthUser,
  tableId: number,
  periodId: number,
): Promise<PrefillResult> {
  const open = await openForm(ctx, user, tableId);
  if (!open.auth.add) throw new AppError('F1001');
  if (parsePeriodSettings(open.form.period).kind === 'none') throw new AppError('F1027');
  const target = await periodOfForm(ctx.db, open.form, periodId);
  const earlier = ctx.db
    .selectFrom('diy_table_period')
    .select('id')
    .where('table_id', '=', open.form.id)
    .where('start_date', '<', target.start_date);
  let query = withDataTables(ctx.db)
    .selectFrom(`${formTable(open.form.id)} as r`)
    .innerJoin('diy_table_period as p', 'p.id', 'r.period_id')
    .selectAll('r')
    .select(['p.name as period_name', 'p.start_date as period_start', 'p.end_date as period_end'])
    .where('r.is_delete', '=', 0)
    .where('r.is_zero', '=', 0)
    .where('r.tenant_id', '=', open.form.tenant_id)
    .where('r.period_id', 'in', earlier);
  query =
    open.caller.orgId !== null
      ? query.where('r.create_org_id', '=', open.caller.orgId)
      : query.where('r.create_user_id', '=', user.userId);
  const row = await query
    .orderBy('p.start_date', 'desc')
    .orderBy('r.id', 'desc')
    .limit(1)
    .$castTo<DataRow & { period_name: string; period_start: string; period_end: string }>()
    .executeTakeFirst();
  if (!row) return null;
  const source = fromRow(await designOf(ctx, ctx.db, open, Number(row.version)), open.columns, row);
  return {
    fromRecordId: Number(row.id),
    fromPeriodName: row.period_name,
    values: prefillValues(
      await designOf(ctx, ctx.db, open, target.version),
      source,
      { start: row.period_start, end: row.period_end },
      { start: target.start_date, end: target.end_date },
    ),
  };
}
