import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const serverMain = join(root, 'apps/server/dist/main.js');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function waitForHealth(baseUrl: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited with code ${child.exitCode}`);
    try {
      const response = await fetch(`${baseUrl}/health`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('The server did not become healthy within 60 s');
}

/** `SERVER_NODE_ARGS` (space-separated) go to the server's node, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`. */
const SERVER_NODE_ARGS = (process.env.SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);

function spawnServer(dataDir: string, port: number): ChildProcess {
  const child = spawn(process.execPath, [...SERVER_NODE_ARGS, serverMain], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

export type RunningShuzhi = {
  baseUrl: string;
  dataDir: string;
  /** The server's process id (memory and CPU figures of benchmarks read /proc/<pid>). */
  pid: number | null;
  stop: () => Promise<void>;
};

/**
 * Migrates and seeds an embedded database once, in a folder of its own (the database, its generated keys):
 * every E2E server starts from a copy of it instead of migrating and seeding again (10 s a start on a
 * busy two-core machine, against 3 s for a start on a seeded copy). The server is stopped cleanly first,
 * so the copy is one checkpointed file.
 */
export async function seedTemplate(): Promise<{ dir: string; remove: () => void }> {
  if (!existsSync(serverMain)) throw new Error('Build the app first: apps/server/dist/main.js is missing');
  const dir = mkdtempSync(join(tmpdir(), 'shuzhi-seeded-'));
  const port = await freePort();
  const server = spawnServer(dir, port);
  try {
    await waitForHealth(`http://127.0.0.1:${port}`, server);
  } finally {
    await stop(server);
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Where the E2E run's seeded database lies: made by the global setup, handed to every test file. */
export const TEMPLATE_ENV = 'SHUZHI_E2E_SEEDED';

/**
 * Starts the built app on its own copy of the seeded database. Config rows given in `config` (e.g. the
 * captcha switched off, as an admin would) are written, and any `sql` statements run, before it starts.
 */
export async function launchShuzhi(
  config: Record<string, string> = {},
  sql: string[] = [],
): Promise<RunningShuzhi> {
  if (!existsSync(serverMain)) throw new Error('Build the app first: apps/server/dist/main.js is missing');
  const dataDir = mkdtempSync(join(tmpdir(), 'shuzhi-run-'));
  const shared = process.env[TEMPLATE_ENV];
  if (shared && existsSync(join(shared, 'shuzhi.db'))) {
    cpSync(shared, dataDir, { recursive: true });
  } else {
    // Outside the E2E run (benchmarks): a seeded database of its own.
    const own = await seedTemplate();
    cpSync(own.dir, dataDir, { recursive: true });
    own.remove();
  }
  if (Object.keys(config).length > 0 || sql.length > 0) {
    const db = new Database(join(dataDir, 'shuzhi.db'));
    const update = db.prepare('update sys_config set value = ? where code = ?');
    for (const [code, value] of Object.entries(config)) update.run(value, code);
    for (const statement of sql) db.exec(statement);
    db.close();
  }
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = spawnServer(dataDir, port);
  try {
    await waitForHealth(baseUrl, server);
  } catch (error) {
    await stop(server);
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    baseUrl,
    dataDir,
    pid: server.pid ?? null,
    stop: async () => {
      await stop(server);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
