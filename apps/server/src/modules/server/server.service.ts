import { existsSync, readFileSync } from 'node:fs';
import { stat, statfs } from 'node:fs/promises';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServerInfo } from '@shuzhi/contracts/server';
import { sql } from 'kysely';
import { requireSuperAdmin } from '../../platform/access/platform-admin.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';

/** 服务监控: a snapshot of the host, the process, the database and the cache. */

const CPU_SAMPLE_MS = 200;
export const PROCESS_START = new Date(Date.now() - process.uptime() * 1000);

const round1 = (n: number) => Math.round(n * 10) / 10;
const percent = (part: number, whole: number) => (whole > 0 ? round1((part / whole) * 100) : 0);

function cpuTimes(): { idle: number; total: number } {
  let idle = 0;
  let total = 0;
  for (const cpu of os.cpus()) {
    const t = cpu.times;
    idle += t.idle;
    total += t.user + t.nice + t.sys + t.irq + t.idle;
  }
  return { idle, total };
}

/** Busy share of all cores over a short window (os.cpus() counts since boot, so two samples are needed). */
export async function cpuUsage(): Promise<number> {
  const a = cpuTimes();
  await new Promise((resolve) => setTimeout(resolve, CPU_SAMPLE_MS));
  const b = cpuTimes();
  const total = b.total - a.total;
  return total > 0 ? Math.min(100, Math.max(0, percent(total - (b.idle - a.idle), total))) : 0;
}

let osName: string | undefined;
/** The distribution's name on Linux (/etc/os-release), else the OS type and version. */
export function readOsName(): string {
  if (osName !== undefined) return osName;
  osName = os.type();
  try {
    const match = /^PRETTY_NAME="?([^"\n]+)"?$/m.exec(readFileSync('/etc/os-release', 'utf8'));
    if (match) osName = match[1];
  } catch {
    if (os.platform() !== 'linux') osName = `${os.type()} ${os.version()}`.trim();
  }
  return osName;
}

let appVersion: string | undefined;
/** The server package's version, found from this file whether it runs from src/ or from dist/. */
export function readAppVersion(): string {
  if (appVersion !== undefined) return appVersion;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      const json = JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string; version?: string };
      if (json.name === '@shuzhi/server') {
        appVersion = json.version ?? '0.0.0';
        return appVersion;
      }
    }
    const parent = dirname(dir);
    if (parent === dir) {
      appVersion = '0.0.0';
      return appVersion;
    }
    dir = parent;
  }
}

async function fileSize(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch {
    return 0;
  }
}

async function database(ctx: AppContext): Promise<ServerInfo['database']> {
  const { database: config } = ctx.config;
  try {
    if (config.kind === 'sqlite') {
      const size =
        config.file === ':memory:'
          ? null
          : (await fileSize(config.file)) + (await fileSize(`${config.file}-wal`));
      const row = await sql<{ v: string }>`select sqlite_version() as v`.execute(ctx.db);
      return { kind: 'sqlite', size, version: row.rows[0]?.v ?? null };
    }
    const row = await sql<{ size: string | number; v: string }>`
      select pg_database_size(current_database()) as size, current_setting('server_version') as v`.execute(
      ctx.db,
    );
    const first = row.rows[0];
    return { kind: 'postgres', size: first ? Number(first.size) : null, version: first?.v ?? null };
  } catch (error) {
    ctx.log.warn({ err: error }, 'server info: database size unavailable');
    return { kind: config.kind, size: null, version: null };
  }
}

export async function disk(path: string): Promise<ServerInfo['disk']> {
  try {
    const s = await statfs(path);
    const total = s.blocks * s.bsize;
    const free = s.bavail * s.bsize;
    const used = total - s.bfree * s.bsize;
    return { path, total, used, free, usage: percent(used, used + free) };
  } catch {
    return null;
  }
}

const KEY_COUNT_LIMIT = 100_000;

/** The host's memory, disks and paths are the platform operator's, not a tenant's. */
export async function serverInfo(ctx: AppContext, user: AuthUser): Promise<ServerInfo> {
  requireSuperAdmin(user);
  const [usage, db, dataDisk, keys] = await Promise.all([
    cpuUsage(),
    database(ctx),
    disk(ctx.config.dataDir),
    ctx.cache.keys('', KEY_COUNT_LIMIT).then(
      (r) => (r.truncated ? null : r.keys.length),
      () => null,
    ),
  ]);
  const cpus = os.cpus();
  const total = os.totalmem();
  const free = os.freemem();
  const mem = process.memoryUsage();
  return {
    cpu: {
      model: cpus[0]?.model.trim() || os.arch(),
      cores: os.availableParallelism?.() ?? cpus.length,
      loadAverage: os.loadavg().map(round1),
      usage,
    },
    memory: {
      total,
      used: total - free,
      free,
      usage: percent(total - free, total),
      processRss: mem.rss,
      heapUsed: mem.heapUsed,
      heapTotal: mem.heapTotal,
    },
    disk: dataDisk,
    runtime: {
      nodeVersion: process.version,
      os: readOsName(),
      osRelease: os.release(),
      arch: os.arch(),
      hostname: os.hostname(),
      systemUptime: Math.floor(os.uptime()),
      processUptime: Math.floor(process.uptime()),
      pid: process.pid,
      startTime: formatDateTime(PROCESS_START),
      appVersion: readAppVersion(),
    },
    database: db,
    cache: { kind: ctx.cache.kind, keys },
    time: formatDateTime(),
  };
}
