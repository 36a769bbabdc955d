import { type ChildProcess, spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { arraySource } from '../src/modules/region/region.source.ts';
import { loadConfig } from '../src/platform/config/config.ts';
import { createTestEnv, freePort, TEST_HASH_COST, type TestEnv } from './helpers.ts';
import { REGION_FIXTURE } from './region.fixture.ts';

/**
 * Issue 14 §6: a real server process stops gracefully on SIGTERM — a request in flight is answered
 * before the process exits with 0 — and a second signal ends it at once with 1.
 */
const serverRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

let env: TestEnv;
const children: ChildProcess[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Server = {
  child: ChildProcess;
  port: number;
  output: () => string;
  exit: Promise<[number | null, string | null]>;
};

async function startServer(): Promise<Server> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverRoot,
    env: {
      ...process.env,
      ...env.env,
      REDIS_URL: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const exit = new Promise<[number | null, string | null]>((resolve) =>
    child.once('exit', (code, signal) => resolve([code, signal])),
  );
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
  }
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}\n${output}`);
    const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`server did not start\n${output}`);
    await sleep(100);
  }
  return { child, port, output: () => output, exit };
}

/**
 * A POST whose body is still being sent: in flight until `finish` sends the rest. It goes on a kept-alive
 * connection that a first request has proven to be accepted, as a browser's would.
 */
async function slowRequest(port: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  await new Promise<void>((resolve, reject) => {
    request({ host: '127.0.0.1', port, path: '/health', agent }, (res) => {
      res.resume();
      res.on('end', () => resolve());
    })
      .on('error', reject)
      .end();
  });
  const payload = JSON.stringify({ account: 'admin', password: 'x', codeId: 0, code: '' });
  const req = request({
    host: '127.0.0.1',
    port,
    agent,
    method: 'POST',
    path: '/api/sysAuth/login',
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
  req.write(payload.slice(0, 10));
  return {
    answer,
    finish: () => req.end(payload.slice(10)),
  };
}

beforeAll(async () => {
  env = await createTestEnv();
  // Migrated and seeded here with cheap hashes and a few regions, so each server starts quickly.
  const setup = await buildApp({
    config: loadConfig(env.env),
    logger: false,
    passwordHashing: TEST_HASH_COST,
    regionSource: arraySource(REGION_FIXTURE),
  });
  await setup.close();
}, 120_000);

afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  await env?.cleanup();
});

describe('graceful shutdown', () => {
  it('answers the request in flight, closes its kept-alive connection and exits with 0', async () => {
    const server = await startServer();
    const slow = await slowRequest(server.port);
    await sleep(300);
    server.child.kill('SIGTERM');
    await sleep(500);
    // Still waiting for the request, and refusing new connections meanwhile.
    expect(server.child.exitCode, server.output()).toBeNull();
    await expect(fetch(`http://127.0.0.1:${server.port}/health`)).rejects.toThrow();
    slow.finish();
    const answer = await slow.answer;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toHaveProperty('code');
    expect(await server.exit, server.output()).toEqual([0, null]);
    expect(server.output()).toContain('SIGTERM received, shutting down');
  }, 120_000);

  it('exits at once with 1 on a second signal', async () => {
    const server = await startServer();
    const slow = await slowRequest(server.port);
    slow.answer.catch(() => undefined);
    await sleep(300);
    server.child.kill('SIGTERM');
    await sleep(500);
    expect(server.child.exitCode, server.output()).toBeNull();
    server.child.kill('SIGINT');
    expect(await server.exit, server.output()).toEqual([1, null]);
    expect(server.output()).toContain('SIGINT received again, exiting now');
  }, 120_000);
});
