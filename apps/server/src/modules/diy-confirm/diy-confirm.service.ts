import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type {
  RowConfirmCreateResult,
  RowConfirmDetail,
  RowConfirmItem,
  RowConfirmState,
} from '@shuzhi/contracts/diy-confirm';
import { type FormDesign, valueFields } from '@shuzhi/contracts/diy-form';
import type { Locale, Localized } from '@shuzhi/contracts/i18n';
import type { DiyRowConfirmTable } from '../../db/schema.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { type AnyDb, type DataRow, dataTableName, fromRow } from '../../platform/diy/data-table.ts';
import { FieldErrorsError } from '../../platform/diy/field-errors.ts';
import { recordCan } from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { findRow, openForm } from '../diy-data/diy-data.service.ts';
import { fileLabels } from '../diy-data/diy-record-files.ts';
import { labelsOf } from '../diy-data/diy-record-labels.ts';
import { publicField, publicValues } from '../diy-data/diy-record-public.ts';
import { columnsAt, versionDesign } from '../diy-table/diy-table.service.ts';

/**
 * Row confirmation (issue 6 §6): staff send the subject of a record a link carrying a signed, expiring code;
 * the no-login page shows that row only and takes one answer (confirm, or dispute with a comment), written to
 * the record's history. The record's values are never changed here.
 *
 * The code is `base64url(payload ‖ HMAC-SHA256(payload)[0..16])`, the payload holding a version, the tenant,
 * form, record and confirmation-row ids and the expiry, signed with a key derived from the server secret for
 * this purpose only. `diy_row_confirm` stores the SHA-256 of the code, never the code.
 */

export const ROW_CONFIRM_PATH = '/diyReport/rowConfirm';
const DAY_MS = 24 * 3600 * 1000;

const keys = new WeakMap<AppContext['config'], Buffer>();
/** HMAC key of confirmation codes: derived from the server secret, used for nothing else. */
function signingKey(ctx: AppContext): Buffer {
  let key = keys.get(ctx.config);
  if (!key) {
    key = createHmac('sha256', ctx.config.jwtSecret).update('shuzhi:diy-row-confirm:v1').digest();
    keys.set(ctx.config, key);
  }
  return key;
}

export type ConfirmClaims = {
  tenantId: number;
  tableId: number;
  recordId: number;
  confirmId: number;
  /** Epoch seconds. */
  expires: number;
};

const VERSION = 1;
/** Version byte, tenant, form, record, confirmation row (8 bytes each), expiry in epoch seconds (4 bytes). */
const PAYLOAD_BYTES = 1 + 4 * 8 + 4;
/** HMAC-SHA256 truncated to 128 bits: plenty against forgery, and the link stays short (72 characters). */
const MAC_BYTES = 16;

const macOf = (ctx: AppContext, payload: Buffer) =>
  createHmac('sha256', signingKey(ctx)).update(payload).digest().subarray(0, MAC_BYTES);

export function signConfirmCode(ctx: AppContext, claims: ConfirmClaims): string {
  const payload = Buffer.alloc(PAYLOAD_BYTES);
  payload.writeUInt8(VERSION, 0);
  payload.writeBigUInt64BE(BigInt(claims.tenantId), 1);
  payload.writeBigUInt64BE(BigInt(claims.tableId), 9);
  payload.writeBigUInt64BE(BigInt(claims.recordId), 17);
  payload.writeBigUInt64BE(BigInt(claims.confirmId), 25);
  payload.writeUInt32BE(claims.expires, 33);
  return Buffer.concat([payload, macOf(ctx, payload)]).toString('base64url');
}

const CODE_PATTERN = /^[A-Za-z0-9_-]{71,72}$/;

/** The claims of a code whose signature holds; null for anything else (malformed, tampered, other key). */
export function readConfirmCode(ctx: AppContext, code: string): ConfirmClaims | null {
  if (!CODE_PATTERN.test(code)) return null;
  const bytes = Buffer.from(code, 'base64url');
  if (bytes.length !== PAYLOAD_BYTES + MAC_BYTES) return null;
  const payload = bytes.subarray(0, PAYLOAD_BYTES);
  if (!timingSafeEqual(bytes.subarray(PAYLOAD_BYTES), macOf(ctx, payload))) return null;
  if (payload.readUInt8(0) !== VERSION) return null;
  const ids = [1, 9, 17, 25].map((at) => payload.readBigUInt64BE(at));
  if (ids.some((id) => id > BigInt(Number.MAX_SAFE_INTEGER))) return null;
  const [tenantId, tableId, recordId, confirmId] = ids.map(Number) as [number, number, number, number];
  return { tenantId, tableId, recordId, confirmId, expires: payload.readUInt32BE(33) };
}

const hashOf = (code: string) => createHash('sha256').update(code).digest('hex');

function stateOf(row: Pick<DiyRowConfirmTable, 'answer' | 'expire_time'>, now: string): RowConfirmState {
  if (row.answer === 'confirm') return 'confirmed';
  if (row.answer === 'dispute') return 'disputed';
  return row.expire_time <= now ? 'expired' : 'open';
}

/**
 * Whether the caller may send links for a record: they may update it (its filler, while not approved) or
 * they review the form's records (a reviewer of the open form, the record within their reach).
 */
async function recordForStaff(ctx: AppContext, user: AuthUser, tableId: number, recordId: number) {
  const open = await openForm(ctx, user, tableId);
  if (!open.auth.query) throw new AppError('F1001');
  const row = await findRow(ctx.db, open, recordId);
  return { open, row };
}

function mayConfirm(open: Awaited<ReturnType<typeof recordForStaff>>['open'], row: DataRow): boolean {
  const can = recordCan(open.auth, open.caller, {
    create_org_id: row.create_org_id === null ? null : Number(row.create_org_id),
    create_user_id: row.create_user_id === null ? null : Number(row.create_user_id),
    status: row.status,
  });
  return can.update || open.auth.audit;
}

export async function createConfirm(
  ctx: AppContext,
  user: AuthUser,
  input: { tableId: number; recordId: number; subject?: string | undefined; days: number },
): Promise<RowConfirmCreateResult> {
  const { open, row } = await recordForStaff(ctx, user, input.tableId, input.recordId);
  if (!mayConfirm(open, row)) throw new AppError('F1001');
  const now = new Date();
  // Whole seconds: the code and the stored expiry name the same instant.
  const expires = Math.floor((now.getTime() + input.days * DAY_MS) / 1000);
  const expireTime = formatDateTime(new Date(expires * 1000));
  const id = ctx.newId();
  const code = signConfirmCode(ctx, {
    tenantId: open.form.tenant_id,
    tableId: open.form.id,
    recordId: row.id,
    confirmId: id,
    expires,
  });
  await ctx.db
    .insertInto('diy_row_confirm')
    .values({
      id,
      tenant_id: open.form.tenant_id,
      table_id: open.form.id,
      record_id: row.id,
      code_hash: hashOf(code),
      expire_time: expireTime,
      subject: input.subject ? input.subject : null,
      answer: null,
      answer_comment: null,
      answer_time: null,
      answer_ip: null,
      create_time: formatDateTime(now),
      create_user_id: user.userId,
      create_user_name: user.realName,
    })
    .execute();
  const query = new URLSearchParams({ t: String(open.form.id), c: code });
  return { id, url: `${ROW_CONFIRM_PATH}?${query.toString()}`, code, expireTime };
}

/** The links sent for a record, newest first (for whoever may see the record). */
export async function listConfirms(
  ctx: AppContext,
  user: AuthUser,
  tableId: number,
  recordId: number,
): Promise<RowConfirmItem[]> {
  const { open, row } = await recordForStaff(ctx, user, tableId, recordId);
  const rows = await ctx.db
    .selectFrom('diy_row_confirm')
    .selectAll()
    .where('tenant_id', '=', open.form.tenant_id)
    .where('table_id', '=', open.form.id)
    .where('record_id', '=', row.id)
    .orderBy('id', 'desc')
    .limit(200)
    .execute();
  const now = formatDateTime();
  return rows.map((r) => ({
    id: Number(r.id),
    subject: r.subject,
    state: stateOf(r, now),
    expireTime: r.expire_time,
    answerComment: r.answer_comment,
    answerTime: r.answer_time,
    createTime: r.create_time,
    createUserName: r.create_user_name,
  }));
}

/**
 * The confirmation row of a code, checked: a valid signature and a stored row that matches it (F1017), for
 * this form (and record, when given: F1020), not expired (F1018), not answered (F1019).
 */
async function checkedCode(
  ctx: AppContext,
  code: string,
  target: { tableId?: number; recordId?: number },
): Promise<{ claims: ConfirmClaims; confirm: DiyRowConfirmTable }> {
  const claims = readConfirmCode(ctx, code);
  if (!claims) throw new AppError('F1017');
  if (target.tableId !== undefined && claims.tableId !== target.tableId) throw new AppError('F1020');
  if (target.recordId !== undefined && claims.recordId !== target.recordId) throw new AppError('F1020');
  const confirm = await ctx.db
    .selectFrom('diy_row_confirm')
    .selectAll()
    .where('code_hash', '=', hashOf(code))
    .executeTakeFirst();
  if (
    !confirm ||
    Number(confirm.id) !== claims.confirmId ||
    Number(confirm.tenant_id) !== claims.tenantId ||
    Number(confirm.table_id) !== claims.tableId ||
    Number(confirm.record_id) !== claims.recordId
  ) {
    throw new AppError('F1017');
  }
  if (confirm.answer !== null) throw new AppError('F1019');
  const now = new Date();
  if (claims.expires * 1000 <= now.getTime() || confirm.expire_time <= formatDateTime(now)) {
    throw new AppError('F1018');
  }
  return { claims, confirm };
}

/** The live form and record a code names, in the code's tenant; F1017 when either is gone. */
async function formAndRow(ctx: AppContext, claims: ConfirmClaims) {
  const form = await ctx.db
    .selectFrom('diy_table')
    .selectAll()
    .where('id', '=', claims.tableId)
    .where('tenant_id', '=', claims.tenantId)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  if (!form || form.version <= 0) throw new AppError('F1017');
  const row = (await (ctx.db as AnyDb)
    .selectFrom(dataTableName(form.id))
    .selectAll()
    .where('id', '=', claims.recordId)
    .where('tenant_id', '=', claims.tenantId)
    .where('is_delete', '=', 0)
    .executeTakeFirst()) as DataRow | undefined;
  if (!row) throw new AppError('F1008');
  return {
    form,
    row: { ...row, id: Number(row.id), version: Number(row.version), status: Number(row.status) },
  };
}

/** `GET /api/diyTable/detailByNoLogin/{tableId}/{code}`: the one row the code is for. */
export async function confirmDetail(
  ctx: AppContext,
  tableId: number,
  code: string,
): Promise<RowConfirmDetail> {
  const { claims, confirm } = await checkedCode(ctx, code, { tableId });
  const { form, row } = await formAndRow(ctx, claims);
  const design = (await versionDesign(ctx, ctx.db, form.id, row.version)) ?? { fields: [], labelWidth: 120 };
  const columns = await columnsAt(ctx, ctx.db, form.id, form.version);
  const fields = valueFields(design);
  const own: FormDesign = { fields, labelWidth: design.labelWidth };
  const values = fromRow(own, columns, row);
  const [labels] = await labelsOf(ctx, [{ design: own, values }]);
  const [files] = await fileLabels(ctx.db, form.tenant_id, [{ design: own, values }]);
  const allLabels = { ...labels, ...files };
  return {
    tableId: form.id,
    recordId: row.id,
    title: form.title,
    dataNo: row.data_no,
    design: { fields: fields.map(publicField), labelWidth: design.labelWidth },
    values: publicValues(fields, values, allLabels),
    labels: allLabels,
    subject: confirm.subject,
    expireTime: confirm.expire_time,
    answered: false,
  };
}

const COMMENT_REQUIRED: Localized = {
  'zh-CN': '有异议时请填写说明',
  en: 'Describe what is wrong to dispute the record',
  'zh-TW': '有異議時請填寫說明',
};
const SUBJECT_FALLBACK: Localized = { 'zh-CN': '确认人', en: 'Confirmer', 'zh-TW': '確認人' };

/**
 * `PUT /api/diyTable/updateDataByNoLogin/{recordId}`: the subject's answer, once. The answer is taken by a
 * conditional update (still unanswered, not expired), so two answers racing leave exactly one; the history
 * step is written in the same transaction. The record's values stay as they are.
 */
export async function answerConfirm(
  ctx: AppContext,
  recordId: number,
  input: { code: string; answer: 'confirm' | 'dispute'; comment?: string | undefined },
  ip: string,
  locale: Locale,
): Promise<void> {
  const comment = input.comment ? input.comment : null;
  if (input.answer === 'dispute' && !comment) {
    throw new FieldErrorsError({ comment: [COMMENT_REQUIRED[locale]] });
  }
  const { claims, confirm } = await checkedCode(ctx, input.code, { recordId });
  const { form, row } = await formAndRow(ctx, claims);
  const now = formatDateTime();
  await ctx.db.transaction().execute(async (trx) => {
    const taken = await trx
      .updateTable('diy_row_confirm')
      .set({ answer: input.answer, answer_comment: comment, answer_time: now, answer_ip: ip.slice(0, 64) })
      .where('id', '=', confirm.id)
      .where('answer', 'is', null)
      .where('expire_time', '>', now)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) {
      const current = await trx
        .selectFrom('diy_row_confirm')
        .select(['answer'])
        .where('id', '=', confirm.id)
        .executeTakeFirst();
      throw new AppError(current?.answer ? 'F1019' : 'F1018');
    }
    await trx
      .insertInto('diy_record_history')
      .values({
        id: ctx.newId(),
        tenant_id: form.tenant_id,
        table_id: form.id,
        record_id: row.id,
        action: input.answer,
        changes: '[]',
        comment,
        version: row.version,
        user_id: null,
        user_name: (confirm.subject || SUBJECT_FALLBACK[locale]).slice(0, 64),
        create_time: now,
      })
      .execute();
  });
}
