import os from 'node:os';
import type { Locale } from '@shuzhi/contracts/i18n';
import type { serverBaseSchema, serverDiskSchema, serverUsedSchema } from '@shuzhi/contracts/server';
import type { z } from 'zod';
import { requireSuperAdmin } from '../../platform/access/platform-admin.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { cpuUsage, disk, PROCESS_START, readOsName } from './server.service.ts';

/** The family's 服务监控 calls, from the same sources as `serverInfo` (super admin only, like it). */

const GB = 1024 ** 3;
const UNITS: Record<Locale, [string, string, string]> = {
  'zh-CN': ['天', '小时', '分'],
  'zh-TW': ['天', '小時', '分'],
  en: ['d ', 'h ', 'm'],
};

/** Seconds as days, hours and minutes in the request language: `3天4小时5分`, `3d 4h 5m`. */
function duration(seconds: number, locale: Locale): string {
  const [d, h, m] = UNITS[locale];
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3_600);
  const minutes = Math.floor((seconds % 3_600) / 60);
  return `${days > 0 ? `${days}${d}` : ''}${days > 0 || hours > 0 ? `${hours}${h}` : ''}${minutes}${m}`.trim();
}

function localIp(): string {
  for (const list of Object.values(os.networkInterfaces())) {
    for (const address of list ?? [])
      if (address.family === 'IPv4' && !address.internal) return address.address;
  }
  return '127.0.0.1';
}

export function serverBase(
  ctx: AppContext,
  user: AuthUser,
  locale: Locale,
): z.input<typeof serverBaseSchema> {
  requireSuperAdmin(user);
  return {
    hostName: os.hostname(),
    systemOs: readOsName(),
    osArchitecture: `${os.platform()} ${os.arch()}`,
    processorCount: os.availableParallelism?.() ?? os.cpus().length,
    sysRunTime: duration(os.uptime(), locale),
    remoteIp: '',
    localIp: localIp(),
    frameworkDescription: `Node.js ${process.version}`,
    environment: process.env.NODE_ENV === 'development' ? 'Development' : 'Production',
    wwwroot: ctx.config.webDist,
  };
}

const gb = (bytes: number) => `${(bytes / GB).toFixed(2)}GB`;

export async function serverUsed(user: AuthUser, locale: Locale): Promise<z.input<typeof serverUsedSchema>> {
  requireSuperAdmin(user);
  const total = os.totalmem();
  const free = os.freemem();
  return {
    freeRam: gb(free),
    usedRam: gb(total - free),
    totalRam: gb(total),
    ramRate: `${total > 0 ? Math.ceil(((total - free) / total) * 100) : 0}%`,
    cpuRate: `${Math.ceil(await cpuUsage())}%`,
    startTime: formatDateTime(PROCESS_START),
    runTime: duration(process.uptime(), locale),
  };
}

/** The file system holding DATA_DIR (the only disk Shuzhi writes to). */
export async function serverDisk(ctx: AppContext, user: AuthUser): Promise<z.input<typeof serverDiskSchema>> {
  requireSuperAdmin(user);
  const found = await disk(ctx.config.dataDir);
  if (!found) return [];
  const totalSize = Math.floor(found.total / GB);
  const availableFreeSpace = Math.floor(found.free / GB);
  return [
    {
      diskName: found.path,
      typeName: os.platform(),
      totalSize,
      totalFree: availableFreeSpace,
      used: Math.floor(found.used / GB),
      availableFreeSpace,
      availablePercent: Math.ceil(found.usage),
    },
  ];
}
