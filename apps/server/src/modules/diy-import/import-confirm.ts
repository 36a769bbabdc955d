import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { type FormDesign, RECORD_STATUS, type RecordValues, valueFields } from '@shuzhi/contracts/diy-form';
import type { ImportJob } from '@shuzhi/contracts/diy-import';
import type { Locale } from '@shuzhi/contracts/i18n';
import { sql, type Transaction } from 'kysely';
import type { Database, DiyImportJobTable } from '../../db/schema.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import {
  type AnyDb,
  columnFor,
  dataTableName,
  safeColumn,
  toColumnValues,
} from '../../platform/diy/data-table.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { businessMessage } from '../../platform/errors/messages.ts';
import { designOf, type OpenForm } from '../diy-data/diy-data.service.ts';
import { numberingOf, periodKey } from '../diy-data/diy-record-numbering.ts';
import {
  background,
  filingPeriod,
  jobView,
  openForImport,
  ownJob,
  type Period,
  parseSummary,
  type Summary,
  workDir,
  writing,
} from './diy-import.service.ts';
import { holdJob, releaseJob } from './import-lease.ts';
import { importText } from './import-values.ts';

/**
 * Confirming a checked import (docs/import.md "Confirm"): the job moves to `importing` with a conditional
 * update, then every staged record is written in one transaction in the background: the form and period
 * opened again, unique values re-checked batch by batch, serial numbers reserved at once, multi-row INSERTs.
 */

const pad = (n: number, width: number) => String(n).padStart(width, '0');

export async function confirmImport(
  ctx: AppContext,
  user: AuthUser,
  jobId: number,
  submit: boolean,
  locale: Locale,
): Promise<ImportJob> {
  const row = await ownJob(ctx, user, jobId);
  if (row.state !== 'checked') throw new AppError('F1034');
  if (row.valid_count === 0) throw new AppError('F1035');
  await holdJob(ctx, jobId);
  const claimed = await ctx.db
    .updateTable('diy_import_job')
    .set({ state: 'importing' })
    .where('id', '=', jobId)
    .where('state', '=', 'checked')
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) {
    await releaseJob(ctx, jobId);
    throw new AppError('F1034');
  }
  const summary = parseSummary(row);
  writing.set(jobId, 0);
  background(async () => {
    try {
      const inserted = await writeRecords(ctx, user, row, summary, submit);
      // The error workbook stays available until the job expires; the staged rows are spent.
      for (const name of ['upload.xlsx', 'valid.jsonl'])
        await rm(join(workDir(ctx, jobId), name), { force: true });
      await ctx.db
        .updateTable('diy_import_job')
        .set({ state: 'done', inserted, finish_time: formatDateTime() })
        .where('id', '=', jobId)
        .execute();
    } catch (error) {
      const failure =
        error instanceof AppError
          ? businessMessage(error.code, summary.locale, error.params)
          : (error as Error).message;
      if (!(error instanceof AppError) && !(error instanceof DuplicateAtWrite))
        ctx.log.error({ err: error }, 'import failed');
      await ctx.db
        .updateTable('diy_import_job')
        .set({ state: 'failed', failure, finish_time: formatDateTime() })
        .where('id', '=', jobId)
        .execute()
        .catch(() => undefined);
    } finally {
      writing.delete(jobId);
      await releaseJob(ctx, jobId).catch(() => undefined);
    }
  }, false);
  return jobView(ctx, { ...row, state: 'importing' }, locale);
}

class DuplicateAtWrite extends Error {}

async function* stagedBatches(
  path: string,
  size: number,
): AsyncGenerator<{ row: number; values: RecordValues }[]> {
  const input = createInterface({ input: createReadStream(path), crlfDelay: Number.POSITIVE_INFINITY });
  let batch: { row: number; values: RecordValues }[] = [];
  for await (const text of input) {
    if (!text) continue;
    batch.push(JSON.parse(text));
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

/** All staged rows in one transaction; F1034 when the form changed version since the check. */
async function writeRecords(
  ctx: AppContext,
  user: AuthUser,
  job: DiyImportJobTable,
  summary: Summary,
  submit: boolean,
): Promise<number> {
  const jobId = Number(job.id);
  return ctx.db.transaction().execute(async (trx) => {
    const open = await openForImport(ctx, user, Number(job.table_id), trx);
    const period = await filingPeriod(
      ctx,
      trx,
      open,
      job.period_id === null ? undefined : Number(job.period_id),
    );
    const version = period?.version ?? open.form.version;
    if (version !== summary.version) throw new AppError('F1034');
    const formDesign = await designOf(ctx, trx, open, version);
    const unique = valueFields(formDesign)
      .filter((f) => f.unique !== 'none' && f.type !== 'subTable')
      .map((f) => ({ field: f, column: columnFor(open.columns, f.id, version) }))
      .filter((u) => u.column && u.column.storageKind !== 'json');
    if (unique.length && ctx.dialect === 'postgres')
      await sql`select pg_advisory_xact_lock(${open.form.id})`.execute(trx);
    const table = dataTableName(open.form.id);
    const now = new Date();
    const nowText = formatDateTime(now);
    const status = submit
      ? open.form.needs_review === 1
        ? RECORD_STATUS.submitted
        : RECORD_STATUS.approved
      : RECORD_STATUS.draft;
    const numbering = submit ? numberingOf(formDesign) : null;
    const first = numbering
      ? await reserveNumbers(ctx, trx, open.form.id, numbering, now, job.valid_count)
      : null;
    let nextNo = first?.nextNo ?? 0;
    const key = first?.key ?? '';
    if (period?.onePerOrg && open.caller.orgId !== null) {
      const taken = await (trx as unknown as AnyDb)
        .selectFrom(table)
        .select('id')
        .where('is_delete', '=', 0)
        .where('period_id', '=', period.id)
        .where('create_org_id', '=', open.caller.orgId)
        .limit(1)
        .executeTakeFirst();
      if (taken) throw new AppError('F1024');
    }
    const columnCount = open.columns.length + 25;
    const size = Math.max(20, Math.min(500, Math.floor(30_000 / columnCount)));
    let inserted = 0;
    for await (const batch of stagedBatches(join(workDir(ctx, jobId), 'valid.jsonl'), size)) {
      for (const { field, column } of unique) {
        const name = safeColumn((column as { columnName: string }).columnName);
        const values = batch.map((b) => b.values[field.id]).filter((v) => v !== null && v !== undefined);
        if (values.length === 0) continue;
        let query = (trx as unknown as AnyDb)
          .selectFrom(table)
          .select('id')
          .where('is_delete', '=', 0)
          .where(sql.ref(name), 'in', values as never[]);
        if (field.unique === 'period' && period) query = query.where('period_id', '=', period.id);
        if (await query.limit(1).executeTakeFirst())
          throw new DuplicateAtWrite(importText('recheck', summary.locale, { label: field.label }));
      }
      const records = batch.map(({ values }) => {
        const dataNo = numbering ? `${numbering.prefix}${key}${pad(nextNo++, numbering.digits)}` : null;
        for (const field of valueFields(formDesign)) if (field.type === 'serialNo') values[field.id] = dataNo;
        return { values, dataNo };
      });
      await insertRecords(
        ctx,
        trx,
        { open, formDesign, version, period, status, submit, nowText, user, fileName: job.file_name },
        records,
      );
      inserted += records.length;
      writing.set(jobId, inserted);
    }
    await trx
      .updateTable('diy_table')
      .set((eb) => ({ last_update_time: nowText, record_count: eb('record_count', '+', inserted) }))
      .where('id', '=', open.form.id)
      .execute();
    return inserted;
  });
}

/** Advances the form's serial counter by `count` at once; answers the first number and the period key. */
async function reserveNumbers(
  ctx: AppContext,
  trx: Transaction<Database>,
  tableId: number,
  numbering: NonNullable<ReturnType<typeof numberingOf>>,
  now: Date,
  count: number,
): Promise<{ nextNo: number; key: string }> {
  const key = periodKey(numbering, now);
  const seq = await trx
    .insertInto('diy_table_seq')
    .values({ id: ctx.newId(), table_id: tableId, period_key: key, last_no: count })
    .onConflict((oc) =>
      oc
        .columns(['table_id', 'period_key'])
        .doUpdateSet({ last_no: sql<number>`diy_table_seq.last_no + ${count}` }),
    )
    .returning('last_no')
    .executeTakeFirstOrThrow();
  return { nextNo: Number(seq.last_no) - count + 1, key };
}

type Target = {
  open: OpenForm;
  formDesign: FormDesign;
  version: number;
  period: Period;
  status: number;
  submit: boolean;
  nowText: string;
  user: AuthUser;
  fileName: string;
};

/** One multi-row INSERT of records and one of their history rows (action `import`, the file name as comment). */
async function insertRecords(
  ctx: AppContext,
  trx: Transaction<Database>,
  t: Target,
  batch: { values: RecordValues; dataNo: string | null }[],
): Promise<void> {
  const { open, formDesign, version, period, status, submit, nowText, user } = t;
  const records = batch.map(({ values, dataNo }) => ({
    ...toColumnValues(formDesign, open.columns, version, values),
    id: ctx.newId(),
    tenant_id: open.form.tenant_id,
    version,
    status,
    data_no: dataNo,
    submit_time: submit ? nowText : null,
    create_time: nowText,
    create_user_id: user.userId,
    create_user_name: user.realName,
    is_delete: 0,
    create_org_id: open.caller.orgId,
    create_org_name: open.caller.orgName,
    period_id: period?.id ?? null,
    is_zero: 0,
    late: submit && period?.late ? 1 : 0,
  }));
  await (trx as unknown as AnyDb).insertInto(dataTableName(open.form.id)).values(records).execute();
  const changes = JSON.stringify([{ field: 'status', label: '状态', before: null, after: status }]);
  await trx
    .insertInto('diy_record_history')
    .values(
      records.map((r) => ({
        id: ctx.newId(),
        tenant_id: open.form.tenant_id,
        table_id: open.form.id,
        record_id: r.id,
        action: 'import',
        changes,
        comment: t.fileName,
        version,
        user_id: user.userId,
        user_name: user.realName,
        create_time: nowText,
      })),
    )
    .execute();
}
