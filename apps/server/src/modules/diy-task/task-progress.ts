import { RECORD_STATUS } from '@shuzhi/contracts/diy-form';
import type { CellState, GridCell, ReceiverState } from '@shuzhi/contracts/diy-task';
import type { Selectable } from 'kysely';
import type { DiyTaskReceiverTable } from '../../db/schema.ts';
import type { Db } from '../../platform/db/db.ts';
import { parseDateTime } from '../../platform/db/time.ts';
import { recordsOf } from '../../platform/diy/dynamic-table.ts';
import { gateKey, type ReviewTask, reviewGate } from './task-review-state.ts';
import type { TaskOrg } from './task-units.ts';

/**
 * Where each receiver stands on each form of a task (docs/tasks.md "Completeness"), from the forms' records
 * of the task's period: a unit's own records and those of the units below it count for it (as in roll-ups).
 * One GROUP BY per form (by filing org and status); the rest is folding in memory.
 */

export type ReceiverRow = Selectable<DiyTaskReceiverTable>;
/** `active: false`: the form was disabled, unpublished or deleted while the task was open (cells formOff). */
export type TaskFormPeriod = { tableId: number; periodId: number | null; active?: boolean };

type Filing = { approved: number; submitted: number; returned: number; draft: number; newest: number };
const emptyFiling = (): Filing => ({ approved: 0, submitted: 0, returned: 0, draft: 0, newest: 0 });

const DAY_MS = 86_400_000;

/** Live records of a form in the period (without a period: filed since the task was made), by org. */
async function filingsByOrg(
  db: Db,
  tenantId: number,
  form: TaskFormPeriod,
  since: string,
): Promise<Map<number, Filing>> {
  let query = recordsOf(db, form.tableId)
    .select((eb) => [
      'create_org_id',
      'status',
      eb.fn.countAll<number>().as('n'),
      eb.fn.max<number>('id').as('newest'),
    ])
    .where('tenant_id', '=', tenantId)
    .where('is_delete', '=', 0)
    .where('create_org_id', 'is not', null);
  query =
    form.periodId === null
      ? query.where('create_time', '>=', since)
      : query.where('period_id', '=', form.periodId);
  const rows = await query.groupBy(['create_org_id', 'status']).execute();
  const out = new Map<number, Filing>();
  for (const row of rows) {
    const orgId = Number(row.create_org_id);
    const f = out.get(orgId) ?? emptyFiling();
    const n = Number(row.n);
    if (row.status === RECORD_STATUS.approved) f.approved += n;
    else if (row.status === RECORD_STATUS.submitted) f.submitted += n;
    else if (row.status === RECORD_STATUS.returned) f.returned += n;
    else f.draft += n;
    f.newest = Math.max(f.newest, Number(row.newest));
    out.set(orgId, f);
  }
  return out;
}

/** Filings of the receivers' units: each filing org's records added to every receiving unit at or above it. */
function foldToReceivers(
  filings: Map<number, Filing>,
  receiverOrgs: ReadonlySet<number>,
  orgs: Map<number, TaskOrg>,
): Map<number, Filing> {
  const out = new Map<number, Filing>();
  for (const [orgId, f] of filings) {
    for (const a of orgs.get(orgId)?.chain ?? [orgId]) {
      if (!receiverOrgs.has(a)) continue;
      const g = out.get(a) ?? emptyFiling();
      g.approved += f.approved;
      g.submitted += f.submitted;
      g.returned += f.returned;
      g.draft += f.draft;
      g.newest = Math.max(g.newest, f.newest);
      out.set(a, g);
    }
  }
  return out;
}

const isDone = (cell: GridCell) =>
  cell.state === 'submitted' ||
  cell.state === 'approved' ||
  cell.state === 'zero' ||
  (cell.total !== null && cell.total > 0 && cell.done === cell.total);

/** Whole days past a due time (0: not past), each distinct due time parsed once per call of `taskCells`. */
function latenessOf(now: Date): (due: string) => number {
  const known = new Map<string, number>();
  return (due) => {
    let late = known.get(due);
    if (late === undefined) {
      const past = now.getTime() - parseDateTime(due).getTime();
      late = past > 0 ? Math.max(1, Math.ceil(past / DAY_MS)) : 0;
      known.set(due, late);
    }
    return late;
  };
}

const offCell = (): GridCell => ({ state: 'formOff', daysLate: 0, done: null, total: null, recordId: null });

/** The cell of a unit that files itself: its records first, then its zero report (`zero`: the note). */
function filerCell(f: Filing | undefined, late: number, zero: string | undefined): GridCell {
  const recordId = f && f.newest > 0 ? f.newest : null;
  const cell = (state: CellState, daysLate = 0): GridCell => ({
    state,
    daysLate,
    done: null,
    total: null,
    recordId,
  });
  if (f?.approved) return cell('approved');
  if (f?.submitted) return cell('submitted');
  if (f?.returned) return cell('returned');
  if (zero !== undefined) return { ...cell('zero'), zeroNote: zero };
  if (late > 0) return cell('overdue', late);
  return cell(f?.draft ? 'filling' : 'notStarted');
}

/** The cell of a unit that handed on: how many of its receivers below are done. */
function handedOnCell(children: GridCell[], late: number): GridCell {
  const total = children.length;
  const done = children.filter(isDone).length;
  const base = { done, total, recordId: null, daysLate: 0 };
  if (total > 0 && done === total) {
    if (children.every((c) => c.state === 'zero')) return { ...base, state: 'zero' };
    const approved = children.every((c) => c.state === 'approved' || c.state === 'zero');
    return { ...base, state: approved ? 'approved' : 'submitted' };
  }
  if (late > 0) return { ...base, state: 'overdue', daysLate: late };
  return { ...base, state: children.some((c) => c.state !== 'notStarted') ? 'filling' : 'notStarted' };
}

/**
 * Cells by receiver id, one per form in the order given. In a level-review task (`level_review = 1`) a cell
 * that would be 已提交 is `reviewing` while a record under it waits for the level above (task-review-state.ts),
 * and is not counted done upward until that level passes it.
 */
export async function taskCells(
  db: Db,
  task: ReviewTask & { level_review?: number },
  forms: readonly TaskFormPeriod[],
  receivers: readonly ReceiverRow[],
  orgs: Map<number, TaskOrg>,
  now: Date = new Date(),
): Promise<Map<number, GridCell[]>> {
  const receiverOrgs = new Set(receivers.map((r) => r.org_id));
  const perForm = await Promise.all(
    forms.map(async (form) =>
      form.active === false
        ? new Map<number, Filing>()
        : foldToReceivers(await filingsByOrg(db, task.tenant_id, form, task.create_time), receiverOrgs, orgs),
    ),
  );
  const zeros = await zeroReports(db, task.id);
  const waiting =
    task.level_review === 1 ? (await reviewGate(db, task, forms, receivers, orgs)).waiting : new Map();
  const gated = (r: ReceiverRow, list: GridCell[]): GridCell[] =>
    waiting.size === 0
      ? list
      : list.map((cell, i) => {
          const awaiting = waiting.get(gateKey(r.id, i));
          return awaiting !== undefined && cell.state === 'submitted'
            ? { ...cell, state: 'reviewing', awaiting }
            : cell;
        });
  const children = new Map<number, ReceiverRow[]>();
  for (const r of receivers) {
    if (r.parent_id === null || r.state === 'transferred') continue;
    const list = children.get(r.parent_id) ?? [];
    list.push(r);
    children.set(r.parent_id, list);
  }
  const cells = new Map<number, GridCell[]>();
  const lateness = latenessOf(now);
  const cellsOf = (r: ReceiverRow): GridCell[] => {
    const known = cells.get(r.id);
    if (known) return known;
    let out: GridCell[];
    if (r.state === 'transferred') {
      out = forms.map(() => ({ state: 'transferred', daysLate: 0, done: null, total: null, recordId: null }));
    } else if (r.state === 'handedOn') {
      const below = (children.get(r.id) ?? []).map(cellsOf);
      const late = lateness(r.due_time);
      out = gated(
        r,
        forms.map((form, i) =>
          form.active === false
            ? offCell()
            : handedOnCell(
                below.map((c) => c[i] as GridCell),
                late,
              ),
        ),
      );
    } else {
      const late = lateness(r.due_time);
      out = gated(
        r,
        perForm.map((filings, i) => {
          const form = forms[i] as TaskFormPeriod;
          if (form.active === false) return offCell();
          return filerCell(filings.get(r.org_id), late, zeros.get(`${r.id}:${form.tableId}`));
        }),
      );
    }
    cells.set(r.id, out);
    return out;
  };
  for (const r of receivers) cellsOf(r);
  return cells;
}

/** Zero reports of a task, by `receiverId:tableId`, with their notes. */
async function zeroReports(db: Db, taskId: number): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('diy_task_zero')
    .select(['receiver_id', 'table_id', 'note'])
    .where('task_id', '=', taskId)
    .execute();
  return new Map(rows.map((z) => [`${z.receiver_id}:${z.table_id}`, z.note]));
}

/**
 * A receiver is done when every form's cell is submitted, approved or a zero report (or all its units below
 * are); the cells of forms taken off (formOff) are left out.
 */
export const receiverDone = (cells: readonly GridCell[]) => {
  const live = cells.filter((c) => c.state !== 'formOff');
  return live.length > 0 && live.every(isDone);
};

/**
 * A receiver has done its own part: as `receiverDone`, a filing still under review above it included (urging
 * and 我的任务 ask the unit for what it has not filed, not for its reviewers' work).
 */
export const receiverFiled = (cells: readonly GridCell[]) =>
  receiverDone(cells.map((c) => (c.state === 'reviewing' ? { ...c, state: 'submitted' } : c)));

export const countsFiling = (state: ReceiverState) => state === 'received';
