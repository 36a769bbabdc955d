import { RECORD_STATUS } from '@shuzhi/contracts/diy-form';
import {
  type TaskReviewInput,
  type TaskReviewQuery,
  type TaskReviewRow,
  type TaskReviewStep,
  type TaskReviewStepQuery,
  taskReviewInputSchema,
} from '@shuzhi/contracts/diy-task-review';
import type { Locale, Localized } from '@shuzhi/contracts/i18n';
import { REALTIME_EVENTS, type RecordReviewedPayload } from '@shuzhi/contracts/realtime';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { orgInScope } from '../../platform/access/data-scope.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import type { DataRow } from '../../platform/diy/data-table.ts';
import { recordsOf, updateRecords } from '../../platform/diy/dynamic-table.ts';
import { FieldErrorsError } from '../../platform/diy/field-errors.ts';
import { type Caller, loadCaller } from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { emitToUser } from '../../platform/realtime/hub.ts';
import { openForm } from '../diy-data/diy-data.service.ts';
import { writeHistory } from '../diy-data/diy-record-history.ts';
import { assertPeriodNotClosed, touchForm } from '../diy-data/diy-review.ts';
import { taskForms } from './task-forms.ts';
import { visibleTask } from './task-read.ts';
import { type ReviewLevel, reviewGate, type UnderReview } from './task-review-state.ts';
import { loadOrgs } from './task-units.ts';

/**
 * Level-by-level review of a task (docs/tasks.md "Level-by-level review"): the review list, passing and
 * returning records, each record's steps. Who reviews a level: the users of that receiver's own unit (their org
 * or an extra org) holding `diyTask:review` — a level is reviewed by its own unit, not by a unit above that has
 * it in data scope, so no level is skipped; the last level (the task's creating unit) by whoever manages the
 * task. A return is the record's ordinary return (status 3, comment, history, the filer told live).
 */

type Trx = Transaction<Database>;

const COMMENT_REQUIRED: Localized = {
  'zh-CN': '退回时必须填写审核意见',
  en: 'Enter a comment to return a record',
  'zh-TW': '退回時必須填寫審核意見',
};

type Seen = { manage: boolean; caller: Caller };

/** Whether the caller reviews a level now: its own unit's receiver, or the task's last level when managing it. */
function reviewsLevel(seen: Seen, level: ReviewLevel | undefined): boolean {
  if (!level || !seen.caller.user.permissions.has('diyTask:review')) return false;
  return level.receiverId === null ? seen.manage : seen.caller.orgIds.includes(level.orgId as number);
}

const rowOf = (rec: UnderReview, title: string, seen: Seen): TaskReviewRow => ({
  tableId: rec.tableId,
  tableTitle: title,
  recordId: rec.id,
  status: RECORD_STATUS.submitted,
  submitTime: rec.submitTime,
  createUserName: rec.createUserName,
  receiverId: rec.filer.id,
  receiverName: rec.filer.org_name,
  orgName: rec.orgName,
  passed: rec.passed,
  levels: rec.levels.length,
  awaiting: rec.levels[rec.passed]?.orgName ?? null,
  canReview: reviewsLevel(seen, rec.levels[rec.passed]),
});

/**
 * `GET /api/diyTask/reviews?id=&mine=`: the task's records waiting in its review that the caller sees (the
 * whole task when managing it, else those filed under the receivers they see), oldest submission first;
 * `mine`: only those waiting for a level the caller reviews. T1054 when the task has no level review.
 */
export async function taskReviews(
  ctx: AppContext,
  user: AuthUser,
  q: TaskReviewQuery,
): Promise<TaskReviewRow[]> {
  const caller = await loadCaller(ctx, user);
  const { task, receivers, visible, manage } = await visibleTask(ctx, caller, q.id);
  if (task.level_review !== 1) throw new AppError('T1054');
  const forms = await taskForms(ctx.db, task.id);
  const orgs = await loadOrgs(ctx.db, user.tenantId);
  const gate = await reviewGate(ctx.db, task, forms, receivers, orgs);
  const seen = { manage, caller };
  const visibleIds = new Set(visible.map((r) => r.id));
  const titles = new Map(forms.map((f) => [f.tableId, f.title]));
  return gate.records
    .filter((rec) => manage || visibleIds.has(rec.filer.id))
    .map((rec) => rowOf(rec, titles.get(rec.tableId) ?? '', seen))
    .filter((row) => !q.mine || row.canReview)
    .sort((a, b) => (a.submitTime ?? '').localeCompare(b.submitTime ?? '') || a.recordId - b.recordId);
}

/** The task for a review step in the transaction: live and visible (T1000), level review (T1054), open (T1055). */
async function reviewTarget(
  ctx: AppContext,
  trx: Trx,
  user: AuthUser,
  input: { taskId: number; tableId: number },
) {
  const caller = await loadCaller(ctx, user, trx);
  const task = await trx
    .selectFrom('diy_task')
    .selectAll()
    .where('id', '=', input.taskId)
    .where('tenant_id', '=', user.tenantId)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  if (!task) throw new AppError('T1000');
  const receivers = await trx
    .selectFrom('diy_task_receiver')
    .selectAll()
    .where('task_id', '=', task.id)
    .execute();
  const manage = task.create_user_id === user.userId || orgInScope(caller.view, task.create_org_id);
  const own = receivers.some((r) => caller.orgIds.includes(r.org_id) || orgInScope(caller.view, r.org_id));
  if (!manage && !own) throw new AppError('T1000');
  if (task.level_review !== 1) throw new AppError('T1054');
  if (task.state !== 'open') throw new AppError('T1055');
  const forms = await taskForms(trx, task.id);
  const form = forms.find((f) => f.tableId === input.tableId);
  if (!form) throw new AppError('T1036');
  if (!form.active) throw new AppError('T1033', { title: form.title });
  const orgs = await loadOrgs(trx, user.tenantId);
  const gate = await reviewGate(trx, task, forms, receivers, orgs);
  return { caller, task, manage, gate };
}

/** T1052 when the record is there but no longer waiting (returned, approved, changed); T1050 otherwise. */
async function notUnderReview(trx: Trx, tenantId: number, tableId: number, id: number): Promise<never> {
  const row = await recordsOf(trx, tableId)
    .select(['id', 'status'])
    .where('id', '=', id)
    .where('tenant_id', '=', tenantId)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  throw new AppError(row && row.status !== RECORD_STATUS.submitted ? 'T1052' : 'T1050');
}

/**
 * `POST /api/diyTask/review` (diyTask:review): pass or return records of one form of the task, all or none.
 * Each record must wait for a level the caller reviews (T1051, naming the units they wait for). A pass is a
 * step; the last level's pass approves the record (status 2, as the form's own review does). A return needs a
 * comment and an open period (F1023) and returns the record to its filer. A record changed or reviewed by
 * someone else meanwhile → T1052.
 */
export async function reviewTaskRecords(
  ctx: AppContext,
  user: AuthUser,
  raw: TaskReviewInput,
  locale: Locale,
): Promise<void> {
  const input = taskReviewInputSchema.parse(raw);
  const comment = input.comment || null;
  if (input.action === 'return' && !comment)
    throw new FieldErrorsError({ comment: [COMMENT_REQUIRED[locale]] });
  const told: { filer: number; payload: RecordReviewedPayload }[] = [];
  await ctx.db.transaction().execute(async (trx) => {
    const { caller, task, manage, gate } = await reviewTarget(ctx, trx, user, input);
    const seen = { manage, caller };
    const byId = new Map(gate.records.filter((r) => r.tableId === input.tableId).map((r) => [r.id, r]));
    const ids = [...new Set(input.recordIds)];
    const found: UnderReview[] = [];
    for (const id of ids) {
      const rec = byId.get(id);
      if (!rec) await notUnderReview(trx, user.tenantId, input.tableId, id);
      found.push(rec as UnderReview);
    }
    const refused = found.filter((rec) => !reviewsLevel(seen, rec.levels[rec.passed]));
    if (refused.length > 0)
      throw new AppError('T1051', {
        names: [...new Set(refused.map((rec) => rec.levels[rec.passed]?.orgName ?? ''))].join('、'),
      });
    const open = await openForm(ctx, user, input.tableId, trx);
    const now = formatDateTime();
    for (const rec of found) {
      const level = rec.levels[rec.passed] as ReviewLevel;
      const last = rec.passed === rec.levels.length - 1;
      const finish = input.action === 'return' || last;
      const status = input.action === 'return' ? RECORD_STATUS.returned : RECORD_STATUS.approved;
      if (input.action === 'return')
        await assertPeriodNotClosed(trx, open, { period_id: rec.periodId } as DataRow);
      // Conditional on the version judged: a record changed or finished by someone else meanwhile is refused.
      const result = await updateRecords(
        trx,
        input.tableId,
        finish
          ? {
              status,
              audit_user_id: user.userId,
              audit_user_name: user.realName,
              audit_time: now,
              audit_comment: comment,
            }
          : { status: RECORD_STATUS.submitted },
      )
        .where('id', '=', rec.id)
        .where('version', '=', rec.version)
        .where('status', '=', RECORD_STATUS.submitted)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) throw new AppError('T1052');
      await trx
        .insertInto('diy_task_review')
        .values({
          id: ctx.newId(),
          tenant_id: task.tenant_id,
          task_id: task.id,
          table_id: input.tableId,
          record_id: rec.id,
          submission_id: rec.submission,
          filer_receiver_id: rec.filer.id,
          reviewer_receiver_id: level.receiverId,
          level: level.depth,
          org_name: level.orgName,
          action: input.action,
          comment,
          user_id: user.userId,
          user_name: user.realName,
          create_time: now,
        })
        .execute();
      // A middle level's pass is a step of the record's own history too (the record's status stays 待审核).
      if (!finish)
        await writeHistory(ctx, trx, open, rec.id, 'levelPass', [], rec.version, now, comment, level.orgName);
      if (finish) {
        const change = [{ field: 'status', label: '状态', before: RECORD_STATUS.submitted, after: status }];
        const action = input.action === 'return' ? 'return' : 'approve';
        await writeHistory(ctx, trx, open, rec.id, action, change, rec.version, now, comment, level.orgName);
        if (rec.createUserId !== null)
          told.push({
            filer: rec.createUserId,
            payload: {
              tableId: input.tableId,
              tableTitle: open.form.title,
              ids: [rec.id],
              action,
              comment,
              reviewerName: user.realName,
            },
          });
      }
    }
    await touchForm(trx, open, now);
  });
  for (const { filer, payload } of told) emitToUser(ctx, filer, REALTIME_EVENTS.recordReviewed, payload);
}

/**
 * `GET /api/diyTask/reviewSteps?id=&tableId=&recordId=`: every review step of a record in the task, oldest first,
 * for whoever sees the task and the record's filing unit (manage: all).
 */
export async function taskReviewSteps(
  ctx: AppContext,
  user: AuthUser,
  q: TaskReviewStepQuery,
): Promise<TaskReviewStep[]> {
  const caller = await loadCaller(ctx, user);
  const { task, visible, manage } = await visibleTask(ctx, caller, q.id);
  const visibleIds = new Set(visible.map((r) => r.id));
  const rows = await ctx.db
    .selectFrom('diy_task_review')
    .selectAll()
    .where('task_id', '=', task.id)
    .where('table_id', '=', q.tableId)
    .where('record_id', '=', q.recordId)
    .orderBy('id')
    .execute();
  return rows
    .filter((r) => manage || visibleIds.has(r.filer_receiver_id))
    .map((r) => ({
      id: r.id,
      action: r.action === 'return' ? 'return' : 'pass',
      orgName: r.org_name,
      level: r.level,
      comment: r.comment,
      userName: r.user_name,
      createTime: r.create_time,
      submissionId: r.submission_id,
    }));
}
