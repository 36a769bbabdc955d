import { RECORD_STATUS } from '@shuzhi/contracts/diy-form';
import type { Db } from '../../platform/db/db.ts';
import { recordsOf } from '../../platform/diy/dynamic-table.ts';
import type { ReceiverRow, TaskFormPeriod } from './task-progress.ts';
import type { TaskOrg } from './task-units.ts';

/**
 * Where each record of a level-review task stands (docs/tasks.md "Level-by-level review"): a record filed by a
 * receiving unit is passed in turn by every receiver above it in the task's tree, then by the task's creating
 * unit. The passes of the record's current submission count (`diy_task_review.submission_id`: the id of the
 * record's latest submit / zero / import step in `diy_record_history`); the levels are passed in order,
 * so the number of passes says which level the record waits for. The grid (`taskCells`) reads the gate: a
 * receiver's cell is `reviewing` while a record under it waits for the level above that receiver.
 */

export type ReviewTask = {
  id: number;
  tenant_id: number;
  create_time: string;
  create_org_name?: string | null;
};

/** A reviewing level: a receiver of the task, or (receiverId null) the task's creating unit at depth 0. */
export type ReviewLevel = { receiverId: number | null; orgId: number | null; orgName: string; depth: number };

export type UnderReview = {
  tableId: number;
  formIndex: number;
  id: number;
  version: number;
  /** The submission under review: the id of the record's latest submission step (0: none recorded). */
  submission: number;
  periodId: number | null;
  orgId: number;
  orgName: string | null;
  submitTime: string | null;
  createUserId: number | null;
  createUserName: string | null;
  filer: ReceiverRow;
  /** The levels in order: the filer's parent receiver … the top receiver, then the creating unit. */
  levels: ReviewLevel[];
  /** How many of them have passed the record's current submission. */
  passed: number;
};

export type ReviewGate = {
  records: UnderReview[];
  /** `receiverId:formIndex` → the unit the waiting record waits for (the receiver's cell shows `reviewing`). */
  waiting: Map<string, string>;
};

export const gateKey = (receiverId: number, formIndex: number) => `${receiverId}:${formIndex}`;

/** The levels above a filing receiver, nearest first, ending with the task's creating unit. */
export function levelsAbove(
  filer: ReceiverRow,
  byId: Map<number, ReceiverRow>,
  depthOf: Map<number, number>,
  task: ReviewTask,
): ReviewLevel[] {
  const out: ReviewLevel[] = [];
  for (let r = byId.get(filer.parent_id ?? 0); r; r = byId.get(r.parent_id ?? 0))
    out.push({ receiverId: r.id, orgId: r.org_id, orgName: r.org_name, depth: depthOf.get(r.id) ?? 1 });
  out.push({ receiverId: null, orgId: null, orgName: task.create_org_name ?? '', depth: 0 });
  return out;
}

/** Depth of each receiver: 1 at the top; a transferred part's successor beside its predecessor. */
export function receiverDepths(receivers: readonly ReceiverRow[]): Map<number, number> {
  const out = new Map<number, number>();
  // Rows come in creation order: a parent comes before the rows handed on from it.
  for (const r of receivers) out.set(r.id, r.parent_id === null ? 1 : (out.get(r.parent_id) ?? 0) + 1);
  return out;
}

/** The passes of the task by `tableId:recordId:submission`, as the set of reviewing levels (0: the creating unit). */
async function passesOf(db: Db, taskId: number): Promise<Map<string, Set<number>>> {
  const rows = await db
    .selectFrom('diy_task_review')
    .select(['table_id', 'record_id', 'submission_id', 'reviewer_receiver_id'])
    .where('task_id', '=', taskId)
    .where('action', '=', 'pass')
    .execute();
  const out = new Map<string, Set<number>>();
  for (const r of rows) {
    const key = `${r.table_id}:${r.record_id}:${r.submission_id}`;
    const set = out.get(key) ?? new Set<number>();
    set.add(Number(r.reviewer_receiver_id ?? 0));
    out.set(key, set);
  }
  return out;
}

/** Steps that file a record for review. */
const SUBMISSION_ACTIONS = ['submit', 'zero', 'import'];
const CHUNK = 1000;

/** Each record's latest submission step id (diy_record_history), by record id. */
async function submissionsOf(db: Db, tableId: number, ids: readonly number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await db
      .selectFrom('diy_record_history')
      .select((eb) => ['record_id', eb.fn.max<number>('id').as('latest')])
      .where('table_id', '=', tableId)
      .where('record_id', 'in', ids.slice(i, i + CHUNK))
      .where('action', 'in', SUBMISSION_ACTIONS)
      .groupBy('record_id')
      .execute();
    for (const r of rows) out.set(Number(r.record_id), Number(r.latest));
  }
  return out;
}

/** The submitted records of the task's forms under review, each with its filer, levels and passes. */
export async function reviewGate(
  db: Db,
  task: ReviewTask,
  forms: readonly TaskFormPeriod[],
  receivers: readonly ReceiverRow[],
  orgs: Map<number, TaskOrg>,
): Promise<ReviewGate> {
  const byId = new Map(receivers.map((r) => [r.id, r]));
  const byOrg = new Map<number, ReceiverRow>();
  for (const r of receivers) if (r.state !== 'transferred') byOrg.set(r.org_id, r);
  const depthOf = receiverDepths(receivers);
  const passes = await passesOf(db, task.id);
  const records: UnderReview[] = [];
  const waiting = new Map<string, string>();
  for (const [formIndex, form] of forms.entries()) {
    if (form.active === false) continue;
    let query = recordsOf(db, form.tableId)
      .select([
        'id',
        'version',
        'period_id',
        'create_org_id',
        'create_org_name',
        'submit_time',
        'create_user_id',
        'create_user_name',
      ])
      .where('tenant_id', '=', task.tenant_id)
      .where('is_delete', '=', 0)
      .where('status', '=', RECORD_STATUS.submitted)
      .where('create_org_id', 'is not', null);
    query =
      form.periodId === null
        ? query.where('create_time', '>=', task.create_time)
        : query.where('period_id', '=', form.periodId);
    const rows = await query.orderBy('id').execute();
    const submissions = await submissionsOf(
      db,
      form.tableId,
      rows.map((r) => Number(r.id)),
    );
    for (const row of rows) {
      const orgId = Number(row.create_org_id);
      const chain = orgs.get(orgId)?.chain ?? [orgId];
      let filer: ReceiverRow | undefined;
      for (let i = chain.length - 1; i >= 0 && !filer; i--) filer = byOrg.get(chain[i] as number);
      if (filer?.state !== 'received') continue;
      const levels = levelsAbove(filer, byId, depthOf, task);
      const submission = submissions.get(Number(row.id)) ?? 0;
      const done = passes.get(`${form.tableId}:${row.id}:${submission}`) ?? new Set<number>();
      let passed = 0;
      while (passed < levels.length && done.has((levels[passed] as ReviewLevel).receiverId ?? 0)) passed++;
      records.push({
        tableId: form.tableId,
        formIndex,
        id: Number(row.id),
        version: Number(row.version),
        submission,
        periodId: row.period_id === null ? null : Number(row.period_id),
        orgId,
        orgName: row.create_org_name,
        submitTime: row.submit_time,
        createUserId: row.create_user_id === null ? null : Number(row.create_user_id),
        createUserName: row.create_user_name,
        filer,
        levels,
        passed,
      });
      // The filer and each receiver above it whose level above has not passed the record wait on it.
      const awaiting = levels[passed]?.orgName ?? '';
      const subjects = [filer.id, ...levels.slice(0, -1).map((l) => l.receiverId as number)];
      for (let i = passed; i < subjects.length; i++) {
        const key = gateKey(subjects[i] as number, formIndex);
        if (!waiting.has(key)) waiting.set(key, awaiting);
      }
    }
  }
  return { records, waiting };
}
