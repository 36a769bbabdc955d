import { RECORD_STATUS } from '@shuzhi/contracts/diy-form';
import {
  AUDIT_STATUS_ALL,
  type AuditForm,
  type AuditRow,
  type auditPageInputSchema,
  type recordAuditInputSchema,
} from '@shuzhi/contracts/diy-table';
import { type PageResult, pageResult, STATUS } from '@shuzhi/contracts/envelope';
import type { Locale, Localized } from '@shuzhi/contracts/i18n';
import { ORG_PATH_SEPARATOR } from '@shuzhi/contracts/org';
import { own } from '@shuzhi/contracts/own';
import { REALTIME_EVENTS, type RecordReviewedPayload } from '@shuzhi/contracts/realtime';
import {
  type AliasedSelectQueryBuilder,
  type Expression,
  type Kysely,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
} from 'kysely';
import type { z } from 'zod';
import type { DiyTableTable } from '../../db/schema.ts';
import { rowOrgIds } from '../../platform/access/data-scope.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import type { Db } from '../../platform/db/db.ts';
import { likeContaining } from '../../platform/db/like.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import type { DataRow } from '../../platform/diy/data-table.ts';
import { recordsOf, updateRecords, withDataTables } from '../../platform/diy/dynamic-table.ts';
import { FieldErrorsError } from '../../platform/diy/field-errors.ts';
import {
  type Caller,
  type FormAuth,
  formAuth,
  loadCaller,
  recordCan,
} from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { emitToUser } from '../../platform/realtime/hub.ts';
import { periodSummaries, recordPeriodState } from '../diy-period/diy-period.service.ts';
import { findRow, type OpenForm, openForm, recordFacts } from './diy-data.service.ts';
import { writeHistory } from './diy-record-history.ts';

/**
 * Review of report-form records (issue 5 §3, §5, §7): `POST /api/diyData/{tableId}/audit`,
 * `/api/diyReport/auditPage | auditForms`. Hand-over and submission events are in `diy-handover.ts`, a
 * record's serial number on demand in `diy-record-numbering.ts`, the recount in `diy-record-query.ts`. Every
 * write runs in one transaction (all records or none) and writes its `diy_record_history` steps there.
 */

const COMMENT_REQUIRED: Localized = {
  'zh-CN': '退回时必须填写审核意见',
  en: 'Enter a comment to return a record',
  'zh-TW': '退回時必須填寫審核意見',
};

const STATUS_LABEL = '状态';

/**
 * F1023 when the record's period is closed. A return would hand the filler a record they may not change, and
 * a hand-over would move a locked record to another unit; approving stays possible, it finishes the review
 * of what was filed in time.
 */
export async function assertPeriodNotClosed(db: Db, open: OpenForm, row: DataRow): Promise<void> {
  const found = await recordPeriodState(db, open.form, row.period_id);
  if (found?.state === 'closed') throw new AppError('F1023');
}

/**
 * T1056 for approving, on the form's own review page, a record that an open task reviews level by level
 * (docs/tasks.md "Level-by-level review"): its form and period are the task's, and a unit of the task received
 * it at the record's unit or above. The task's page passes it level by level and approves it at the last; a
 * return stays possible here, as at any level. A closed task no longer holds its records.
 */
async function assertNotUnderLevelReview(db: Db, form: DiyTableTable, row: DataRow): Promise<void> {
  if (row.create_org_id === null) return;
  const orgId = Number(row.create_org_id);
  const org = await db.selectFrom('sys_org').select('full_ids').where('id', '=', orgId).executeTakeFirst();
  const chain = [orgId, ...(org?.full_ids.split(ORG_PATH_SEPARATOR).filter(Boolean).map(Number) ?? [])];
  let query = db
    .selectFrom('diy_task as t')
    .innerJoin('diy_task_form as f', 'f.task_id', 't.id')
    .innerJoin('diy_task_receiver as r', 'r.task_id', 't.id')
    .select('t.title')
    .where('t.tenant_id', '=', form.tenant_id)
    .where('t.is_delete', '=', 0)
    .where('t.state', '=', 'open')
    .where('t.level_review', '=', 1)
    .where('f.table_id', '=', form.id)
    .where('r.state', '=', 'received')
    .where('r.org_id', 'in', chain);
  query =
    row.period_id === null
      ? query.where('f.period_id', 'is', null).where('t.create_time', '<=', String(row.create_time))
      : query.where('f.period_id', '=', Number(row.period_id));
  const task = await query.executeTakeFirst();
  if (task) throw new AppError('T1056', { title: task.title });
}

export async function touchForm(db: Db, open: OpenForm, now: string): Promise<void> {
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
    for (const id of ids) {
      const row = await findRow(trx, open, id);
      if (row.status !== RECORD_STATUS.submitted) throw new AppError('F1012');
      if (!recordCan(open.auth, open.caller, recordFacts(row)).audit) throw new AppError('F1008');
      if (input.action === 'return') await assertPeriodNotClosed(trx, open, row);
      else await assertNotUnderLevelReview(trx, open.form, row);
      const result = await updateRecords(trx, open.form.id, {
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
    await touchForm(trx, open, now);
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

const dayStart = (d: string) => (d.length === 10 ? `${d} 00:00:00` : d);
const dayEnd = (d: string) => (d.length === 10 ? `${d} 23:59:59` : d);

/** One form's part of the review union: its system columns, narrowed to the caller's review reach. */
function auditPart(ctx: AppContext, caller: Caller, form: ReviewForm, input: Partial<AuditInput>) {
  let query = recordsOf(ctx.db, form.id)
    .select([sql<number>`${sql.lit(form.id)}`.as('table_id'), ...AUDIT_COLUMNS])
    .where('is_delete', '=', 0)
    .where('tenant_id', '=', form.tenant_id);
  if (!caller.view.all) {
    // The org list repeats in every form's part: inlined (ids are integers) so that many forms cannot run
    // past the statement's parameter limit.
    const orgs = rowOrgIds(caller.view).filter((id) => Number.isSafeInteger(id));
    const self = caller.user.userId;
    query = query.where((eb) =>
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
    const pattern = likeContaining(input.keyword);
    query = query.where((eb) =>
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

/** What the review union needs of a select (or of a union of selects): more parts, and an alias. */
type UnionQuery<O> = Expression<O> & {
  unionAll(parts: ReadonlyArray<Expression<O>>): UnionQuery<O>;
  as<A extends string>(alias: A): AliasedSelectQueryBuilder<O, A>;
};

const unionOf = <O>(list: UnionQuery<O>[]): UnionQuery<O> => list.reduce((all, part) => all.unionAll([part]));

export function unionAll<DB, TB extends keyof DB, O>(
  db: Kysely<DB>,
  parts: SelectQueryBuilder<DB, TB, O>[],
): UnionQuery<O> {
  if (parts.length <= UNION_CHUNK) return unionOf<O>(parts);
  const chunks: UnionQuery<O>[] = [];
  for (let i = 0; i < parts.length; i += UNION_CHUNK) {
    const chunk = unionOf<O>(parts.slice(i, i + UNION_CHUNK)).as(`c${i / UNION_CHUNK}`);
    chunks.push(db.selectFrom(chunk).selectAll().$castTo<O>());
  }
  return unionOf(chunks);
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
  const db = withDataTables(ctx.db);
  const union = unionAll(
    db,
    forms.map(({ form }) => auditPart(ctx, caller, form, input)),
  ).as('u');
  const counted = await db
    .selectFrom(union)
    .select((eb) => eb.fn.countAll().as('total'))
    .executeTakeFirst();
  const total = Number(counted?.total ?? 0);
  const column = input.field && input.order ? own(AUDIT_SORT, input.field) : undefined;
  let query = db.selectFrom(union).selectAll();
  if (column) query = query.orderBy(sql.ref(column), input.order === input.descStr ? 'desc' : 'asc');
  const rows = await query
    .orderBy('submit_time', 'desc')
    .orderBy('id', 'desc')
    .limit(input.pageSize)
    .offset((input.page - 1) * input.pageSize)
    .execute();
  const titles = new Map(forms.map(({ form }) => [form.id, form.title]));
  const periods = await periodSummaries(
    ctx.db,
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
  const db = withDataTables(ctx.db);
  const union = unionAll(
    db,
    forms.map(({ form }) => auditPart(ctx, caller, form, {})),
  ).as('u');
  const counts = await db
    .selectFrom(union)
    .select((eb) => ['table_id', eb.fn.countAll().as('n')])
    .groupBy('table_id')
    .execute();
  const pending = new Map(counts.map((r) => [Number(r.table_id), Number(r.n)]));
  return forms.map(({ form }) => ({ value: form.id, label: form.title, pending: pending.get(form.id) ?? 0 }));
}
