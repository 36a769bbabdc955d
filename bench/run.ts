/**
 * `npm run bench`: req/s and p99 latency of the two calls every page load makes, beside a bare
 * Fastify hello-world measured in the same run. Figures are printed and written to
 * bench/results/latest.json; nothing here asserts a timing.
 */
import { fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { launchShuzhi } from '../e2e/server.ts';
import { signIn } from './sign-in.ts';

const here = dirname(fileURLToPath(import.meta.url));
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);

type Figures = { name: string; reqPerSec: number; p99: number; p50: number; errors: number; non2xx: number };

async function measure(name: string, url: string, headers: Record<string, string> = {}): Promise<Figures> {
  // A short warm-up lets the JIT and caches settle before the measured run.
  await autocannon({ url, headers, connections, duration: 2 });
  const result = await autocannon({ url, headers, connections, duration });
  return {
    name,
    reqPerSec: Math.round(result.requests.average),
    p99: result.latency.p99,
    p50: result.latency.p50,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

async function startHello(): Promise<{ url: string; stop: () => void }> {
  const child = fork(join(here, 'hello.mjs'), [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve) =>
    child.once('message', (m: { port: number }) => resolve(m.port)),
  );
  return { url: `http://127.0.0.1:${port}/`, stop: () => child.kill() };
}

const hello = await startHello();
const shuzhi = await launchShuzhi({ sys_captcha: 'false' });
try {
  const token = await signIn(shuzhi.baseUrl);
  const auth = { authorization: `Bearer ${token}` };
  const rows = [
    await measure('fastify hello-world', hello.url),
    await measure('GET /api/sysAuth/userInfo', `${shuzhi.baseUrl}/api/sysAuth/userInfo`, auth),
    await measure('GET /api/sysMenu/loginMenuTree', `${shuzhi.baseUrl}/api/sysMenu/loginMenuTree`, auth),
  ];
  const base = rows[0].reqPerSec;
  console.log(`\n${duration} s per target, ${connections} connections, Node ${process.version}\n`);
  console.log(
    [
      'target'.padEnd(34),
      'req/s'.padStart(9),
      'p50 ms'.padStart(8),
      'p99 ms'.padStart(8),
      'ratio'.padStart(7),
      'errors'.padStart(7),
    ].join(''),
  );
  for (const row of rows) {
    const ratio = (row.reqPerSec / base).toFixed(2);
    console.log(
      [
        row.name.padEnd(34),
        String(row.reqPerSec).padStart(9),
        String(row.p50).padStart(8),
        String(row.p99).padStart(8),
        ratio.padStart(7),
        String(row.errors + row.non2xx).padStart(7),
      ].join(''),
    );
  }
  const userInfoRatio = rows[1].reqPerSec / base;
  console.log(`\nuserInfo at ${userInfoRatio.toFixed(2)} of hello-world (target ≥ 0.50)`);
  const out = join(here, 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(
    join(out, 'latest.json'),
    `${JSON.stringify({ date: new Date().toISOString(), duration, connections, rows }, null, 2)}\n`,
  );
} finally {
  hello.stop();
  await shuzhi.stop();
}
