/**
 * `npm run bench:oplog -w bench`: req/s of a write endpoint with operation logging on and off (issue 4 §10:
 * the logged run should keep ≥ 0.9 of the unlogged req/s). Two fresh servers, one per setting, measured
 * alternately twice so that drift of the machine hits both. Figures are printed; nothing asserts a timing.
 */
import autocannon from 'autocannon';
import { launchShuzhi, type RunningShuzhi } from '../e2e/server.ts';
import { signIn } from './sign-in.ts';

const duration = Number(process.env.BENCH_DURATION ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);

async function measure(
  shuzhi: RunningShuzhi,
  token: string,
): Promise<{ reqPerSec: number; p99: number; bad: number }> {
  const result = await autocannon({
    url: `${shuzhi.baseUrl}/api/sysConfig/batchUpdate`,
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify([{ code: 'sys_web_icp', value: '沪ICP备00000000号' }]),
    connections,
    duration,
  });
  return { reqPerSec: result.requests.average, p99: result.latency.p99, bad: result.errors + result.non2xx };
}

const servers = {
  off: await launchShuzhi({ sys_captcha: 'false', sys_oplog: 'false' }),
  on: await launchShuzhi({ sys_captcha: 'false', sys_oplog: 'true' }),
};
try {
  const tokens = { off: await signIn(servers.off.baseUrl), on: await signIn(servers.on.baseUrl) };
  const runs: Record<'off' | 'on', { reqPerSec: number; p99: number; bad: number }[]> = { off: [], on: [] };
  for (let round = 0; round < 2; round++) {
    for (const setting of ['off', 'on'] as const) {
      runs[setting].push(await measure(servers[setting], tokens[setting]));
    }
  }
  const mean = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) / xs.length);
  const off = mean(runs.off.map((r) => r.reqPerSec));
  const on = mean(runs.on.map((r) => r.reqPerSec));
  console.log(
    `\nPOST /api/sysConfig/batchUpdate, ${duration} s × 2 per setting, ${connections} connections\n`,
  );
  for (const setting of ['off', 'on'] as const) {
    const rows = runs[setting];
    console.log(
      `sys_oplog ${setting.padEnd(3)}  req/s ${String(mean(rows.map((r) => r.reqPerSec))).padStart(6)}  p99 ${Math.max(...rows.map((r) => r.p99))} ms  errors ${rows.reduce((a, r) => a + r.bad, 0)}`,
    );
  }
  console.log(`\nlogged run at ${(on / off).toFixed(2)} of the unlogged req/s (target ≥ 0.90)`);
} finally {
  await servers.off.stop();
  await servers.on.stop();
}
