/**
 * `npm run bench:oplog -w bench`: req/s of a write endpoint with operation logging on and off (issue 4 §10:
 * the logged run should keep ≥ 0.9 of the unlogged req/s). Two fresh servers of the built app, one per
 * setting, each warmed up, then measured in alternating rounds (off/on, then on/off, …) so that drift of a
 * shared machine hits both. Printed per round: req/s, p99, errors and the server's CPU time per request
 * (steadier than req/s when other work shares the machine); then the means, and the rows the logged
 * server wrote. Nothing asserts a timing.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { launchShuzhi, type RunningShuzhi } from '../e2e/server.ts';
import { signIn } from './sign-in.ts';

const duration = Number(process.env.BENCH_DURATION ?? 6);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const WARM_UP = 2;
const ROUTE = '/api/sysConfig/batchUpdate';
const TARGET = 0.9;

type Run = { reqPerSec: number; p99: number; bad: number; requests: number; cpuPerRequest: number | null };
type Setting = 'off' | 'on';

/** The server's process id, from the socket it listens on (Linux `ss`); null when it cannot be told. */
function pidOf(shuzhi: RunningShuzhi): number | null {
  try {
    const port = new URL(shuzhi.baseUrl).port;
    const out = execFileSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' });
    const m = /pid=(\d+)/.exec(out);
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

const TICK_US = 1_000_000 / 100;
/** CPU time the process has used (all its threads), in µs; null off Linux. */
function cpuOf(pid: number | null): number | null {
  if (pid === null) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_US;
  } catch {
    return null;
  }
}

let sequence = 0;

async function measure(shuzhi: RunningShuzhi, pid: number | null, token: string, seconds: number) {
  const cpuBefore = cpuOf(pid);
  const result = await autocannon({
    url: `${shuzhi.baseUrl}${ROUTE}`,
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    // A new value every request: each one really updates the row (an unchanged value is neither written
    // nor logged as a change).
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify([
            { code: 'sys_web_icp', value: `沪ICP备${String(++sequence).padStart(8, '0')}号` },
          ]),
        }),
      },
    ],
    connections,
    duration: seconds,
  });
  const cpuAfter = cpuOf(pid);
  const run: Run = {
    reqPerSec: result.requests.average,
    p99: result.latency.p99,
    bad: result.errors + result.non2xx,
    requests: result.requests.total,
    cpuPerRequest:
      cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / result.requests.total,
  };
  return run;
}

/** Operation-log rows of the route, read beside the running server (WAL lets a reader in). */
function loggedRows(shuzhi: RunningShuzhi): number {
  const db = new Database(join(shuzhi.dataDir, 'shuzhi.db'), { readonly: true });
  try {
    return (
      db.prepare('select count(*) as n from sys_log_op where route_url = ?').get(ROUTE) as { n: number }
    ).n;
  } finally {
    db.close();
  }
}

const fmt = (n: number, width: number) => String(Math.round(n)).padStart(width);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
/** CPU µs per request over all rounds of a setting, or null when it could not be read. */
const cpuPerRequest = (runs: Run[]) => {
  if (runs.some((r) => r.cpuPerRequest === null)) return null;
  const requests = runs.reduce((a, r) => a + r.requests, 0);
  return runs.reduce((a, r) => a + (r.cpuPerRequest as number) * r.requests, 0) / requests;
};

const servers: Record<Setting, RunningShuzhi> = {
  off: await launchShuzhi({ sys_captcha: 'false', sys_oplog: 'false' }),
  on: await launchShuzhi({ sys_captcha: 'false', sys_oplog: 'true' }),
};
try {
  const pids = { off: pidOf(servers.off), on: pidOf(servers.on) };
  const tokens = {
    off: await signIn(servers.off.baseUrl, 'superadmin'),
    on: await signIn(servers.on.baseUrl, 'superadmin'),
  };
  for (const setting of ['off', 'on'] as const) {
    await measure(servers[setting], pids[setting], tokens[setting], WARM_UP);
  }

  console.log(
    `\nPOST ${ROUTE} — SQLite, ${connections} connections, ${rounds} rounds × ${duration} s per setting (after a ${WARM_UP} s warm-up)\n`,
  );
  console.log(
    'round   off req/s    on req/s   on/off   off p99   on p99   errors   server CPU µs/req off / on',
  );
  const runs: Record<Setting, Run[]> = { off: [], on: [] };
  const cpu = (r: Run) => (r.cpuPerRequest === null ? '   ?' : fmt(r.cpuPerRequest, 4));
  for (let round = 0; round < rounds; round++) {
    const order: Setting[] = round % 2 === 0 ? ['off', 'on'] : ['on', 'off'];
    const got = {} as Record<Setting, Run>;
    for (const setting of order) {
      got[setting] = await measure(servers[setting], pids[setting], tokens[setting], duration);
      runs[setting].push(got[setting]);
    }
    console.log(
      `${String(round + 1).padStart(5)}   ${fmt(got.off.reqPerSec, 9)}   ${fmt(got.on.reqPerSec, 9)}   ${(got.on.reqPerSec / got.off.reqPerSec).toFixed(2).padStart(6)}   ${fmt(got.off.p99, 4)} ms  ${fmt(got.on.p99, 4)} ms   ${String(got.off.bad + got.on.bad).padStart(6)}   ${cpu(got.off)} / ${cpu(got.on)}`,
    );
  }

  const off = mean(runs.off.map((r) => r.reqPerSec));
  const on = mean(runs.on.map((r) => r.reqPerSec));
  const ratio = on / off;
  const ratios = runs.on.map((r, i) => r.reqPerSec / (runs.off[i] as Run).reqPerSec);
  console.log(`\nmean    ${fmt(off, 9)}   ${fmt(on, 9)}   ${ratio.toFixed(2).padStart(6)}`);
  console.log(`median of the round ratios: ${median(ratios).toFixed(2)}`);
  const cpuOff = cpuPerRequest(runs.off);
  const cpuOn = cpuPerRequest(runs.on);
  if (cpuOff !== null && cpuOn !== null) {
    console.log(
      `server CPU per request: ${cpuOff.toFixed(0)} µs off, ${cpuOn.toFixed(0)} µs on (+${(cpuOn - cpuOff).toFixed(0)} µs); off/on ${(cpuOff / cpuOn).toFixed(2)}`,
    );
  }
  // The interval flush writes what the last round queued.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const sent = runs.on.reduce((a, r) => a + r.requests, 0);
  console.log(
    `logged rows: ${loggedRows(servers.on)} on the logged server (${sent} measured requests, plus warm-up and sign-in), ${loggedRows(servers.off)} on the unlogged one`,
  );
  console.log(
    `\nRESULT  logged run at ${ratio.toFixed(2)} of the unlogged req/s (${Math.round(on)} vs ${Math.round(off)}); target ≥ ${TARGET.toFixed(2)}: ${ratio >= TARGET ? 'met' : 'NOT met'}`,
  );
} finally {
  await servers.off.stop();
  await servers.on.stop();
}
