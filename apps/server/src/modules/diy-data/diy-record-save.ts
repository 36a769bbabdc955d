import { type FormDesign, RECORD_STATUS, type RecordValues, valueFields } from '@shuzhi/contracts/diy-form';
import { type PeriodState, recordChangeable, submittedLate } from '@shuzhi/contracts/diy-period';
import { validateRecord } from '@shuzhi/contracts/diy-validate';
import type { Locale } from '@shuzhi/contracts/i18n';
import { sql } from 'kysely';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import type { Db } from '../../platform/db/db.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { type DataRow, fromRow, toColumnValues } from '../../platform/diy/data-table.ts';
import { insertRecord, recordsOf, updateRecords } from '../../platform/diy/dynamic-table.ts';
import { FieldErrorsError } from '../../platform/diy/field-errors.ts';
import { recordCan } from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import {
  assertFilable,
  type FilingPeriod,
  recordPeriodState,
  resolveFilingPeriod,
} from '../diy-period/diy-period.service.ts';
import { designOf, findRow, type OpenForm, openForm, recordFacts } from './diy-data.service.ts';
import { databaseErrors, dictOptionsOf, fieldErrorsOf } from './diy-record-checks.ts';
import { attachRecordFiles } from './diy-record-files.ts';
import { changesBetween, writeHistory } from './diy-record-history.ts';
import { nextDataNo, numberingOf } from './diy-record-numbering.ts';

/** Writing records: save (add or update, draft or submit), zero report, delete. */

export type SaveInput = {
  id?: number | undefined;
  /** Periodic forms, new records: the period (default: the current one). */
  periodId?: number | undefined;
  values: RecordValues;
  submit: boolean;
};

/**
 * One record per unit and period: `code` when `unit` (an org, or a user without one) already has another live
 * record in the period (the caller's own filing by default; a hand-over names the receiver and the record).
 */
export async function assertNotFiled(
  db: Db,
  open: OpenForm,
  periodId: number,
  unit: { orgId: number | null; userId: number } = {
    orgId: open.caller.orgId,
    userId: open.caller.user.userId,
  },
  except: { recordId: number; code: 'F1036' } | null = null,
): Promise<void> {
  let query = recordsOf(db, open.form.id)
    .select('id')
    .where('is_delete', '=', 0)
    .where('tenant_id', '=', open.form.tenant_id)
    .where('period_id', '=', periodId);
  if (except) query = query.where('id', '!=', except.recordId);
  query =
    unit.orgId !== null
      ? query.where('create_org_id', '=', unit.orgId)
      : query.where('create_user_id', '=', unit.userId);
  if (await query.limit(1).executeTakeFirst()) throw new AppError(except?.code ?? 'F1024');
}

/**
 * F1021 / F1022 / F1023 unless the record may change in its period: an open or grace period, or a returned
 * record until its period is closed (a return never leaves the filler unable to act).
 */
function assertChangeable(state: PeriodState, row: DataRow): void {
  if (!recordChangeable(state, row.status)) assertFilable(state);
}

/**
 * The period a write goes to and the version it is filed with: a new record takes `resolveFilingPeriod`'s
 * period (and that period's version, docs/periods.md); an existing record keeps its period, which must
 * still take changes (`assertChangeable`), and is saved with that period's version. A submission after the
 * due date (grace, or a returned record re-filed when overdue) is late.
 */
async function filingOf(
  ctx: AppContext,
  db: Db,
  open: OpenForm,
  row: DataRow | null,
  periodId: number | undefined,
  now: Date,
): Promise<FilingPeriod | null> {
  if (row === null) return resolveFilingPeriod(ctx, db, open.form, periodId, now);
  const found = await recordPeriodState(db, open.form, row.period_id, now);
  if (!found) return null;
  assertChangeable(found.state, row);
  return {
    id: found.period.id,
    name: found.period.name,
    start: found.period.start_date,
    version: found.period.version,
    late: submittedLate(found.state),
    onePerOrg: false,
  };
}

/** Takes the form's per-form turn on PostgreSQL (SQLite runs one write transaction at a time anyway). */
async function formTurn(ctx: AppContext, trx: Db, open: OpenForm): Promise<void> {
  if (ctx.dialect === 'postgres') await sql`select pg_advisory_xact_lock(${open.form.id})`.execute(trx);
}

/** A record write as `saveRecord` decided it: where it goes, what it holds, the state it is left in. */
type RecordWrite = {
  open: OpenForm;
  row: DataRow | null;
  previous: RecordValues | null;
  design: FormDesign;
  version: number;
  values: RecordValues;
  status: number;
  dataNo: string | null;
  submit: boolean;
  submitted: boolean;
  filing: FilingPeriod | null;
  now: string;
};

/**
 * Adds (`id` absent) or updates a record in one transaction. Drafts check the kinds of the values only;
 * submitting (or changing a record already submitted) checks every rule, unique values included. Field
 * problems come back as field errors keyed by path in the request's language; nothing is written then.
 * Records of periodic forms go through the period rules (docs/periods.md).
 */
export async function saveRecord(
  ctx: AppContext,
  user: AuthUser,
  tableId: number,
  input: SaveInput,
  locale: Locale,
  now: Date = new Date(),
): Promise<number> {
  return ctx.db.transaction().execute(async (trx) => {
    const open = await openForm(ctx, user, tableId, trx);
    const nowText = formatDateTime(now);
    let row: DataRow | null = null;
    let previous: RecordValues | null = null;
    if (input.id === undefined) {
      if (!open.auth.add) throw new AppError('F1001');
    } else {
      row = await findRow(trx, open, input.id);
      const can = recordCan(open.auth, open.caller, recordFacts(row));
      if (!can.update) throw new AppError(row.status === RECORD_STATUS.approved ? 'F1009' : 'F1001');
      previous = fromRow(await designOf(ctx, trx, open, row.version), open.columns, row);
    }
    const filing = await filingOf(ctx, trx, open, row, input.periodId, now);
    // A periodic record is filed with its period's version: a version published mid-period applies from the
    // next period.
    const version = filing ? filing.version : open.form.version;
    const design = await designOf(ctx, trx, open, version);
    const strict = input.submit || row?.status === RECORD_STATUS.submitted;
    if (row === null && filing?.onePerOrg) {
      // One record per unit and period: two simultaneous first filings of one org must not both pass.
      await formTurn(ctx, trx, open);
      await assertNotFiled(trx, open, filing.id);
    } else if (strict && valueFields(design).some((f) => f.unique !== 'none')) {
      // Two submissions of the same unique value must not both pass the check.
      await formTurn(ctx, trx, open);
    }
    const dicts = await dictOptionsOf(trx, design);
    const { values, errors } = validateRecord(design, input.values, {
      mode: strict ? 'submit' : 'draft',
      dictOptions: (code) => dicts.get(code),
    });
    const more = await databaseErrors(
      trx,
      open,
      design,
      version,
      values,
      previous,
      row?.id ?? null,
      strict,
      filing?.id ?? null,
    );
    const all = { ...more, ...errors };
    if (Object.keys(all).length > 0) throw new FieldErrorsError(fieldErrorsOf(design, all, locale));

    let dataNo = row?.data_no ?? null;
    const numbering = numberingOf(design);
    if (input.submit && dataNo === null && numbering) {
      dataNo = await nextDataNo(trx, ctx.newId, open.form.id, numbering, now);
    }
    for (const field of valueFields(design)) if (field.type === 'serialNo') values[field.id] = dataNo;

    const submitted = input.submit && row?.status !== RECORD_STATUS.submitted;
    const status = input.submit
      ? open.form.needs_review === 1
        ? RECORD_STATUS.submitted
        : RECORD_STATUS.approved
      : (row?.status ?? RECORD_STATUS.draft);
    const write: RecordWrite = {
      open,
      row,
      previous,
      design,
      version,
      values,
      status,
      dataNo,
      submit: input.submit,
      submitted,
      filing,
      now: nowText,
    };
    const id = await writeRecord(ctx, trx, user, write);
    if (submitted) {
      const statusChange = [{ field: 'status', label: '状态', before: row?.status ?? null, after: status }];
      await writeHistory(ctx, trx, open, id, 'submit', statusChange, version, nowText);
    }
    await attachRecordFiles(trx, open.form.tenant_id, open.form.id, id, design, values);
    await trx
      .updateTable('diy_table')
      .set((eb) => ({
        last_update_time: nowText,
        ...(row === null ? { record_count: eb('record_count', '+', 1) } : {}),
      }))
      .where('id', '=', open.form.id)
      .execute();
    return id;
  });
}

/** Inserts or updates the record's row with its `create` / `update` history step; answers the record's id. */
async function writeRecord(ctx: AppContext, trx: Db, user: AuthUser, write: RecordWrite): Promise<number> {
  const { open, row, design, version, values, status, dataNo, now } = write;
  // Submitted after the due date (the grace window, a reopening, a returned record re-filed): late.
  const late = write.submitted && write.filing?.late ? { late: 1 } : {};
  const columns = toColumnValues(design, open.columns, version, values);
  if (row === null) {
    const id = ctx.newId();
    await insertRecord(
      trx,
      open.form.id,
      {
        id,
        tenant_id: open.form.tenant_id,
        version,
        status,
        data_no: dataNo,
        submit_time: write.submit ? now : null,
        create_time: now,
        create_user_id: user.userId,
        create_user_name: user.realName,
        is_delete: 0,
        create_org_id: open.caller.orgId,
        create_org_name: open.caller.orgName,
        period_id: write.filing?.id ?? null,
        is_zero: 0,
        late: 0,
        ...late,
      },
      columns,
    ).execute();
    await writeHistory(ctx, trx, open, id, 'create', changesBetween(design, null, values), version, now);
    return id;
  }
  await updateRecords(
    trx,
    open.form.id,
    {
      version,
      status,
      data_no: dataNo,
      // A zero report that is edited becomes a real report.
      is_zero: 0,
      ...late,
      ...(write.submitted ? { submit_time: now } : {}),
      update_time: now,
      update_user_id: user.userId,
      update_user_name: user.realName,
    },
    columns,
  )
    .where('id', '=', row.id)
    .execute();
  const changes = changesBetween(design, write.previous, values);
  if (changes.length > 0) await writeHistory(ctx, trx, open, row.id, 'update', changes, version, now);
  return row.id;
}

/**
 * `POST /zeroReport`: "nothing to report" for the caller's org in a period: a record with no values, submitted
 * (approved when the form has no review), `is_zero = 1`, history `zero` with the comment. The same rights as
 * adding; F1024 when the org already filed in the period.
 */
export async function zeroReport(
  ctx: AppContext,
  user: AuthUser,
  tableId: number,
  input: { periodId: number; comment?: string | undefined },
  now: Date = new Date(),
): Promise<number> {
  return ctx.db.transaction().execute(async (trx) => {
    const open = await openForm(ctx, user, tableId, trx);
    if (!open.auth.add) throw new AppError('F1001');
    const filing = await resolveFilingPeriod(ctx, trx, open.form, input.periodId, now);
    if (!filing) throw new AppError('F1027');
    await formTurn(ctx, trx, open);
    await assertNotFiled(trx, open, filing.id);
    const nowText = formatDateTime(now);
    const status = open.form.needs_review === 1 ? RECORD_STATUS.submitted : RECORD_STATUS.approved;
    const id = ctx.newId();
    await insertRecord(trx, open.form.id, {
      id,
      tenant_id: open.form.tenant_id,
      version: filing.version,
      status,
      data_no: null,
      submit_time: nowText,
      create_time: nowText,
      create_user_id: user.userId,
      create_user_name: user.realName,
      is_delete: 0,
      create_org_id: open.caller.orgId,
      create_org_name: open.caller.orgName,
      period_id: filing.id,
      is_zero: 1,
      late: filing.late ? 1 : 0,
    }).execute();
    const statusChange = [{ field: 'status', label: '状态', before: null, after: status }];
    await writeHistory(
      ctx,
      trx,
      open,
      id,
      'zero',
      statusChange,
      filing.version,
      nowText,
      input.comment || null,
    );
    await trx
      .updateTable('diy_table')
      .set((eb) => ({ last_update_time: nowText, record_count: eb('record_count', '+', 1) }))
      .where('id', '=', open.form.id)
      .execute();
    return id;
  });
}

/** Soft-deletes records the caller may delete (all or none), writing a history step for each. */
export async function deleteRecords(
  ctx: AppContext,
  user: AuthUser,
  tableId: number,
  ids: readonly number[],
): Promise<void> {
  const wanted = [...new Set(ids)];
  await ctx.db.transaction().execute(async (trx) => {
    const open = await openForm(ctx, user, tableId, trx);
    const now = formatDateTime();
    for (const id of wanted) {
      const row = await findRow(trx, open, id);
      const can = recordCan(open.auth, open.caller, recordFacts(row));
      if (!can.delete) throw new AppError(row.status === RECORD_STATUS.approved ? 'F1009' : 'F1001');
      const period = await recordPeriodState(trx, open.form, row.period_id);
      if (period) assertChangeable(period.state, row);
      await updateRecords(trx, open.form.id, {
        is_delete: 1,
        delete_time: now,
        delete_user_name: user.realName,
        update_time: now,
        update_user_id: user.userId,
        update_user_name: user.realName,
      })
        .where('id', '=', id)
        .execute();
      await writeHistory(ctx, trx, open, id, 'delete', [], row.version, now);
    }
    await trx
      .updateTable('diy_table')
      .set((eb) => ({ last_update_time: now, record_count: eb('record_count', '-', wanted.length) }))
      .where('id', '=', open.form.id)
      .execute();
  });
}
