import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { IMPORT_MAX_BYTES } from '@shuzhi/contracts/diy-import';
import type { Locale } from '@shuzhi/contracts/i18n';
import type { FastifyRequest } from 'fastify';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { businessMessage } from '../../platform/errors/messages.ts';
import { moveFile } from '../../platform/files/storage.ts';
import { discardUpload, readUpload, type Upload } from '../../platform/http/multipart.ts';
import { openWorkbook, type SheetRow, sheetRows } from '../../platform/xlsx/sheet-read.ts';
import { designOf, type OpenForm } from '../diy-data/diy-data.service.ts';
import {
  background,
  expireJobs,
  filingPeriod,
  IMPORT_DIR,
  openForImport,
  type Summary,
  workDir,
} from './diy-import.service.ts';
import { Checker } from './import-check.ts';
import { isDateField, mapHeader } from './import-columns.ts';
import { holdJob, releaseJob } from './import-lease.ts';

/**
 * The upload of an import (docs/import.md "Upload checks"): the file is moved into a new job's folder, its
 * zip checked (platform/xlsx: F1030, F1031), its header mapped (F1032) and its period resolved at once; the
 * rows are then checked in the background.
 */

export async function uploadImport(
  ctx: AppContext,
  user: AuthUser,
  tableId: number,
  req: FastifyRequest,
  locale: Locale,
): Promise<{ jobId: number }> {
  await expireJobs(ctx);
  const open = await openForImport(ctx, user, tableId);
  let upload: Upload;
  try {
    // Fields may come before or after the file (`periodId` after it is fine).
    upload = await readUpload(req, IMPORT_MAX_BYTES);
  } catch (error) {
    if (error instanceof AppError && error.code === 'D8002') throw new AppError('F1031');
    throw error;
  }
  try {
    return await startCheck(ctx, user, open, upload, locale);
  } finally {
    await discardUpload(upload);
  }
}

/** Moves the upload into a new job's folder, maps its header and checks its rows in the background. */
async function startCheck(
  ctx: AppContext,
  user: AuthUser,
  open: OpenForm,
  upload: Upload,
  locale: Locale,
): Promise<{ jobId: number }> {
  const periodText = upload.fields.periodId;
  const periodId = periodText && /^\d+$/.test(periodText) ? Number(periodText) : undefined;
  if (periodText && periodId === undefined) throw new AppError('F1025');
  const period = await filingPeriod(ctx, ctx.db, open, periodId);
  const version = period?.version ?? open.form.version;
  const formDesign = await designOf(ctx, ctx.db, open, version);

  const jobId = ctx.newId();
  const dir = workDir(ctx, jobId);
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'upload.xlsx');
  try {
    await moveFile(upload.path, file);
    const zip = await openWorkbook(file);
    let total: number | null = null;
    const rows = sheetRows(zip, (last) => {
      total = last;
    });
    const head: SheetRow[] = [];
    for (;;) {
      const next = await rows.next();
      if (next.done) break;
      if (head.length === 0 && next.value.cells.every((c) => c === null || c === undefined || c === ''))
        continue;
      head.push(next.value);
      if (head.length === 2) break;
    }
    const mapping = mapHeader(formDesign, locale, head[0]?.cells ?? [], head[1]?.cells ?? null);
    if (mapping.byColumn.size === 0) {
      await rows.return(undefined);
      throw new AppError('F1032');
    }
    const pending = mapping.headerRows === 1 && head[1] ? [head[1]] : [];
    const headerEnd = (head[0]?.row ?? 1) + mapping.headerRows - 1;
    const summary: Summary = {
      locale,
      version,
      periodName: period?.name ?? null,
      extra: mapping.extra,
      missing: mapping.missing,
      header: mapping.header,
      errors: [],
      dateColumns: [...mapping.byColumn].filter(([, c]) => isDateField(c.field)).map(([i]) => i),
    };
    await holdJob(ctx, jobId);
    await ctx.db
      .insertInto('diy_import_job')
      .values({
        id: jobId,
        tenant_id: open.form.tenant_id,
        table_id: open.form.id,
        user_id: user.userId,
        period_id: period?.id ?? null,
        file_name: (upload.fileName.split(/[\\/]/).pop() ?? '').slice(-200) || 'import.xlsx',
        state: 'checking',
        processed: 0,
        total: total === null ? null : Math.max(0, (total as number) - headerEnd),
        valid_count: 0,
        invalid_count: 0,
        duplicate_count: 0,
        inserted: 0,
        summary: JSON.stringify(summary),
        failure: null,
        work_dir: `${IMPORT_DIR}/${jobId}`,
        create_time: formatDateTime(),
        finish_time: null,
      })
      .execute();
    const check = new Checker(ctx, open, formDesign, period, mapping, summary, jobId, dir);
    background(async () => {
      try {
        await check.run(pending, rows);
      } catch (error) {
        await rows.return(undefined).catch(() => undefined);
        const failure =
          error instanceof AppError
            ? businessMessage(error.code, locale, error.params)
            : String((error as Error).message);
        if (!(error instanceof AppError)) ctx.log.error({ err: error }, 'import check failed');
        await ctx.db
          .updateTable('diy_import_job')
          .set({ state: 'failed', failure, finish_time: formatDateTime() })
          .where('id', '=', jobId)
          .execute()
          .catch(() => undefined);
      } finally {
        await releaseJob(ctx, jobId).catch(() => undefined);
      }
    }, true);
    return { jobId };
  } catch (error) {
    await releaseJob(ctx, jobId).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
