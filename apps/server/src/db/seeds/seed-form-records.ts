import {
  type FormDesign,
  numberingSchema,
  RECORD_STATUS,
  type RecordValues,
  valueFields,
} from '@shuzhi/contracts/diy-form';
import { defaultValues, validateRecord } from '@shuzhi/contracts/diy-validate';
import { nextDataNo } from '../../modules/diy-data/diy-record-numbering.ts';
import {
  addDays,
  calendarName,
  calendarPeriodAt,
  isCalendarKind,
  shiftPeriod,
} from '../../modules/diy-period/diy-period.service.ts';
import { atWallClock, formatDate, formatDateTime, wallClockAt } from '../../platform/db/time.ts';
import { type AnyDb, type DataColumn, dataTableName, toColumnValues } from '../../platform/diy/data-table.ts';
import type { FormLookups, SeedPerson } from './seed-forms.ts';
import { insertMany, SEED_USER, type SeedRun } from './seed-kit.ts';
import type { SeedForm, SeedFormPeriods, SeedFormRecord } from './types.ts';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

type SeededPeriod = { id: number; key: string; start: string; end: string };

/** A demo form just published, whose periods and records are seeded. */
export type PublishedForm = {
  tenantId: number;
  formId: number;
  form: SeedForm;
  design: FormDesign;
  columns: DataColumn[];
  /** The form's first reviewer, who reviews the demo records. */
  reviewer: SeedPerson | undefined;
};

/** One record as the seed files it, before its history. */
type FiledRecord = {
  recordId: number;
  filer: SeedPerson;
  values: RecordValues;
  status: number;
  filed: Date;
  submitted: Date;
  reviewed: Date;
};

/**
 * A new demo form's periods and records: values checked by `validateRecord` like a filer's, serial numbers
 * from the form's counter, history steps, and the review by the form's first reviewer.
 */
export async function seedFormRecords(run: SeedRun, lookups: FormLookups, published: PublishedForm) {
  const { trx, ctx, report } = run;
  const { tenantId, formId, form } = published;
  const what = `form ${form.title}`;
  const periods = form.periods ? await seedPeriods(run, tenantId, formId, form.periods) : [];
  const periodOf = (record: SeedFormRecord) => {
    if (record.periodsAgo === undefined) return null;
    const period = periods[record.periodsAgo];
    if (!period) throw new Error(`Seed ${what}: no period ${record.periodsAgo} back`);
    return period;
  };
  const history: Record<string, unknown>[] = [];
  for (const [index, record] of form.records.entries()) {
    const filed = await insertRecord(run, lookups, published, record, index, periodOf(record));
    history.push(...historyOf(ctx.newId, published, record, filed));
  }
  report.diy_data = (report.diy_data ?? 0) + form.records.length;
  await insertMany(trx, 'diy_record_history', history, report);
}

/** Resolves `{$org: code}` to the org's id and `{$period: true}` to the record's period key, at any depth. */
function resolve(lookups: FormLookups, value: unknown, what: string, periodKey?: string): unknown {
  if (Array.isArray(value)) return value.map((v) => resolve(lookups, v, what, periodKey));
  if (value && typeof value === 'object') {
    const code = (value as { $org?: unknown }).$org;
    if (typeof code === 'string') return lookups.orgId(code, what);
    if ((value as { $period?: unknown }).$period === true) {
      if (!periodKey) throw new Error(`Seed ${what}: $period in a record without a period`);
      return periodKey;
    }
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, resolve(lookups, v, what, periodKey)]),
    );
  }
  return value;
}

/** Inserts one demo record into the form's data table, as filed, submitted and reviewed. */
async function insertRecord(
  run: SeedRun,
  lookups: FormLookups,
  published: PublishedForm,
  record: SeedFormRecord,
  index: number,
  period: SeededPeriod | null,
): Promise<FiledRecord> {
  const { trx, ctx } = run;
  const { tenantId, formId, form, design, columns, reviewer } = published;
  const what = `form ${form.title}`;
  const filer = lookups.person(record.account, what);
  const strict = record.state !== 'draft';
  const filed = filedAt(record, period, index);
  const org = record.orgCode
    ? (lookups.orgNames.get(record.orgCode) ?? {
        id: lookups.orgId(record.orgCode, what),
        name: null,
        region_code: null,
      })
    : { id: filer.org_id, name: filer.org_name, region_code: filer.region_code };
  const filler = { orgId: org.id, regionCode: org.region_code, realName: filer.real_name, userId: filer.id };
  const raw = record.zero
    ? {}
    : {
        ...defaultValues(design, filler, wallClockAt(filed), period?.start),
        ...(resolve(lookups, record.values, what, period?.key) as RecordValues),
      };
  const { values, errors } = record.zero
    ? { values: {} as RecordValues, errors: {} }
    : validateRecord(design, raw, {
        mode: strict ? 'submit' : 'draft',
        dictOptions: (code) => lookups.dictOptions.get(code),
      });
  if (Object.keys(errors).length > 0)
    throw new Error(`Seed ${what}, record ${index + 1}: ${JSON.stringify(errors)}`);
  const submitted = new Date(filed.getTime() + 2 * HOUR_MS);
  const reviewed = new Date(Math.min(filed.getTime() + 26 * HOUR_MS, Date.now()));
  const numbering = design.numbering ? numberingSchema.parse(design.numbering) : null;
  const dataNo =
    strict && numbering && !record.zero
      ? await nextDataNo(trx, ctx.newId, formId, numbering, submitted)
      : null;
  for (const field of valueFields(design)) if (field.type === 'serialNo') values[field.id] = dataNo;
  const reviewedState = record.state === 'approved' || record.state === 'returned';
  if (reviewedState && !reviewer) throw new Error(`Seed ${what}: a reviewed record needs a reviewer`);
  const status = {
    draft: RECORD_STATUS.draft,
    submitted: RECORD_STATUS.submitted,
    approved: RECORD_STATUS.approved,
    returned: RECORD_STATUS.returned,
  }[record.state];
  const recordId = ctx.newId();
  const at = (d: Date) => formatDateTime(d);
  await (trx as AnyDb)
    .insertInto(dataTableName(formId))
    .values({
      ...toColumnValues(design, columns, 1, values),
      id: recordId,
      tenant_id: tenantId,
      version: 1,
      status,
      data_no: dataNo,
      submit_time: strict ? at(submitted) : null,
      audit_user_id: reviewedState ? reviewer?.id : null,
      audit_user_name: reviewedState ? reviewer?.real_name : null,
      audit_time: reviewedState ? at(reviewed) : null,
      audit_comment: record.state === 'returned' ? (record.comment ?? null) : null,
      create_time: at(filed),
      // Reviews set the audit columns only, like the review route.
      update_time: strict ? at(submitted) : null,
      create_user_id: filer.id,
      create_user_name: filer.real_name,
      update_user_id: strict ? filer.id : null,
      update_user_name: strict ? filer.real_name : null,
      is_delete: 0,
      create_org_id: org.id,
      create_org_name: org.name,
      delete_time: null,
      delete_user_name: null,
      period_id: period?.id ?? null,
      is_zero: record.zero ? 1 : 0,
      late: 0,
    })
    .execute();
  return { recordId, filer, values, status, filed, submitted, reviewed };
}

/** The history steps of a demo record: created (or reported zero), submitted, approved or returned. */
function historyOf(
  newId: () => number,
  published: PublishedForm,
  record: SeedFormRecord,
  filed: FiledRecord,
): Record<string, unknown>[] {
  const { tenantId, formId, design, reviewer } = published;
  const { recordId, filer, values, status } = filed;
  const history: Record<string, unknown>[] = [];
  const step = (
    action: string,
    who: { id: number; real_name: string },
    when: Date,
    changes: unknown[],
    comment: string | null = null,
  ) =>
    history.push({
      id: newId(),
      tenant_id: tenantId,
      table_id: formId,
      record_id: recordId,
      action,
      changes: JSON.stringify(changes),
      comment,
      version: 1,
      user_id: who.id,
      user_name: who.real_name,
      create_time: formatDateTime(when),
    });
  if (record.zero) {
    step('zero', filer, filed.submitted, [{ field: 'status', label: '状态', before: null, after: 1 }]);
  } else {
    step(
      'create',
      filer,
      filed.filed,
      valueFields(design)
        .filter((f) => (values[f.id] ?? null) !== null)
        .map((f) => ({ field: f.id, label: f.label, before: null, after: values[f.id] })),
    );
  }
  if (record.state !== 'draft' && !record.zero) {
    step('submit', filer, filed.submitted, [{ field: 'status', label: '状态', before: null, after: 1 }]);
  }
  if ((record.state === 'approved' || record.state === 'returned') && reviewer) {
    step(
      record.state === 'approved' ? 'approve' : 'return',
      reviewer,
      filed.reviewed,
      [{ field: 'status', label: '状态', before: RECORD_STATUS.submitted, after: status }],
      record.state === 'returned' ? (record.comment ?? null) : null,
    );
  }
  return history;
}

/**
 * The periods of a periodic demo form: the current calendar period and `back` before it (the oldest `closed`
 * of them closed by the seed), each with its `create` (and `close`) log step. Index 0 is the current period.
 */
async function seedPeriods(
  run: SeedRun,
  tenantId: number,
  tableId: number,
  spec: SeedFormPeriods,
): Promise<SeededPeriod[]> {
  const { trx, ctx, report } = run;
  const { kind, dueDays, graceDays } = spec.settings;
  if (!isCalendarKind(kind)) throw new Error(`Seed periods: ${kind} is not a calendar kind`);
  const now = new Date();
  const stamp = formatDateTime(now);
  const current = calendarPeriodAt(kind, formatDate(now));
  const out: SeededPeriod[] = [];
  const logs: Record<string, unknown>[] = [];
  const rows: Record<string, unknown>[] = [];
  for (let back = 0; back <= spec.back; back += 1) {
    const p = shiftPeriod(kind, current, -back);
    const id = ctx.newId();
    const due = addDays(p.end, dueDays);
    const closed = back > spec.back - spec.closed;
    rows.push({
      id,
      tenant_id: tenantId,
      table_id: tableId,
      period_key: p.key,
      name: calendarName(kind, p.year, p.index, 'zh-CN'),
      start_date: p.start,
      end_date: p.end,
      due_date: due,
      grace_until: graceDays > 0 ? addDays(due, graceDays) : null,
      reopen_until: null,
      version: 1,
      closed: closed ? 1 : 0,
      close_time: closed ? stamp : null,
      close_user_name: closed ? SEED_USER.name : null,
      create_time: stamp,
      create_user_id: null,
      create_user_name: SEED_USER.name,
      update_time: null,
    });
    const log = (action: string) =>
      logs.push({
        id: ctx.newId(),
        tenant_id: tenantId,
        table_id: tableId,
        period_id: id,
        action,
        comment: null,
        changes: '[]',
        user_id: null,
        user_name: SEED_USER.name,
        create_time: stamp,
      });
    log('create');
    if (closed) log('close');
    out.push({ id, key: p.key, start: p.start, end: p.end });
  }
  await insertMany(trx, 'diy_table_period', rows, report);
  await insertMany(trx, 'diy_table_period_log', logs, report);
  return out;
}

/**
 * When a demo record was filed: a record of a past period a few days after the period ended (before its due
 * date), one of the current period `daysAgo` days ago but not before the period began; otherwise `daysAgo`.
 */
function filedAt(record: SeedFormRecord, period: SeededPeriod | null, index: number): Date {
  const now = Date.now();
  const minutes = (index + 1) * 60_000;
  if (!period) return new Date(now - record.daysAgo * DAY_MS - minutes);
  const [y, m, d] = period.end.split('-').map(Number) as [number, number, number];
  if (record.periodsAgo && record.periodsAgo > 0) {
    return new Date(
      Math.min(
        atWallClock({
          year: y,
          month: m,
          day: d + 1 + (index % 4),
          hour: 9,
          minute: 0,
          second: 0,
        }).getTime() + minutes,
        now - DAY_MS,
      ),
    );
  }
  const [sy, sm, sd] = period.start.split('-').map(Number) as [number, number, number];
  return new Date(
    Math.max(
      now - record.daysAgo * DAY_MS - minutes,
      atWallClock({ year: sy, month: sm, day: sd, hour: 8, minute: 0, second: 0 }).getTime(),
    ),
  );
}
