import type { ReviewLevelTurnaround } from '@shuzhi/contracts/diy-task-lifecycle';
import type { Db } from '../../platform/db/db.ts';
import { parseDateTime } from '../../platform/db/time.ts';
import type { TaskOrg } from './task-units.ts';

const HOUR_MS = 3_600_000;
/** Submission ids per history query. */
const ID_CHUNK = 1000;

/**
 * Review turnaround per level of a level-review task (docs/tasks.md "Timeliness"), from its `diy_task_review`
 * rows (the same passes the records' history shows as `levelPass` steps) of the filing receivers `filerIds`: each
 * level's pass or return is timed from the record reaching that level — the submission judged
 * (`submission_id`, a `diy_record_history` step) for the first level, the previous level's pass of the same
 * submission for the next. Levels lowest (deepest) first; the overall `avgReviewHours` is not affected.
 */
export async function reviewTurnaround(
  db: Db,
  taskId: number,
  filerIds: ReadonlySet<number>,
  receivers: readonly { id: number; org_id: number }[],
  orgs: ReadonlyMap<number, TaskOrg>,
): Promise<ReviewLevelTurnaround[]> {
  const rows = (
    await db
      .selectFrom('diy_task_review')
      .select(['id', 'table_id', 'record_id', 'submission_id', 'filer_receiver_id', 'reviewer_receiver_id'])
      .select(['level', 'action', 'create_time'])
      .where('task_id', '=', taskId)
      .orderBy('id')
      .execute()
  ).filter((r) => filerIds.has(Number(r.filer_receiver_id)));
  if (rows.length === 0) return [];
  const submissionIds = [...new Set(rows.map((r) => Number(r.submission_id)))];
  const submitted = new Map<number, number>();
  for (let i = 0; i < submissionIds.length; i += ID_CHUNK)
    for (const h of await db
      .selectFrom('diy_record_history')
      .select(['id', 'create_time'])
      .where('id', 'in', submissionIds.slice(i, i + ID_CHUNK))
      .execute())
      submitted.set(Number(h.id), parseDateTime(h.create_time).getTime());
  const orgOfReceiver = new Map(receivers.map((r) => [r.id, r.org_id]));
  const reached = new Map<string, number>();
  const levels = new Map<
    number,
    { orgType: string | null; passes: number; returns: number; hours: number }
  >();
  for (const r of rows) {
    const key = `${r.table_id}:${r.record_id}:${r.submission_id}`;
    const at = parseDateTime(r.create_time).getTime();
    const from = reached.get(key) ?? submitted.get(Number(r.submission_id));
    if (r.action === 'pass') reached.set(key, at);
    if (from === undefined) continue;
    const level = Number(r.level);
    const reviewer =
      r.reviewer_receiver_id === null ? undefined : orgOfReceiver.get(Number(r.reviewer_receiver_id));
    const sum = levels.get(level) ?? {
      orgType: reviewer === undefined ? null : (orgs.get(reviewer)?.type ?? null),
      passes: 0,
      returns: 0,
      hours: 0,
    };
    if (r.action === 'return') sum.returns += 1;
    else sum.passes += 1;
    sum.hours += (at - from) / HOUR_MS;
    levels.set(level, sum);
  }
  return [...levels]
    .sort(([a], [b]) => b - a)
    .map(([level, s]) => ({
      level,
      orgType: s.orgType,
      passes: s.passes,
      returns: s.returns,
      avgReviewHours: Math.round((s.hours / (s.passes + s.returns)) * 10) / 10,
    }));
}
