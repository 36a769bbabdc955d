import { createHash, randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RECORD_STATUS } from '@shuzhi/contracts/diy-form';
import { WORD_BATCH_MAX, type WordOutput, type WordOutputKind } from '@shuzhi/contracts/diy-word';
import type { Locale } from '@shuzhi/contracts/i18n';
import PizZip from 'pizzip';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { storeFile, whereReadable } from '../../platform/files/storage.ts';
import { UPLOAD_TMP_DIR, UPLOAD_TMP_PREFIX } from '../../platform/http/multipart.ts';
import { RECORD_LIST_LIMIT, recordDetail, recordList } from '../diy-data/diy-record-query.ts';
import { periodOfForm } from '../diy-period/diy-period.service.ts';
import { compileTemplate, render } from './word-docx.ts';
import { asSource, queryBulletin, recordData, rollupBulletin } from './word-source.ts';
import { type Opened, openTemplate, WORD_FILE_PREFIX } from './word-templates.ts';

/**
 * Generating documents from a template (docs/word-documents.md "Generation"): a record's document, one per unit for
 * a period in one .zip, a roll-up's or query report's bulletin; each kept as a file with its `diy_word_output` row.
 */

/** Largest generated file kept (a .zip of a period). */
const OUTPUT_MAX_BYTES = 512 * 1024 * 1024;

/** A file name without folders or characters Windows refuses. */
const safeName = (name: string) =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced.
  name.replace(/[\u0000-\u001f\u007f\\/:*?"<>|]/g, '_').slice(0, 120) || 'document';

type OutputInput = {
  kind: WordOutputKind;
  bytes: Buffer;
  fileName: string;
  suffix: 'docx' | 'zip';
  count: number;
  recordId: number | null;
  periodId: number | null;
  /** A record's document is also the record's file. */
  fileType: string;
};

/** Stores a generated file and its output row in one transaction. */
async function keepOutput(
  ctx: AppContext,
  user: AuthUser,
  opened: Opened,
  input: OutputInput,
): Promise<WordOutput> {
  const dir = join(ctx.config.dataDir, UPLOAD_TMP_DIR);
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${UPLOAD_TMP_PREFIX}${randomUUID()}`);
  await writeFile(path, input.bytes, { flag: 'wx' });
  const id = ctx.newId();
  const now = formatDateTime();
  try {
    const file = await ctx.db.transaction().execute(async (trx) => {
      const stored = await storeFile(
        ctx,
        user,
        {
          path,
          size: input.bytes.length,
          md5: createHash('md5').update(input.bytes).digest('hex'),
          fileName: `${safeName(input.fileName)}.${input.suffix}`,
          allowed: [input.suffix],
          match: 'name',
          maxBytes: OUTPUT_MAX_BYTES,
          fileType: input.fileType,
          belongId: input.recordId,
        },
        trx,
      );
      await trx
        .insertInto('diy_word_output')
        .values({
          id,
          tenant_id: user.tenantId,
          template_id: opened.template.id,
          kind: input.kind,
          file_id: stored.id,
          doc_count: input.count,
          record_id: input.recordId,
          period_id: input.periodId,
          create_time: now,
          create_user_id: user.userId,
          create_user_name: user.realName,
        })
        .execute();
      return stored;
    });
    return {
      id,
      templateId: opened.template.id,
      kind: input.kind,
      fileId: file.id,
      fileName: file.file_name,
      size: file.size,
      count: input.count,
      recordId: input.recordId,
      periodId: input.periodId,
      createTime: now,
      createUserName: user.realName,
    };
  } finally {
    await rm(path, { force: true });
  }
}

const needKind = (opened: Opened, kinds: string[]) => {
  if (!kinds.includes(opened.kind ?? '')) throw new AppError('W1005');
};

/** `POST /api/diyWord/{id}/record`: one document of a record the caller may read. */
export async function generateForRecord(
  ctx: AppContext,
  user: AuthUser,
  id: number,
  recordId: number,
  locale: Locale,
): Promise<WordOutput> {
  const opened = await openTemplate(ctx, user, id);
  needKind(opened, ['form']);
  const record = await asSource(() => recordDetail(ctx, user, opened.form.id, recordId, locale));
  const data = await recordData(ctx, user, opened.form, record);
  const bytes = render(await compileTemplate(opened.bytes), data);
  return keepOutput(ctx, user, opened, {
    kind: 'record',
    bytes,
    fileName: `${opened.template.name}-${record.dataNo || record.id}`,
    suffix: 'docx',
    count: 1,
    recordId: record.id,
    periodId: record.periodId,
    fileType: `${WORD_FILE_PREFIX}${opened.form.id}`,
  });
}

/**
 * `POST /api/diyWord/{id}/batch`: one document per unit for a period (the unit's newest submitted or approved
 * record the caller may read), in one .zip named by unit.
 */
export async function generateForPeriod(
  ctx: AppContext,
  user: AuthUser,
  id: number,
  periodId: number,
  locale: Locale,
): Promise<WordOutput> {
  const opened = await openTemplate(ctx, user, id);
  needKind(opened, ['form']);
  const period = await periodOfForm(ctx.db, opened.form, periodId).catch((error) => {
    throw error instanceof AppError ? new AppError('W1006') : error;
  });
  const records = await asSource(() =>
    recordList(ctx, user, opened.form.id, {}, locale, (q) =>
      q
        .where('period_id', '=', periodId)
        .where('status', 'in', [RECORD_STATUS.submitted, RECORD_STATUS.approved]),
    ),
  );
  // The list stops at RECORD_LIST_LIMIT records: a period with more could leave units out, so it is refused.
  if (records.length >= RECORD_LIST_LIMIT) throw new AppError('W1007', { max: WORD_BATCH_MAX });
  const byUnit = new Map<string, (typeof records)[number]>();
  for (const record of records) {
    const unit = String(record.createOrgId ?? `u${record.createUserId}`);
    if (!byUnit.has(unit)) byUnit.set(unit, record);
  }
  if (byUnit.size === 0) throw new AppError('W1008');
  if (byUnit.size > WORD_BATCH_MAX) throw new AppError('W1007', { max: WORD_BATCH_MAX });
  const zip = new PizZip();
  const used = new Set<string>();
  for (const record of byUnit.values()) {
    const data = await recordData(ctx, user, opened.form, record);
    const base = safeName(record.createOrgName || record.dataNo || String(record.id));
    let name = `${base}.docx`;
    for (let n = 2; used.has(name); n++) name = `${base}-${n}.docx`;
    used.add(name);
    zip.file(name, render(await compileTemplate(opened.bytes), data));
  }
  return keepOutput(ctx, user, opened, {
    kind: 'batch',
    bytes: zip.generate({ type: 'nodebuffer', compression: 'STORE' }),
    fileName: `${opened.template.name}-${period.name}`,
    suffix: 'zip',
    count: byUnit.size,
    recordId: null,
    periodId,
    fileType: 'diyWordBatch',
  });
}

/** `POST /api/diyWord/{id}/bulletin`: a roll-up's or query report's bulletin. */
export async function generateBulletin(
  ctx: AppContext,
  user: AuthUser,
  id: number,
  input: { periodId?: number; params: Parameters<typeof queryBulletin>[3] },
  locale: Locale,
): Promise<WordOutput> {
  const opened = await openTemplate(ctx, user, id);
  needKind(opened, ['rollup', 'query']);
  const { data, periodId } =
    opened.kind === 'rollup'
      ? await rollupBulletin(ctx, user, opened.form, input.periodId, locale)
      : { data: await queryBulletin(ctx, user, opened.form, input.params, locale), periodId: null };
  const bytes = render(await compileTemplate(opened.bytes), data);
  const when = String(data.$period || data.$today);
  return keepOutput(ctx, user, opened, {
    kind: 'bulletin',
    bytes,
    fileName: `${opened.template.name}-${when}`,
    suffix: 'docx',
    count: 1,
    recordId: null,
    periodId,
    fileType: 'diyWordBulletin',
  });
}

/** `GET /api/diyWord/{id}/outputs`: the template's generated files the caller may read, newest first. */
export async function listOutputs(ctx: AppContext, user: AuthUser, id: number): Promise<WordOutput[]> {
  const template = await ctx.db
    .selectFrom('diy_word_template')
    .select('id')
    .where('id', '=', id)
    .where('tenant_id', '=', user.tenantId)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  if (!template) throw new AppError('W1000');
  const outputs = await ctx.db
    .selectFrom('diy_word_output')
    .selectAll()
    .where('template_id', '=', id)
    .where('tenant_id', '=', user.tenantId)
    .orderBy('id', 'desc')
    .limit(200)
    .execute();
  if (outputs.length === 0) return [];
  const files = await (
    await whereReadable(
      ctx,
      user,
      ctx.db
        .selectFrom('sys_file')
        .select(['id', 'file_name', 'size'])
        .where('is_delete', '=', 0)
        .where(
          'id',
          'in',
          outputs.map((o) => Number(o.file_id)),
        ),
    )
  ).execute();
  const byId = new Map(files.map((f) => [Number(f.id), f]));
  return outputs.flatMap((o) => {
    const file = byId.get(Number(o.file_id));
    if (!file) return [];
    return [
      {
        id: Number(o.id),
        templateId: id,
        kind: o.kind as WordOutputKind,
        fileId: Number(file.id),
        fileName: file.file_name,
        size: Number(file.size),
        count: Number(o.doc_count),
        recordId: o.record_id === null ? null : Number(o.record_id),
        periodId: o.period_id === null ? null : Number(o.period_id),
        createTime: String(o.create_time),
        createUserName: o.create_user_name,
      },
    ];
  });
}
