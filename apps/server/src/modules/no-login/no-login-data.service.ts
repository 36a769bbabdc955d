import { type FormDesign, RECORD_STATUS, valueFields } from '@shuzhi/contracts/diy-form';
import type { DiyRecord } from '@shuzhi/contracts/diy-table';
import type { PageResult } from '@shuzhi/contracts/envelope';
import type { Locale } from '@shuzhi/contracts/i18n';
import type { NoLoginDesign, NoLoginRecord, noLoginRecordPageInputSchema } from '@shuzhi/contracts/no-login';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { openForm, type RecordQuery } from '../diy-data/diy-data.service.ts';
import { fillableFields, fillableValues, publicField, publicValues } from '../diy-data/diy-record-public.ts';
import { recordDetail, recordList, recordPage } from '../diy-data/diy-record-query.ts';
import { saveRecord } from '../diy-data/diy-record-save.ts';
import { type CaptchaAnswer, checkSubmissionCaptcha } from './no-login-captcha.ts';
import { callerOf, giveBackUse, logUse, type Scoped, scoped, takeUse } from './no-login-scope.ts';

/**
 * The `…ByNoLogin` calls (docs/no-login.md): each runs as the link's service identity, after `scoped` has
 * checked the token and that the call lies within the link's scope; reads answer the public view of records
 * (no rules, looked-up values as labels), writes take the fillable fields' values only.
 */

/** What a view link lists: filed records (submitted or approved), never drafts or returned ones. */
const FILED: number[] = [RECORD_STATUS.submitted, RECORD_STATUS.approved];
const filedOnly = (query: RecordQuery) => query.where('status', 'in', FILED);

function toPublic(design: FormDesign, record: DiyRecord): NoLoginRecord {
  const fields = valueFields(design);
  return {
    id: record.id,
    dataNo: record.dataNo,
    values: publicValues(fields, record.values, record.labels),
    labels: record.labels,
    createTime: record.createTime,
  };
}

/** `GET /api/diyData/designByNoLogin?tableId`: what the page shows (view) or fills (fill links). */
export async function designByNoLogin(
  ctx: AppContext,
  req: FastifyRequest,
  tableId: number,
): Promise<NoLoginDesign> {
  const { link, actor } = await scoped(ctx, req, { action: 'design', tableId });
  const open = await openForm(ctx, actor, tableId);
  const fields = valueFields(open.design);
  const shown = link.mode === 'view' ? fields.map(publicField) : fillableFields(fields);
  return { tableId, title: open.form.title, design: { fields: shown, labelWidth: open.design.labelWidth } };
}

export async function pageByNoLogin(
  ctx: AppContext,
  req: FastifyRequest,
  input: z.output<typeof noLoginRecordPageInputSchema>,
  locale: Locale,
): Promise<PageResult<NoLoginRecord>> {
  const { tableId, ...paging } = input;
  const { link, actor } = await scoped(ctx, req, { action: 'list', tableId });
  const open = await openForm(ctx, actor, tableId);
  const page = await recordPage(ctx, actor, tableId, { ...paging, orgId: undefined }, locale, filedOnly);
  await logUse(ctx, link, callerOf(req), 'list');
  return { ...page, items: page.items.map((record) => toPublic(open.design, record)) };
}

export async function listByNoLogin(
  ctx: AppContext,
  req: FastifyRequest,
  tableId: number,
  locale: Locale,
): Promise<NoLoginRecord[]> {
  const { link, actor } = await scoped(ctx, req, { action: 'list', tableId });
  const open = await openForm(ctx, actor, tableId);
  const records = await recordList(ctx, actor, tableId, {}, locale, filedOnly);
  await logUse(ctx, link, callerOf(req), 'list');
  return records.map((record) => toPublic(open.design, record));
}

export async function detailByNoLogin(
  ctx: AppContext,
  req: FastifyRequest,
  tableId: number,
  recordId: number,
  locale: Locale,
): Promise<NoLoginRecord> {
  const { link, actor } = await scoped(ctx, req, { action: 'view', tableId, recordId });
  const open = await openForm(ctx, actor, tableId);
  const record = await recordDetail(ctx, actor, tableId, recordId, locale);
  // A form's view link shows what its list shows; a record link shows the record staff chose.
  if (link.qr_type === 'form' && !FILED.includes(record.status)) throw new AppError('N1004', undefined, 403);
  await logUse(ctx, link, callerOf(req), 'view', { recordId });
  return toPublic(open.design, record);
}

/**
 * One write through a token: the token is claimed first (its id is unique among the use rows: a second write
 * with it is N1007, 409), then a use of the link (N1003 when none is left); a refused save (field errors, or
 * the captcha asked for after repeated submissions) gives both back, so the page may correct the values and
 * send again with the same token.
 */
async function writeOnce(
  ctx: AppContext,
  req: FastifyRequest,
  scope: Scoped,
  action: 'add' | 'update',
  save: () => Promise<number>,
): Promise<number> {
  const { link, tokenId } = scope;
  const caller = callerOf(req);
  const useId = ctx.newId();
  const claimed = await ctx.db
    .insertInto('sys_nologin_use')
    .values({
      id: useId,
      tenant_id: link.tenant_id,
      link_id: link.id,
      action,
      record_id: null,
      code: null,
      token_id: tokenId,
      ip: caller.ip,
      user_agent: caller.userAgent,
      create_time: formatDateTime(),
    })
    .onConflict((oc) => oc.column('token_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!claimed) {
    await logUse(ctx, link, caller, 'refused', { code: 'N1007' });
    throw new AppError('N1007', undefined, 409);
  }
  const forget = () => ctx.db.deleteFrom('sys_nologin_use').where('id', '=', useId).execute();
  if (!(await takeUse(ctx, link.id))) {
    await forget();
    await logUse(ctx, link, caller, 'refused', { code: 'N1003' });
    throw new AppError('N1003', undefined, 401);
  }
  let id: number;
  try {
    id = await save();
  } catch (error) {
    await forget();
    await giveBackUse(ctx, link.id);
    throw error;
  }
  await ctx.db.updateTable('sys_nologin_use').set({ record_id: id }).where('id', '=', useId).execute();
  return id;
}

/** `POST /api/diyData/addByNoLogin`: files (submits) a new record through a fill link. */
export async function addByNoLogin(
  ctx: AppContext,
  req: FastifyRequest,
  input: { tableId: number; values: Record<string, unknown> } & CaptchaAnswer,
  locale: Locale,
): Promise<{ id: number; dataNo: string | null }> {
  const scope = await scoped(ctx, req, { action: 'add', tableId: input.tableId });
  const open = await openForm(ctx, scope.actor, input.tableId);
  const values = fillableValues(fillableFields(valueFields(open.design)), input.values);
  const id = await writeOnce(ctx, req, scope, 'add', async () => {
    await checkSubmissionCaptcha(ctx, scope, callerOf(req), input);
    return saveRecord(ctx, scope.actor, input.tableId, { values, submit: true }, locale);
  });
  const record = await recordDetail(ctx, scope.actor, input.tableId, id, locale);
  return { id, dataNo: record.dataNo };
}

/** `PUT /api/diyData/updateDataByNoLogin/{id}`: fills in the one record of a record link, once. */
export async function updateByNoLogin(
  ctx: AppContext,
  req: FastifyRequest,
  recordId: number,
  input: { tableId: number; values: Record<string, unknown> } & CaptchaAnswer,
  locale: Locale,
): Promise<null> {
  const scope = await scoped(ctx, req, { action: 'update', tableId: input.tableId, recordId });
  const open = await openForm(ctx, scope.actor, input.tableId);
  const current = await recordDetail(ctx, scope.actor, input.tableId, recordId, locale);
  const given = fillableValues(fillableFields(valueFields(open.design)), input.values);
  await writeOnce(ctx, req, scope, 'update', async () => {
    await checkSubmissionCaptcha(ctx, scope, callerOf(req), input);
    await saveRecord(
      ctx,
      scope.actor,
      input.tableId,
      { id: recordId, values: { ...current.values, ...given }, submit: true },
      locale,
    );
    return recordId;
  });
  return null;
}
