/**
 * `npm run bench:efficiency -w bench`: efficiency analysis at district scale (issue 20 §3). Adds `BENCH_UNITS`
 * (default 2,000) communities below the demo district's streets in a temporary SQLite database, lets three published
 * demo forms be filled by everyone, creates `BENCH_TASKS` (default 12) tasks for those forms to every community
 * and moves their due times one month apart over the last year; two thirds of the units file a submitted record
 * of each form with its history (submit, for every fifth a return, a second submit and an approval). Then times
 * `GET /api/dashboard/efficiency` (12 months) as the tenant admin: all forms, one form, one level, and as a street
 * leader. Prints the figures; nothing here asserts a timing.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/platform/config/config.ts';
import { formatDateTime } from '../apps/server/src/platform/db/time.ts';
import { withDataTables } from '../apps/server/src/platform/diy/dynamic-table.ts';
import { body, login, setConfig } from '../apps/server/test/helpers.ts';
import { addCommunities } from './bench-units.ts';

type App = Awaited<ReturnType<typeof buildApp>>;

const UNITS = Number(process.env.BENCH_UNITS ?? 2_000);
const TASKS = Number(process.env.BENCH_TASKS ?? 12);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 5);
/** `BENCH_SPREAD=1`: each task asks a period of its own, with its own records (a year of monthly filings). */
const SPREAD = process.env.BENCH_SPREAD === '1';
const DAY = 86_400_000;

const p50 = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)] as number;

/** Two thirds of the units file a submitted record of each form in its period, with the record's history. */
async function fileRecords(
  app: App,
  base: number,
  tenantId: number,
  forms: { tableId: number; periodId: number | null }[],
  units: number[],
) {
  const db = withDataTables(app.ctx.db);
  const start = base - 400 * DAY;
  for (const form of forms) {
    const rows = units
      .filter((_, i) => i % 3 !== 0)
      .map((orgId) => ({
        id: app.ctx.newId(),
        tenant_id: tenantId,
        version: 1,
        status: 1,
        create_time: formatDateTime(),
        is_delete: 0,
        is_zero: 0,
        late: 0,
        create_org_id: orgId,
        create_user_id: 1,
        period_id: form.periodId,
      }));
    const steps = rows.flatMap((r, i) => {
      const at = start + (i % 400) * DAY;
      const step = (action: string, ms: number) => ({
        id: app.ctx.newId(),
        tenant_id: tenantId,
        table_id: form.tableId,
        record_id: r.id,
        action,
        changes: '[]',
        comment: null,
        version: 1,
        user_id: 1000 + (i % 50),
        user_name: null,
        create_time: formatDateTime(new Date(ms)),
      });
      return i % 5 === 0
        ? [
            step('submit', at),
            step('return', at + 3_600_000),
            step('submit', at + DAY),
            step('approve', at + 2 * DAY),
          ]
        : [step('submit', at)];
    });
    for (let i = 0; i < rows.length; i += 500)
      await db
        .insertInto(`diy_data_${form.tableId}` as const)
        .values(rows.slice(i, i + 500))
        .execute();
    for (let i = 0; i < steps.length; i += 500)
      await app.ctx.db
        .insertInto('diy_record_history')
        .values(steps.slice(i, i + 500))
        .execute();
  }
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'shuzhi-bench-efficiency-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const app = await buildApp({ config, logger: false, regionSource: null });
  try {
    await setConfig(app, 'sys_captcha', 'false');
    const units = await addCommunities(app, UNITS);
    const forms = await app.ctx.db
      .selectFrom('diy_table')
      .select(['id', 'tenant_id'])
      .where('report_type', '=', 1)
      .where('version', '>', 0)
      .orderBy('id')
      .limit(3)
      .execute();
    const all = JSON.stringify({ all: true, orgIds: [], roleIds: [], userIds: [], enterprises: false });
    await app.ctx.db
      .updateTable('diy_table')
      .set({ fillers: all })
      .where(
        'id',
        'in',
        forms.map((f) => f.id),
      )
      .execute();
    const tokens = {
      admin: (await login(app, 'admin')).accessToken,
      njdleader: (await login(app, 'njdleader')).accessToken,
    };
    const call = async (who: keyof typeof tokens, method: 'GET' | 'POST', url: string, payload?: object) => {
      const started = performance.now();
      const response = await app.inject({
        method,
        url,
        payload,
        headers: { authorization: `Bearer ${tokens[who]}` },
      });
      const ms = performance.now() - started;
      const envelope = body<unknown>(response);
      if (envelope.code !== 200) throw new Error(`${url}: ${JSON.stringify(envelope).slice(0, 300)}`);
      return { ms, result: envelope.result };
    };
    const due = formatDateTime(new Date(Date.now() + 7 * DAY)).slice(0, 16);
    const taskIds: number[] = [];
    for (let i = 0; i < TASKS; i++) {
      const created = await call('admin', 'POST', '/api/diyTask/add', {
        title: `效率压测任务${i + 1}`,
        forms: forms.map((f) => ({ tableId: f.id })),
        dueTime: due,
        receivers: { orgIds: units },
      });
      taskIds.push(created.result as number);
    }
    // One task due in each of the last months (made through the route, then moved back in time). Due and
    // submission times are whole days from one instant (whole seconds): the figures are the same in every run.
    const base = Math.floor(Date.now() / 1000) * 1000;
    for (const [i, id] of taskIds.entries()) {
      const at = formatDateTime(new Date(base - i * 30 * DAY));
      await app.ctx.db.updateTable('diy_task').set({ due_time: at }).where('id', '=', id).execute();
      await app.ctx.db
        .updateTable('diy_task_receiver')
        .set({ due_time: at })
        .where('task_id', '=', id)
        .execute();
    }
    // Spread: the other tasks ask a period of their own (an id without a period row: the figures read the
    // records' period_id only), each filed like the first.
    for (const id of SPREAD ? taskIds.slice(1) : [])
      for (const f of forms)
        await app.ctx.db
          .updateTable('diy_task_form')
          .set({ period_id: app.ctx.newId() })
          .where('task_id', '=', id)
          .where('table_id', '=', f.id)
          .execute();
    for (const id of SPREAD ? taskIds : taskIds.slice(0, 1)) {
      const taskForms = await app.ctx.db
        .selectFrom('diy_task_form')
        .select(['table_id as tableId', 'period_id as periodId'])
        .where('task_id', '=', id)
        .execute();
      await fileRecords(app, base, forms[0]?.tenant_id as number, taskForms, units);
    }
    const to = formatDateTime().slice(0, 7);
    const [y, m] = to.split('-').map(Number) as [number, number];
    const from = `${m === 12 ? y : y - 1}-${String((m % 12) + 1).padStart(2, '0')}`;
    const cases: [string, keyof typeof tokens, string][] = [
      ['all forms, all levels (admin)', 'admin', ''],
      ['one form (admin)', 'admin', `&tableId=${forms[0]?.id}`],
      ['communities only (admin)', 'admin', '&orgType=community'],
      ['a street leader’s scope', 'njdleader', ''],
    ];
    console.log(
      `efficiency: ${UNITS} units × ${TASKS} tasks × ${forms.length} forms = ${UNITS * TASKS * forms.length} cells, ` +
        `${Math.round((UNITS * 2) / 3) * forms.length * (SPREAD ? TASKS : 1)} records ` +
        `(${SPREAD ? 'a period per task' : 'every task asks the same period'}), months ${from}..${to}`,
    );
    for (const [label, who, extra] of cases) {
      const url = `/api/dashboard/efficiency?from=${from}&to=${to}${extra}`;
      const first = await call(who, 'GET', url);
      const times: number[] = [];
      // CPU time of this process per call: steadier than wall time on a shared machine.
      const cpu: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        const before = process.cpuUsage();
        times.push((await call(who, 'GET', url)).ms);
        const used = process.cpuUsage(before);
        cpu.push((used.user + used.system) / 1000);
      }
      // The answer's hash (without the units' and forms' ids, new in each run): equal when the figures are.
      const e = first.result as { total: Record<string, number | null>; units: unknown[] };
      console.log(
        `  ${label}: p50 ${p50(times).toFixed(0)} ms (CPU ${p50(cpu).toFixed(0)} ms) over ${SAMPLES} calls ` +
          `(first ${first.ms.toFixed(0)} ms); ` +
          `cells ${e.total.expected}, submitted ${e.total.submitted}, units ${e.units.length}, ` +
          `on-time rate ${e.total.onTimeRate}, records per filler ${e.total.recordsPerFiller}; ` +
          `answer sha1 ${createHash('sha1')
            .update(
              JSON.stringify(first.result, (k, v) => (k === 'orgId' || k === 'tableId' ? undefined : v)),
            )
            .digest('hex')
            .slice(0, 12)}`,
      );
    }
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
