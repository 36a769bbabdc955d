import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
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

function spawnServer(dataDir: string, port: number): ChildProcess {
  const child = spawn(process.execPath, [serverMain], {
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
 * Starts the built app on a fresh embedded database. The first start migrates and seeds; config rows
 * given in `config` (e.g. the captcha switched off, as an admin would) are then written, and any `sql`
 * statements run, before the server is started again to read them.
 */
export async function launchShuzhi(
  config: Record<string, string> = {},
  sql: string[] = [],
): Promise<RunningShuzhi> {
  if (!existsSync(serverMain)) throw new Error('Build the app first: apps/server/dist/main.js is missing');
  const dataDir = mkdtempSync(join(tmpdir(), 'shuzhi-run-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;

  let server = spawnServer(dataDir, port);
  await waitForHealth(baseUrl, server);
  if (Object.keys(config).length > 0 || sql.length > 0) {
    await stop(server);
    const db = new Database(join(dataDir, 'shuzhi.db'));
    const update = db.prepare('update sys_config set value = ? where code = ?');
    for (const [code, value] of Object.entries(config)) update.run(value, code);
    for (const statement of sql) db.exec(statement);
    db.close();
    server = spawnServer(dataDir, port);
    await waitForHealth(baseUrl, server);
  }
  const running = server;
  return {
    baseUrl,
    dataDir,
    pid: running.pid ?? null,
    stop: async () => {
      await stop(running);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
