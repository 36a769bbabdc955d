import { numberingSchema, RECORD_STATUS, valueFields } from '@shuzhi/contracts/diy-form';
import {
  AUDIT_STATUS_ALL,
  type AuditForm,
  type AuditRow,
  type auditPageInputSchema,
  type recordAuditInputSchema,
  type registerSubmitInputSchema,
  type updateCreateUserInputSchema,
} from '@shuzhi/contracts/diy-table';
import { type PageResult, pageResult, STATUS } from '@shuzhi/contracts/envelope';
import type { Locale, Localized } from '@shuzhi/contracts/i18n';
import { own } from '@shuzhi/contracts/own';
import { REALTIME_EVENTS, type RecordReviewedPayload } from '@shuzhi/contracts/realtime';
import { type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { z } from 'zod';
import type { DiyTableTable } from '../../db/schema.ts';
import { rowOrgIds } from '../../platform/access/data-scope.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { type AnyDb, columnFor, type DataRow, dataTableName } from '../../platform/diy/data-table.ts';
import { FieldErrorsError } from '../../platform/diy/field-errors.ts';
import {
  type Caller,
  type FormAuth,
  formAuth,
  formWithAuth,
  inAudience,
  loadCaller,
  parseAudience,
  parsePeriodSettings,
  recordCan,
} from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import type { BelongFile } from '../../platform/files/belong.ts';
import { emitToUser } from '../../platform/realtime/hub.ts';
import { periodSummaries, recordPeriodState } from '../diy-period/diy-period.service.ts';
import {
  assertNotFiled,
  designOf,
  findRow,
  nextDataNo,
  type OpenForm,
  openForm,
  writeHistory,
} from './diy-data.service.ts';
import { formOfFileType } from './diy-record-files.ts';

/**
 * Review, hand-over, submission events, numbering and counts of report-form records (issue 5 §3, §5, §7):
 * `POST /api/diyData/{tableId}/audit`, `/api/diyReport/auditPage | auditForms`,
 * `/api/diyTable/UpdateCreateUser | RegisterSubmit | tableDataNo/{id} | updateDataCount/{id}`. Every write runs
 * in one transaction (all records or none) and writes its `diy_record_history` steps there.
 */

const COMMENT_REQUIRED: Localized = {
  'zh-CN': '退回时必须填写审核意见',
  en: 'Enter a comment to return a record',
  'zh-TW': '退回時必須填寫審核意見',
};

const STATUS_LABEL = '状态';

const factsOf = (row: DataRow) => ({
  create_org_id: row.create_org_id === null ? null : Number(row.create_org_id),
  create_user_id: row.create_user_id === null ? null : Number(row.create_user_id),
  status: row.status,
});

/**
 * F1023 when the record's period is closed. A return would hand the filler a record they may not change, and
 * a hand-over would move a locked record to another unit; approving stays possible, it finishes the review
 * of what was filed in time.
 */
async function assertPeriodNotClosed(db: AnyDb, open: OpenForm, row: DataRow): Promise<void> {
  const found = await recordPeriodState(db, open.form, row.period_id);
  if (found?.state === 'closed') throw new AppError('F1023');
}

async function touchForm(db: AnyDb, open: OpenForm, now: string): Promise<void> {
  await db.updateTable('diy_table').set({ last_update_time: now }).where('id', '=', open.form.id).execute();
}

// ------------------------------------------------------------------------------------------------------
// Review

/**
 * Approves or returns submitted records (status 1 → 2 or 3): the form's `myAuth.audit` and, per record, the
 * caller's review reach (`recordCan(...).audit`); F1012 for a record not awaiting review (also when another
 * reviewer was first). Returning needs a comment (a field error on `comment`). The filers are told in real
 * time once the transaction has committed.
 */
export async function auditRecords(
  ctx: AppContext,
  user: AuthUser,
  tableId: number,
  input: z.output<typeof recordAuditInputSchema>,
  locale: Locale,
): Promise<void> {
  const comment = input.comment ? input.comment : null;
  if (input.action === 'return' && !comment) {
    throw new FieldErrorsError({ comment: [COMMENT_REQUIRED[locale]] });
  }
  const status = input.action === 'approve' ? RECORD_STATUS.approved : RECORD_STATUS.returned;
  const ids = [...new Set(input.ids)];
  const filers = new Map<number, number[]>();
  const title = await ctx.db.transaction().execute(async (trx) => {
    const open = await openForm(ctx, user, tableId, trx);
    if (!open.auth.audit) throw new AppError('F1001');
    const now = formatDateTime();
    const table = dataTableName(open.form.id);
    for (const id of ids) {
      const row = await findRow(trx, open, id);
      if (row.status !== RECORD_STATUS.submitted) throw new AppError('F1012');
      if (!recordCan(open.auth, open.caller, factsOf(row)).audit) throw new AppError('F1008');
      if (input.action === 'return') await assertPeriodNotClosed(trx as AnyDb, open, row);
      const result = await (trx as AnyDb)
        .updateTable(table)
        .set({
          status,
          audit_user_id: user.userId,
          audit_user_name: user.realName,
          audit_time: now,
          audit_comment: comment,
        })
        .where('id', '=', id)
        .where('status', '=', RECORD_STATUS.submitted)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) throw new AppError('F1012');
      const change = [{ field: 'status', label: STATUS_LABEL, before: row.status, after: status }];
      await writeHistory(ctx, trx, open, id, input.action, change, row.version, now, comment);
      if (row.create_user_id !== null) {
        const filer = Number(row.create_user_id);
        filers.set(filer, [...(filers.get(filer) ?? []), id]);
      }
    }
    await touchForm(trx as AnyDb, open, now);
    return open.form.title;
  });
  for (const [filer, recordIds] of filers) {
    const payload: RecordReviewedPayload = {
      tableId,
      tableTitle: title,
      ids: recordIds,
      action: input.action,
      comment,
      reviewerName: user.realName,
    };
    emitToUser(ctx, filer, REALTIME_EVENTS.recordReviewed, payload);
  }
}

const REVIEW_FORM_COLUMNS = [
  'id',
  'title',
  'tenant_id',
  'status',
  'version',
  'owner_org_id',
  'create_user_id',
  'fillers',
  'viewers',
  'reviewer_ids',
  'needs_review',
] as const;
type ReviewForm = Pick<DiyTableTable, (typeof REVIEW_FORM_COLUMNS)[number]>;
type Reviewed = { form: ReviewForm; auth: FormAuth };

/** The live, published, enabled forms of the caller's tenant that the caller reviews (myAuth.audit). */
async function reviewedForms(
  ctx: AppContext,
  user: AuthUser,
  tableId?: number,
): Promise<{ caller: Caller; forms: Reviewed[] }> {
  let query = ctx.db
    .selectFrom('diy_table')
    .select([...REVIEW_FORM_COLUMNS])
    .where('tenant_id', '=', user.tenantId)
    .where('is_delete', '=', 0)
    .where('needs_review', '=', 1)
    .where('status', '=', STATUS.enabled)
    .where('version', '>', 0);
  if (tableId !== undefined) query = query.where('id', '=', tableId);
  const rows = await query.orderBy('order_no').orderBy('id').execute();
  const caller = await loadCaller(ctx, user);
  const forms = rows.map((form) => ({ form, auth: formAuth(form, caller) })).filter((f) => f.auth.audit);
  return { caller, forms };
}

type AuditInput = z.output<typeof auditPageInputSchema>;

const AUDIT_COLUMNS = [
  'id',
  'version',
  'status',
  'data_no',
  'submit_time',
  'create_user_name',
  'create_org_name',
  'audit_user_name',
  'audit_time',
  'audit_comment',
  'update_time',
  'period_id',
] as const;

const AUDIT_SORT: Record<string, string> = {
  submitTime: 'submit_time',
  updateTime: 'update_time',
  auditTime: 'audit_time',
  dataNo: 'data_no',
  createUserName: 'create_user_name',
  createOrgName: 'create_org_name',
  status: 'status',
  tableId: 'table_id',
  id: 'id',
};

const escapeLike = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const dayStart = (d: string) => (d.length === 10 ? `${d} 00:00:00` : d);
const dayEnd = (d: string) => (d.length === 10 ? `${d} 23:59:59` : d);

/** One form's part of the review union: its system columns, narrowed to the caller's review reach. */
// biome-ignore lint/suspicious/noExplicitAny: the data tables are not in the static schema.
function auditPart(ctx: AppContext, caller: Caller, form: ReviewForm, input: Partial<AuditInput>): any {
  let query = (ctx.db as AnyDb)
    .selectFrom(dataTableName(form.id))
    .select([sql<number>`${sql.lit(form.id)}`.as('table_id'), ...AUDIT_COLUMNS])
    .where('is_delete', '=', 0)
    .where('tenant_id', '=', form.tenant_id);
  if (!caller.view.all) {
    // The org list repeats in every form's part: inlined (ids are integers) so that many forms cannot run
    // past the statement's parameter limit.
    const orgs = rowOrgIds(caller.view).filter((id) => Number.isSafeInteger(id));
    const self = caller.user.userId;
    // biome-ignore lint/suspicious/noExplicitAny: see above.
    query = query.where((eb: ExpressionBuilder<any, any>) =>
      orgs.length > 0
        ? eb.or([
            sql<SqlBool>`create_org_id in (${sql.join(orgs.map((id) => sql.lit(id)))})`,
            eb('create_user_id', '=', self),
          ])
        : eb('create_user_id', '=', self),
    );
  }
  const status = typeof input.status === 'number' ? input.status : RECORD_STATUS.submitted;
  query =
    status === AUDIT_STATUS_ALL
      ? query.where('status', 'in', [RECORD_STATUS.submitted, RECORD_STATUS.approved, RECORD_STATUS.returned])
      : query.where('status', '=', status);
  if (input.keyword) {
    const like = sql.raw(ctx.dialect === 'postgres' ? 'ilike' : 'like');
    const pattern = escapeLike(input.keyword);
    // biome-ignore lint/suspicious/noExplicitAny: see above.
    query = query.where((eb: ExpressionBuilder<any, any>) =>
      eb.or(
        ['data_no', 'create_user_name', 'create_org_name'].map(
          (c) => sql<SqlBool>`${sql.ref(c)} ${like} ${pattern} escape '\\'`,
        ),
      ),
    );
  }
  const [from, to] = input.submitTime ?? [];
  if (from) query = query.where('submit_time', '>=', dayStart(from));
  if (to) query = query.where('submit_time', '<=', dayEnd(to));
  return query;
}

/** SQLite allows at most 500 terms in one compound select: larger unions are nested by chunks. */
const UNION_CHUNK = 400;

// biome-ignore lint/suspicious/noExplicitAny: see auditPart().
export function unionAll(db: AnyDb, parts: any[]): any {
  // biome-ignore lint/suspicious/noExplicitAny: see auditPart().
  const join = (list: any[]) => list.reduce((all, part) => all.unionAll(part));
  if (parts.length <= UNION_CHUNK) return join(parts);
  const chunks = [];
  for (let i = 0; i < parts.length; i += UNION_CHUNK) {
    chunks.push(db.selectFrom(join(parts.slice(i, i + UNION_CHUNK)).as(`c${i / UNION_CHUNK}`)).selectAll());
  }
  return join(chunks);
}

const text = (value: unknown): string | null =>
  value === null || value === undefined ? null : String(value);

/**
 * `POST /api/diyReport/auditPage`: the records of every form the caller reviews, each form's part narrowed
 * to the caller's review reach (data scope, own records), default status 1, newest submission first.
 */
export async function auditPage(
  ctx: AppContext,
  user: AuthUser,
  input: AuditInput,
  locale: Locale,
): Promise<PageResult<AuditRow>> {
  const tableId = typeof input.tableId === 'number' ? input.tableId : undefined;
  const { caller, forms } = await reviewedForms(ctx, user, tableId);
  if (forms.length === 0) return pageResult([], 0, input.page, input.pageSize);
  const db = ctx.db as AnyDb;
  const union = unionAll(
    db,
    forms.map(({ form }) => auditPart(ctx, caller, form, input)),
  ).as('u');
  const counted = (await db
    .selectFrom(union)
    // biome-ignore lint/suspicious/noExplicitAny: see auditPart().
    .select((eb: any) => eb.fn.countAll().as('total'))
    .executeTakeFirst()) as { total?: unknown } | undefined;
  const total = Number(counted?.total ?? 0);
  const column = input.field && input.order ? own(AUDIT_SORT, input.field) : undefined;
  let query = db.selectFrom(union).selectAll();
  if (column) query = query.orderBy(column, input.order === input.descStr ? 'desc' : 'asc');
  const rows = await query
    .orderBy('submit_time', 'desc')
    .orderBy('id', 'desc')
    .limit(input.pageSize)
    .offset((input.page - 1) * input.pageSize)
    .execute();
  const titles = new Map(forms.map(({ form }) => [form.id, form.title]));
  const periods = await periodSummaries(
    db,
    rows.map((r: Record<string, unknown>) => Number(r.period_id)).filter(Number.isSafeInteger),
    locale,
  );
  const items = rows.map(
    (r: Record<string, unknown>): AuditRow => ({
      tableId: Number(r.table_id),
      tableTitle: titles.get(Number(r.table_id)) ?? '',
      id: Number(r.id),
      version: Number(r.version),
      status: Number(r.status),
      dataNo: text(r.data_no),
      submitTime: text(r.submit_time),
      createUserName: text(r.create_user_name),
      createOrgName: text(r.create_org_name),
      auditUserName: text(r.audit_user_name),
      auditTime: text(r.audit_time),
      auditComment: text(r.audit_comment),
      updateTime: text(r.update_time),
      periodName: periods.get(Number(r.period_id))?.name ?? null,
      periodClosed: periods.get(Number(r.period_id))?.closed ?? false,
    }),
  );
  return pageResult(items, total, input.page, input.pageSize);
}

/** `GET /api/diyReport/auditForms`: the forms the caller reviews, with how many records wait for them. */
export async function auditForms(ctx: AppContext, user: AuthUser): Promise<AuditForm[]> {
  const { caller, forms } = await reviewedForms(ctx, user);
  if (forms.length === 0) return [];
  const db = ctx.db as AnyDb;
  const union = unionAll(
    db,
    forms.map(({ form }) => auditPart(ctx, caller, form, {})),
  ).as('u');
  const counts = (await db
    .selectFrom(union)
    // biome-ignore lint/suspicious/noExplicitAny: see auditPart().
    .select((eb: any) => ['table_id', eb.fn.countAll().as('n')])
    .groupBy('table_id')
    .execute()) as { table_id: unknown; n: unknown }[];
  const pending = new Map(counts.map((r) => [Number(r.table_id), Number(r.n)]));
  return forms.map(({ form }) => ({ value: form.id, label: form.title, pending: pending.get(form.id) ?? 0 }));
}

// ------------------------------------------------------------------------------------------------------
// Hand-over and submission events

/** A live, enabled user of the tenant as the audience rules see them, or null. */
async function audienceMember(db: AnyDb, tenantId: number, userId: number) {
  const user = await db
    .selectFrom('sys_user')
    .select(['id', 'real_name', 'org_id'])
    .where('id', '=', userId)
    .where('tenant_id', '=', tenantId)
    .where('is_delete', '=', 0)
    .where('status', '=', STATUS.enabled)
    .executeTakeFirst();
  if (!user) return null;
  const ext = await db
    .selectFrom('sys_user_ext_org')
    .select('org_id')
    .where('user_id', '=', userId)
    .execute();
  const orgIds = [
    ...new Set([
      ...(user.org_id ? [Number(user.org_id)] : []),
      ...ext.map((r: { org_id: unknown }) => Number(r.org_id)),
    ]),
  ];
  const orgs: { id: unknown; full_ids: string; type: string | null; name: string }[] = orgIds.length
    ? await db
        .selectFrom('sys_org')
        .select(['id', 'full_ids', 'type', 'name'])
        .where('id', 'in', orgIds)
        .where('tenant_id', '=', tenantId)
        .where('is_delete', '=', 0)
        .execute()
    : [];
  const chain = new Set<number>();
  for (const org of orgs) for (const id of org.full_ids.split(',')) if (id) chain.add(Number(id));
  const own = orgs.find((o) => Number(o.id) === Number(user.org_id));
  const roles = await db
    .selectFrom('sys_user_role as ur')
    .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
    .select('r.id')
    .where('ur.user_id', '=', userId)
    .where('r.status', '=', STATUS.enabled)
    .where('r.is_delete', '=', 0)
    .execute();
  return {
    userId: Number(user.id),
    name: String(user.real_name),
    orgId: own ? Number(own.id) : null,
    orgName: own?.name ?? null,
    caller: {
      user: { userId: Number(user.id) },
      orgChain: chain,
      roleIds: new Set(roles.map((r: { id: unknown }) => Number(r.id))),
      enterprise: own?.type === 'enterprise',
    } as unknown as Caller,
  };
}

/**
 * `POST /api/diyTable/UpdateCreateUser`: form admins (myAuth.design) and reviewers hand records to another
 * user, who must be a live, enabled user of the tenant inside the form's fillers (F1013); the records take
 * the user's name and org. History step `handover` with the names before and after.
 */
export async function handOverRecords(
  ctx: AppContext,
  user: AuthUser,
  input: z.output<typeof updateCreateUserInputSchema>,
): Promise<void> {
  const ids = [...new Set(input.ids)];
  await ctx.db.transaction().execute(async (trx) => {
    const open = await openForm(ctx, user, input.tableId, trx);
    if (!open.auth.design && !open.auth.audit) throw new AppError('F1001');
    const target = await audienceMember(trx as AnyDb, open.form.tenant_id, input.userId);
    if (!target || !inAudience(parseAudience(open.form.fillers), target.caller)) throw new AppError('F1013');
    const now = formatDateTime();
    // One record per unit and period: the receiving unit must not end up with two in a period.
    const onePerOrg = parsePeriodSettings(open.form.period).onePerOrg;
    for (const id of ids) {
      const row = await findRow(trx, open, id);
      await assertPeriodNotClosed(trx as AnyDb, open, row);
      if (onePerOrg && row.period_id !== null)
        await assertNotFiled(trx, open, Number(row.period_id), target, { recordId: row.id, code: 'F1036' });
      const changes = [
        { field: 'createUserName', label: '填报人', before: row.create_user_name, after: target.name },
        { field: 'createOrgName', label: '填报单位', before: row.create_org_name, after: target.orgName },
      ];
      await (trx as AnyDb)
        .updateTable(dataTableName(open.form.id))
        .set({
          create_user_id: target.userId,
          create_user_name: target.name,
          create_org_id: target.orgId,
          create_org_name: target.orgName,
          update_time: now,
          update_user_id: user.userId,
          update_user_name: user.realName,
        })
        .where('id', '=', id)
        .execute();
      await writeHistory(ctx, trx, open, id, 'handover', changes, row.version, now);
    }
    await touchForm(trx as AnyDb, open, now);
  });
}

/**
 * `POST /api/diyTable/RegisterSubmit`: the record's filler (their own or their org's record) or a form admin
 * records that the record was handed in (paper, phone…): history step `registerSubmit` with the comment.
 */
export async function registerSubmit(
  ctx: AppContext,
  user: AuthUser,
  input: z.output<typeof registerSubmitInputSchema> & { id: number },
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const open = await openForm(ctx, user, input.tableId, trx);
    const row = await findRow(trx, open, input.id);
    const facts = factsOf(row);
    const owned =
      open.auth.filler &&
      (facts.create_user_id === user.userId ||
        (open.caller.orgId !== null && facts.create_org_id === open.caller.orgId));
    if (!owned && !open.auth.admin) throw new AppError('F1001');
    const now = formatDateTime();
    await writeHistory(ctx, trx, open, row.id, 'registerSubmit', [], row.version, now, input.comment || null);
  });
}

// ------------------------------------------------------------------------------------------------------
// Numbering and counts

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
    const can = recordCan(open.auth, open.caller, factsOf(row));
    if (!can.update && !open.auth.admin && !open.auth.audit) throw new AppError('F1001');
    if (row.data_no) return { dataNo: row.data_no };
    const table = dataTableName(open.form.id);
    if (ctx.dialect === 'postgres') {
      // Two calls for the same record take turns; the second one then sees the first one's number.
      const locked = (await (trx as AnyDb)
        .selectFrom(table)
        .select(['data_no'])
        .where('id', '=', recordId)
        .forUpdate()
        .executeTakeFirst()) as { data_no: string | null } | undefined;
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
    const result = await (trx as AnyDb)
      .updateTable(table)
      .set({ ...serial, data_no: dataNo })
      .where('id', '=', recordId)
      .where('data_no', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw new AppError('F1008');
    const change = [{ field: 'dataNo', label: '编号', before: null, after: dataNo }];
    await writeHistory(ctx, trx, open, recordId, 'update', change, row.version, nowText);
    return { dataNo };
  });
}

/** `POST /api/diyTable/updateDataCount/{id}`: recounts the form's live records and stores the count. */
export async function updateDataCount(
  ctx: AppContext,
  user: AuthUser,
  tableId: number,
): Promise<{ count: number }> {
  const { form, auth } = await formWithAuth(ctx, user, tableId);
  if (!auth.query) throw new AppError('F1001');
  const row = (await (ctx.db as AnyDb)
    .selectFrom(dataTableName(form.id))
    // biome-ignore lint/suspicious/noExplicitAny: see auditPart().
    .select((eb: any) => eb.fn.countAll().as('n'))
    .where('is_delete', '=', 0)
    .where('tenant_id', '=', form.tenant_id)
    .executeTakeFirst()) as { n?: unknown } | undefined;
  const count = Number(row?.n ?? 0);
  await ctx.db.updateTable('diy_table').set({ record_count: count }).where('id', '=', form.id).execute();
  return { count };
}

// ------------------------------------------------------------------------------------------------------
// Files of a record

/** Reader of `diy:<formId>` files (platform/files/belong.ts): whoever may read the record reads its files. */
export async function recordFileReadable(
  ctx: AppContext,
  caller: AuthUser,
  file: BelongFile,
): Promise<boolean> {
  const tableId = formOfFileType(file.file_type);
  if (tableId === null || file.belong_id === null) return false;
  const open = await openForm(ctx, caller, tableId);
  if (!open.auth.query) return false;
  await findRow(ctx.db, open, Number(file.belong_id));
  return true;
}
