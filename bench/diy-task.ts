/**
 * `npm run bench:task -w bench`: tasks at district scale (issue 19 §9). Adds `BENCH_UNITS` (default 5,000)
 * communities below the demo district's streets in a temporary SQLite database, lets three published demo forms
 * be filled by everyone, then times through the real routes: creating one task for those three forms to every
 * community (one transaction, notices included), and the completeness grid of that task (5,000 receivers × 3
 * forms) after a third of the units filed a record of each form. Prints the figures; targets: create under 3 s,
 * grid p50 under 500 ms; and the timeliness metrics of that task (each filed record with its submit step).
 * Nothing here asserts a timing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TaskGrid } from '@shuzhi/contracts/diy-task';
import type { TaskMetrics } from '@shuzhi/contracts/diy-task-lifecycle';
import { buildApp } from '../apps/server/src/app.ts';
import { runTaskUrges } from '../apps/server/src/modules/diy-task/task-urge.job.ts';
import { loadConfig } from '../apps/server/src/platform/config/config.ts';
import { formatDateTime, parseDateTime } from '../apps/server/src/platform/db/time.ts';
import { withDataTables } from '../apps/server/src/platform/diy/dynamic-table.ts';
import { body, login, setConfig } from '../apps/server/test/helpers.ts';
import { addCommunities } from './bench-units.ts';

type App = Awaited<ReturnType<typeof buildApp>>;

const UNITS = Number(process.env.BENCH_UNITS ?? 5_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 20);

function percentile(times: number[], q: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

/** A third of the units file one submitted record of each form in the task's period, in the task's tenant. */
async function fileRecords(
  app: App,
  tenantId: number,
  forms: { tableId: number; periodId: number | null }[],
  units: number[],
) {
  const db = withDataTables(app.ctx.db);
  const now = formatDateTime();
  for (const form of forms) {
    const rows = units
      .filter((_, i) => i % 3 === 0)
      .map((orgId) => ({
        id: app.ctx.newId(),
        tenant_id: tenantId,
        version: 1,
        status: 1,
        create_time: now,
        is_delete: 0,
        is_zero: 0,
        late: 0,
        create_org_id: orgId,
        period_id: form.periodId,
      }));
    const table = `diy_data_${form.tableId}` as const;
    // Each record's own history: the submit step the timeliness metrics read.
    const steps = rows.map((r) => ({
      id: app.ctx.newId(),
      tenant_id: tenantId,
      table_id: form.tableId,
      record_id: r.id,
      action: 'submit',
      changes: '[]',
      comment: null,
      version: 1,
      user_id: null,
      user_name: null,
      create_time: now,
    }));
    for (let i = 0; i < rows.length; i += 500) {
      await db
        .insertInto(table)
        .values(rows.slice(i, i + 500))
        .execute();
      await app.ctx.db
        .insertInto('diy_record_history')
        .values(steps.slice(i, i + 500))
        .execute();
    }
  }
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'shuzhi-bench-task-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const app = await buildApp({ config, logger: false, regionSource: null });
  try {
    await setConfig(app, 'sys_captcha', 'false');
    const units = await addCommunities(app, UNITS);
    const forms = await app.ctx.db
      .selectFrom('diy_table')
      .select('id')
      .where('report_type', '=', 1)
      .where('version', '>', 0)
      .orderBy('id')
      .limit(3)
      .execute();
    await app.ctx.db
      .updateTable('diy_table')
      .set({
        fillers: JSON.stringify({ all: true, orgIds: [], roleIds: [], userIds: [], enterprises: false }),
      })
      .where(
        'id',
        'in',
        forms.map((f) => f.id),
      )
      .execute();
    const token = (await login(app, 'admin')).accessToken;
    const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
      const started = performance.now();
      const response = await app.inject({
        method,
        url,
        payload,
        headers: { authorization: `Bearer ${token}` },
      });
      const ms = performance.now() - started;
      const envelope = body<unknown>(response);
      if (envelope.code !== 200) throw new Error(`${url}: ${JSON.stringify(envelope).slice(0, 300)}`);
      return { ms, result: envelope.result };
    };
    const due = formatDateTime(new Date(Date.now() + 7 * 86_400_000)).slice(0, 16);
    const created = await call('POST', '/api/diyTask/add', {
      title: '压测任务',
      forms: forms.map((f) => ({ tableId: f.id })),
      dueTime: due,
      receivers: { orgIds: units },
    });
    const taskId = created.result as number;
    const receivers = await app.ctx.db
      .selectFrom('diy_task_receiver')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('task_id', '=', taskId)
      .executeTakeFirstOrThrow();
    console.log(
      `create: ${created.ms.toFixed(0)} ms for ${receivers.n} receivers × ${forms.length} forms (target < 3000 ms)`,
    );
    const taskForms = await app.ctx.db
      .selectFrom('diy_task_form')
      .select(['table_id as tableId', 'period_id as periodId'])
      .where('task_id', '=', taskId)
      .execute();
    // The records belong to the task's tenant (the demo district's, not tenant 1): the grid and the metrics
    // read a tenant's records only.
    const task = await app.ctx.db
      .selectFrom('diy_task')
      .select('tenant_id')
      .where('id', '=', taskId)
      .executeTakeFirstOrThrow();
    await fileRecords(app, task.tenant_id, taskForms, units);
    const filed = taskForms.length * units.filter((_, i) => i % 3 === 0).length;
    const grid = (await call('GET', `/api/diyTask/grid?id=${taskId}`)).result as TaskGrid;
    const states = new Map<string, number>();
    for (const row of grid.rows)
      for (const c of row.cells) states.set(c.state, (states.get(c.state) ?? 0) + 1);
    const seen = (states.get('submitted') ?? 0) + (states.get('approved') ?? 0);
    console.log(
      `sanity: tenant ${task.tenant_id}, ${filed} records filed; the grid counts ${seen} cells filed ` +
        `(${JSON.stringify(Object.fromEntries(states))})`,
    );
    if (seen !== filed)
      throw new Error(`the grid sees ${seen} filed cells, not ${filed}: it reads other records`);
    const times: number[] = [];
    for (let i = 0; i < SAMPLES; i++) times.push((await call('GET', `/api/diyTask/grid?id=${taskId}`)).ms);
    console.log(
      `grid ${units.length}×${forms.length}: p50 ${percentile(times, 0.5).toFixed(0)} ms, ` +
        `p99 ${percentile(times, 0.99).toFixed(0)} ms over ${SAMPLES} calls (target p50 < 500 ms)`,
    );
    const metrics: number[] = [];
    let submitted = 0;
    for (let i = 0; i < 5; i++) {
      const answer = await call('GET', `/api/diyTask/metrics?id=${taskId}`);
      metrics.push(answer.ms);
      submitted = (answer.result as TaskMetrics).total.submitted;
    }
    console.log(
      `timeliness metrics ${units.length}×${forms.length}: p50 ${percentile(metrics, 0.5).toFixed(0)} ms ` +
        `(cells submitted ${submitted} of ${filed} filed)`,
    );
    if (submitted !== filed) throw new Error(`the metrics see ${submitted} submitted cells, not ${filed}`);
    // The urging ladder (docs/tasks.md "Urging"): a run with nothing due, then the run at T−1 that claims and
    // records a reminder for each unit not done (two thirds), then a run finding them all claimed.
    await setConfig(app, 'diy_task_urge_quiet_hours', '');
    const signal = new AbortController().signal;
    const dueAt = parseDateTime(`${due}:00`).getTime();
    for (const [label, at] of [
      ['nothing due', Date.now()],
      ['T-1 due', dueAt - 86_400_000 + 60_000],
      ['all claimed', dueAt - 86_400_000 + 120_000],
    ] as const) {
      const started = performance.now();
      const run = await runTaskUrges(app.ctx, signal, new Date(at));
      console.log(`ladder, ${label}: ${(performance.now() - started).toFixed(0)} ms, ${JSON.stringify(run)}`);
    }
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
