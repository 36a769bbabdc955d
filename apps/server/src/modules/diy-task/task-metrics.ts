import type { Timeliness } from '@shuzhi/contracts/diy-task-lifecycle';
import type { Db } from '../../platform/db/db.ts';
import { parseDateTime } from '../../platform/db/time.ts';
import { recordsOf } from '../../platform/diy/dynamic-table.ts';
import type { ReceiverRow, TaskFormPeriod } from './task-progress.ts';
import { gateKey } from './task-review-state.ts';
import type { TaskOrg } from './task-units.ts';

/**
 * Timeliness of a task (docs/tasks.md "Timeliness"), computed from the forms' records of the task's period and
 * their own history (`diy_record_history`), the task's zero reports and the receivers' due times — never from a
 * counter of its own. Kept apart from the routes so that dashboards can call `taskTimeliness` as it is.
 *
 * Per filing receiver (state `received`) and live form, a cell is asked. Its first submission is the earliest
 * `submit` / `zero` / `registerSubmit` / `import` step of any record behind it (its unit's own records and those of
 * units below it, as in the completeness grid), or else the task's zero report. On time: first submission at
 * or before the receiver's due time. Returns: `return` steps per record submitted. Review turnaround: from a
 * submission to the `approve` or `return` step that followed it.
 */

const SUBMIT_ACTIONS = ['submit', 'zero', 'registerSubmit', 'import'];
const REVIEW_ACTIONS = ['approve', 'return'];
const HOUR_MS = 3_600_000;
/** Record ids per history query. */
const ID_CHUNK = 1000;

type RecordTrail = {
  orgId: number;
  firstSubmit: number | null;
  returns: number;
  reviews: number[];
  /** Users of its submit steps. */
  fillers: number[];
};

const NO_FILLERS: ReadonlySet<number> = new Set();

/** Sums of a group; `timeliness()` turns them into rates and averages. */
export class TimelinessSum {
  expected = 0;
  submitted = 0;
  onTime = 0;
  private hoursBeforeDue = 0;
  /** Records submitted, and the users who submitted them (efficiency analysis: records per filler). */
  records = 0;
  /** Made on the first filler: a large task's sums are mostly of cells without records. */
  private fillerIds: Set<number> | null = null;
  private returns = 0;
  private reviewHours = 0;
  private reviewCount = 0;

  addCell(cell: CellTrail, dueMs: number): void {
    this.expected += 1;
    this.records += cell.records;
    this.returns += cell.returns;
    for (const id of cell.fillers) this.addFiller(id);
    for (const h of cell.reviews) {
      this.reviewHours += h;
      this.reviewCount += 1;
    }
    if (cell.firstSubmit === null) return;
    this.submitted += 1;
    if (cell.firstSubmit <= dueMs) this.onTime += 1;
    this.hoursBeforeDue += (dueMs - cell.firstSubmit) / HOUR_MS;
  }

  add(other: TimelinessSum): void {
    this.expected += other.expected;
    this.submitted += other.submitted;
    this.onTime += other.onTime;
    this.hoursBeforeDue += other.hoursBeforeDue;
    this.records += other.records;
    this.returns += other.returns;
    this.reviewHours += other.reviewHours;
    this.reviewCount += other.reviewCount;
    if (other.fillerIds) for (const id of other.fillerIds) this.addFiller(id);
  }

  get fillers(): ReadonlySet<number> {
    return this.fillerIds ?? NO_FILLERS;
  }

  private addFiller(id: number): void {
    this.fillerIds ??= new Set();
    this.fillerIds.add(id);
  }

  timeliness(): Timeliness {
    const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;
    return {
      expected: this.expected,
      submitted: this.submitted,
      onTime: this.onTime,
      onTimeRate: this.expected > 0 ? round(this.onTime / this.expected, 4) : null,
      avgHoursBeforeDue: this.submitted > 0 ? round(this.hoursBeforeDue / this.submitted, 1) : null,
      returnsPerRecord: this.records > 0 ? round(this.returns / this.records, 2) : null,
      avgReviewHours: this.reviewCount > 0 ? round(this.reviewHours / this.reviewCount, 1) : null,
    };
  }
}

/** A receiver's filings of one form: first submission (ms), records submitted, returns, review hours, fillers. */
export type CellTrail = {
  firstSubmit: number | null;
  records: number;
  returns: number;
  reviews: readonly number[];
  fillers: readonly number[];
};

/**
 * Live records of a form — of the periods `periodIds`, or (a form without periods) created since `since` — with
 * their submission, returns and reviews from their history, by record id; each trail knows its period.
 */
async function readTrails(
  db: Db,
  tenantId: number,
  tableId: number,
  periodIds: readonly number[] | null,
  since: string,
  orgIds: readonly number[] | null,
): Promise<Map<number, RecordTrail & { periodId: number | null }>> {
  let records = recordsOf(db, tableId)
    .select(['id', 'create_org_id', 'period_id'])
    .where('tenant_id', '=', tenantId)
    .where('is_delete', '=', 0)
    .where('create_org_id', 'is not', null);
  records =
    periodIds === null
      ? records.where('create_time', '>=', since)
      : records.where('period_id', 'in', [...periodIds]);
  if (orgIds !== null) records = records.where('create_org_id', 'in', [...orgIds]);
  const out = new Map<number, RecordTrail & { periodId: number | null }>();
  for (const r of await records.execute())
    out.set(Number(r.id), {
      orgId: Number(r.create_org_id),
      periodId: r.period_id === null ? null : Number(r.period_id),
      firstSubmit: null,
      returns: 0,
      reviews: [],
      fillers: [],
    });
  if (out.size === 0) return out;
  const ids = [...out.keys()];
  const steps = [];
  for (let i = 0; i < ids.length; i += ID_CHUNK)
    steps.push(
      ...(await db
        .selectFrom('diy_record_history')
        .select(['id', 'record_id', 'action', 'user_id', 'create_time'])
        .where('table_id', '=', tableId)
        .where('action', 'in', [...SUBMIT_ACTIONS, ...REVIEW_ACTIONS])
        .where('record_id', 'in', ids.slice(i, i + ID_CHUNK))
        .execute()),
    );
  steps.sort((x, y) => x.id - y.id);
  const pending = new Map<number, number>();
  for (const step of steps) {
    const trail = out.get(Number(step.record_id));
    if (!trail) continue;
    const at = parseDateTime(step.create_time).getTime();
    if (SUBMIT_ACTIONS.includes(step.action)) {
      if (trail.firstSubmit === null || at < trail.firstSubmit) trail.firstSubmit = at;
      if (step.user_id !== null) trail.fillers.push(Number(step.user_id));
      pending.set(Number(step.record_id), at);
      continue;
    }
    if (step.action === 'return') trail.returns += 1;
    const from = pending.get(Number(step.record_id));
    if (from !== undefined) {
      trail.reviews.push((at - from) / HOUR_MS);
      pending.delete(Number(step.record_id));
    }
  }
  return out;
}

/**
 * The record trails of one call (read-only once made), shared by the tasks that ask the same form and period:
 * efficiency analysis measures many tasks, and tasks of one form often ask the same period. `prefetch` reads every
 * period of a form the tasks ask in one records query (and their history in chunks of ids); a form without
 * periods is read per `since` (the task's creation), as before.
 */
export class RecordTrails {
  private readonly sets = new Map<string, Promise<Map<number, RecordTrail>>>();

  /**
   * `orgIds`: when given, only records filed by these units are read — the units under every receiver the call
   * measures (a record elsewhere never reaches a cell). Null: all of the period's records.
   */
  constructor(
    private readonly db: Db,
    private readonly tenantId: number,
    private readonly orgIds: readonly number[] | null = null,
  ) {}

  private static key(form: TaskFormPeriod, since: string): string {
    return form.periodId === null ? `${form.tableId}@${since}` : `${form.tableId}:${form.periodId}`;
  }

  /** Reads the periods of `forms` not read yet: one records query per form. */
  async prefetch(forms: readonly TaskFormPeriod[]): Promise<void> {
    const periods = new Map<number, Set<number>>();
    for (const form of forms) {
      if (form.periodId === null || this.sets.has(RecordTrails.key(form, ''))) continue;
      const ids = periods.get(form.tableId) ?? new Set<number>();
      ids.add(form.periodId);
      periods.set(form.tableId, ids);
    }
    const loads: Promise<unknown>[] = [];
    for (const [tableId, ids] of periods) {
      const all = readTrails(this.db, this.tenantId, tableId, [...ids], '', this.orgIds);
      loads.push(all);
      for (const periodId of ids)
        this.sets.set(
          RecordTrails.key({ tableId, periodId }, ''),
          all.then((trails) => new Map([...trails].filter(([, t]) => t.periodId === periodId))),
        );
    }
    await Promise.all(loads);
  }

  /** The trails of the form's period (without periods: of the records created since `since`). */
  of(form: TaskFormPeriod, since: string): Promise<Map<number, RecordTrail>> {
    const key = RecordTrails.key(form, since);
    let set = this.sets.get(key);
    if (!set) {
      set = readTrails(
        this.db,
        this.tenantId,
        form.tableId,
        form.periodId === null ? null : [form.periodId],
        since,
        this.orgIds,
      );
      this.sets.set(key, set);
    }
    return set;
  }
}

/** Zero reports of the task: `receiverId:tableId` → when declared (ms). */
async function zeroTimes(db: Db, taskId: number): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('diy_task_zero')
    .select(['receiver_id', 'table_id', 'create_time'])
    .where('task_id', '=', taskId)
    .execute();
  return new Map(rows.map((z) => [`${z.receiver_id}:${z.table_id}`, parseDateTime(z.create_time).getTime()]));
}

export type UnitTimeliness<R = ReceiverRow> = { receiver: R; sum: TimelinessSum };

/** The review hours and fillers of a cell without records (read only). */
const NONE: readonly number[] = [];

/**
 * Timeliness of each filing receiver among `receivers` (the task's receivers the caller may see) over the
 * task's live forms; levels and the total are sums of these (`TimelinessSum.add`). In a level-review task,
 * `waiting` (the review gate's `receiverId:formIndex` keys, task-review-state.ts) holds the cells whose filing
 * the level above has not passed yet: they count as not submitted until it does (their time stays the filer's).
 * `trails`: the records' trails, shared between calls that measure tasks of the same forms and periods (the
 * tenant's records of the period, or those of the units under the receivers of every such call).
 */
export async function taskTimeliness<R extends Pick<ReceiverRow, 'id' | 'org_id' | 'state' | 'due_time'>>(
  db: Db,
  task: { id: number; tenant_id: number; create_time: string },
  forms: readonly TaskFormPeriod[],
  receivers: readonly R[],
  orgs: Map<number, TaskOrg>,
  waiting: ReadonlyMap<string, string> = new Map(),
  trails: RecordTrails = new RecordTrails(db, task.tenant_id),
): Promise<UnitTimeliness<R>[]> {
  const filers = receivers.filter((r) => r.state === 'received');
  const filerOfOrg = new Map(filers.map((r) => [r.org_id, r]));
  const zeros = await zeroTimes(db, task.id);
  const units = new Map(filers.map((r) => [r.id, new TimelinessSum()]));
  // Receivers mostly share a few due times: each is parsed once.
  const dueMs = new Map<string, number>();
  const due = (text: string) => {
    let ms = dueMs.get(text);
    if (ms === undefined) {
      ms = parseDateTime(text).getTime();
      dueMs.set(text, ms);
    }
    return ms;
  };
  for (const [formIndex, form] of forms.entries()) {
    if (form.active === false) continue;
    // Cells with records behind them; the others are empty (most of a large task's before the due time).
    const cells = new Map<number, CellTrail & { reviews: number[]; fillers: number[] }>();
    for (const trail of (await trails.of(form, task.create_time)).values()) {
      for (const orgId of orgs.get(trail.orgId)?.chain ?? [trail.orgId]) {
        const receiver = filerOfOrg.get(orgId);
        if (!receiver) continue;
        let cell = cells.get(receiver.id);
        if (!cell) {
          cell = { firstSubmit: null, records: 0, returns: 0, reviews: [], fillers: [] };
          cells.set(receiver.id, cell);
        }
        if (trail.firstSubmit !== null) {
          cell.records += 1;
          if (cell.firstSubmit === null || trail.firstSubmit < cell.firstSubmit)
            cell.firstSubmit = trail.firstSubmit;
        }
        cell.returns += trail.returns;
        cell.reviews.push(...trail.reviews);
        cell.fillers.push(...trail.fillers);
      }
    }
    for (const r of filers) {
      const cell = cells.get(r.id) ?? {
        firstSubmit: null,
        records: 0,
        returns: 0,
        reviews: NONE,
        fillers: NONE,
      };
      if (waiting.size > 0 && waiting.has(gateKey(r.id, formIndex))) cell.firstSubmit = null;
      else if (cell.firstSubmit === null && zeros.size > 0)
        cell.firstSubmit = zeros.get(`${r.id}:${form.tableId}`) ?? null;
      units.get(r.id)?.addCell(cell, due(r.due_time));
    }
  }
  return filers.map((receiver) => ({ receiver, sum: units.get(receiver.id) as TimelinessSum }));
}
