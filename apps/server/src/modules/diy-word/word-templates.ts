import { readFile } from 'node:fs/promises';
import {
  WORD_TEMPLATE_MAX_BYTES,
  type WordFields,
  type WordTemplate,
  wordUploadFieldsSchema,
} from '@shuzhi/contracts/diy-word';
import type { Locale } from '@shuzhi/contracts/i18n';
import type { FastifyReply } from 'fastify';
import type { DiyTableTable } from '../../db/schema.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { likeContaining } from '../../platform/db/like.ts';
import { formatDate, formatDateTime } from '../../platform/db/time.ts';
import { formAuth, loadCaller } from '../../platform/diy/form-access.ts';
import { AppError, ValidationError } from '../../platform/errors/app-error.ts';
import { sendStoredFile, storedPath, storeFile } from '../../platform/files/storage.ts';
import type { Upload } from '../../platform/http/multipart.ts';
import { compileTemplate, unknownNames, WordPlaceholderError } from './word-docx.ts';
import { namesOf, sourceKindOf } from './word-source.ts';

/**
 * Word document templates (docs/word-documents.md): rows of the caller's tenant (another tenant's id is W1000),
 * each over a source item the caller must be able to open, its .docx checked at upload; `word-generate.ts` makes
 * documents from them.
 */

/** `file_type` of a record's generated document: readable by whoever may read the record (belong reader). */
export const WORD_FILE_PREFIX = 'diyWord:';
const TEMPLATE_FILE_TYPE = 'diyWordTemplate';

/** A source item of the caller's tenant, with its kind; W1001 otherwise. */
async function sourceItem(ctx: AppContext, user: AuthUser, tableId: number) {
  const form = (await ctx.db
    .selectFrom('diy_table')
    .selectAll()
    .where('id', '=', tableId)
    .where('tenant_id', '=', user.tenantId)
    .where('is_delete', '=', 0)
    .executeTakeFirst()) as DiyTableTable | undefined;
  const kind = form ? sourceKindOf(form) : null;
  if (!form || !kind || form.version <= 0) throw new AppError('W1001');
  return { form, kind };
}

/** `GET /api/diyWord/sources`: the forms, roll-ups and query reports the caller may make documents of. */
export async function wordSources(ctx: AppContext, user: AuthUser) {
  const rows = (await ctx.db
    .selectFrom('diy_table')
    .selectAll()
    .where('tenant_id', '=', user.tenantId)
    .where('is_delete', '=', 0)
    .where('version', '>', 0)
    .where('report_type', 'in', [1, 2, 3])
    .orderBy('order_no', 'asc')
    .orderBy('id', 'asc')
    .limit(1000)
    .execute()) as DiyTableTable[];
  const caller = await loadCaller(ctx, user);
  return rows
    .filter((form) => {
      const auth = formAuth(form, caller);
      return auth.admin || auth.viewer || (sourceKindOf(form) === 'form' && auth.query);
    })
    .map((form) => ({ id: form.id, title: form.title, sourceKind: sourceKindOf(form) as string }));
}

/** `GET /api/diyWord/fields`: what templates of the source may name. */
export async function wordFields(
  ctx: AppContext,
  user: AuthUser,
  tableId: number,
  locale: Locale,
): Promise<WordFields> {
  const { form, kind } = await sourceItem(ctx, user, tableId);
  const { names, periodTableId } = await namesOf(ctx, user, form, kind, locale);
  const periods =
    periodTableId === null
      ? []
      : await ctx.db
          .selectFrom('diy_table_period')
          .select(['id', 'name'])
          .where('table_id', '=', periodTableId)
          .where('tenant_id', '=', form.tenant_id)
          .where('start_date', '<=', formatDate())
          .orderBy('start_date', 'desc')
          .limit(36)
          .execute();
  return {
    tableId: form.id,
    tableTitle: form.title,
    sourceKind: kind,
    names,
    periods: periods.map((p) => ({ id: Number(p.id), name: p.name })),
  };
}

/** `GET /api/diyWord/list`: the tenant's templates over sources the caller may open. */
export async function listTemplates(
  ctx: AppContext,
  user: AuthUser,
  input: { tableId?: number; name?: string },
): Promise<WordTemplate[]> {
  let query = ctx.db
    .selectFrom('diy_word_template as w')
    .innerJoin('diy_table as t', 't.id', 'w.table_id')
    .innerJoin('sys_file as f', 'f.id', 'w.file_id')
    .selectAll('t')
    .select([
      'w.id as w_id',
      'w.name as w_name',
      'w.placeholders as w_placeholders',
      'w.remark as w_remark',
      'w.create_time as w_create_time',
      'w.create_user_name as w_create_user_name',
      'f.id as f_id',
      'f.file_name as f_name',
      'f.size as f_size',
    ])
    .where('w.tenant_id', '=', user.tenantId)
    .where('w.is_delete', '=', 0)
    .where('t.is_delete', '=', 0);
  if (input.tableId) query = query.where('w.table_id', '=', input.tableId);
  if (input.name) query = query.where('w.name', 'like', likeContaining(input.name));
  const rows = await query.orderBy('w.id', 'desc').limit(500).execute();
  const caller = await loadCaller(ctx, user);
  return rows
    .filter((r) => {
      const auth = formAuth(r as unknown as DiyTableTable, caller);
      return auth.admin || auth.viewer || auth.query;
    })
    .map((r) => ({
      id: Number(r.w_id),
      name: r.w_name,
      tableId: Number(r.id),
      tableTitle: r.title,
      sourceKind: sourceKindOf(r as unknown as DiyTableTable) ?? 'form',
      fileId: Number(r.f_id),
      fileName: r.f_name,
      size: Number(r.f_size),
      placeholders: JSON.parse(r.w_placeholders) as string[],
      remark: r.w_remark,
      createTime: String(r.w_create_time),
      createUserName: r.w_create_user_name,
    }));
}

/**
 * `POST /api/diyWord/upload`: a .docx (D8001 another suffix, D8005 content that is no .docx) is unpacked under
 * limits (W1004), compiled (W1002) and its placeholders checked against the source's names (W1003 with the
 * bad ones); then the file and the template row are written in one transaction.
 */
export async function uploadTemplate(
  ctx: AppContext,
  user: AuthUser,
  upload: Upload,
  locale: Locale,
): Promise<number> {
  const parsed = wordUploadFieldsSchema.safeParse(upload.fields, { reportInput: true });
  if (!parsed.success) throw new ValidationError(parsed.error.issues, 'body');
  const fields = parsed.data;
  const { form, kind } = await sourceItem(ctx, user, fields.tableId);
  const { names } = await namesOf(ctx, user, form, kind, locale);
  const compiled = await compileTemplate(await readFile(upload.path));
  const bad = unknownNames(compiled.parts, names);
  if (bad.length > 0) throw new WordPlaceholderError(bad);
  const id = ctx.newId();
  await ctx.db.transaction().execute(async (trx) => {
    const file = await storeFile(
      ctx,
      user,
      {
        path: upload.path,
        size: upload.size,
        md5: upload.md5,
        fileName: upload.fileName,
        allowed: ['docx'],
        match: 'name',
        maxBytes: WORD_TEMPLATE_MAX_BYTES,
        fileType: TEMPLATE_FILE_TYPE,
        belongId: id,
      },
      trx,
    );
    await trx
      .insertInto('diy_word_template')
      .values({
        id,
        tenant_id: user.tenantId,
        table_id: form.id,
        name: fields.name,
        file_id: file.id,
        placeholders: JSON.stringify(compiled.placeholders),
        remark: fields.remark || null,
        create_time: formatDateTime(),
        create_user_id: user.userId,
        create_user_name: user.realName,
        create_org_id: user.orgId || null,
        is_delete: 0,
      })
      .execute();
  });
  return id;
}

/** `POST /api/diyWord/delete`: templates of the caller's tenant (W1000 for any other id); outputs stay. */
export async function deleteTemplates(ctx: AppContext, user: AuthUser, ids: number[]): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('diy_word_template')
      .select('id')
      .where('id', 'in', ids)
      .where('tenant_id', '=', user.tenantId)
      .where('is_delete', '=', 0)
      .execute();
    if (rows.length !== new Set(ids).size) throw new AppError('W1000');
    await trx.updateTable('diy_word_template').set({ is_delete: 1 }).where('id', 'in', ids).execute();
  });
}

export type Opened = {
  template: { id: number; name: string; file_id: number };
  form: DiyTableTable;
  kind: ReturnType<typeof sourceKindOf>;
  bytes: Buffer;
  filePath: string;
};

/** A template of the caller's tenant (W1000) over a source they may open (W1001), with its .docx bytes. */
export async function openTemplate(ctx: AppContext, user: AuthUser, id: number): Promise<Opened> {
  const template = await ctx.db
    .selectFrom('diy_word_template as w')
    .innerJoin('sys_file as f', 'f.id', 'w.file_id')
    .select(['w.id', 'w.name', 'w.file_id', 'w.table_id', 'f.file_path'])
    .where('w.id', '=', id)
    .where('w.tenant_id', '=', user.tenantId)
    .where('w.is_delete', '=', 0)
    .executeTakeFirst();
  if (!template) throw new AppError('W1000');
  const { form, kind } = await sourceItem(ctx, user, Number(template.table_id));
  const full = storedPath(ctx, template.file_path);
  const bytes = full ? await readFile(full).catch(() => null) : null;
  if (!bytes) throw new AppError('W1000');
  return {
    template: { id: Number(template.id), name: template.name, file_id: Number(template.file_id) },
    form,
    kind,
    bytes,
    filePath: template.file_path,
  };
}

/** `GET /api/diyWord/{id}/template`: the template's .docx as an attachment. */
export async function sendTemplate(ctx: AppContext, user: AuthUser, id: number, reply: FastifyReply) {
  const opened = await openTemplate(ctx, user, id);
  const file = await ctx.db
    .selectFrom('sys_file')
    .select([
      'id',
      'tenant_id',
      'file_name',
      'suffix',
      'file_path',
      'size',
      'content_type',
      'file_type',
      'belong_id',
      'is_public',
      'create_user_id',
      'create_org_id',
    ])
    .where('id', '=', opened.template.file_id)
    .executeTakeFirstOrThrow();
  return sendStoredFile(ctx, reply, file, 'attachment');
}
