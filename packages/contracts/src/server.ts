import { z } from 'zod';

/**
 * 缓存管理 (`/api/sysCache/…`) and 服务监控 (`/api/sysServer/info`). Cache keys are always those of this
 * application's own namespace, without its prefix.
 */

/** Most keys the key list returns; `truncated` says there were more. */
export const CACHE_KEY_LIST_LIMIT = 5000;
/** Shortest prefix `deleteByPrefix` accepts, so that one stray character cannot empty the cache. */
export const CACHE_PREFIX_MIN = 2;
/** Longest value text shown; longer values are cut and flagged. */
export const CACHE_VALUE_MAX_CHARS = 64 * 1024;

const keySchema = z.string().trim().min(1).max(512);

export const cacheKeyListInputSchema = z.object({
  prefix: z.string().trim().max(512).optional(),
});

export const cacheKeyListSchema = z.object({
  kind: z.enum(['memory', 'redis']),
  keys: z.array(z.string()),
  truncated: z.boolean(),
});
export type CacheKeyList = z.infer<typeof cacheKeyListSchema>;

export const cacheKeyInputSchema = z.object({ key: keySchema });

export const cachePrefixInputSchema = z.object({
  prefix: z.string().trim().min(CACHE_PREFIX_MIN).max(512),
});

export const cacheValueSchema = z.object({
  key: z.string(),
  /** `json` for structured values, `string` for text, `number`/`boolean`/`null` for scalars. */
  type: z.enum(['json', 'string', 'number', 'boolean', 'null']),
  /** Seconds left; null when the key does not expire. */
  ttlSeconds: z.number().nullable(),
  /** The value as pretty JSON or plain text, secrets masked, cut at CACHE_VALUE_MAX_CHARS. */
  value: z.string(),
  /** Characters of the whole value before cutting. */
  size: z.number(),
  truncated: z.boolean(),
});
export type CacheValue = z.infer<typeof cacheValueSchema>;

const usage = {
  total: z.number(),
  used: z.number(),
  free: z.number(),
  /** 0–100, one decimal. */
  usage: z.number(),
};

export const serverInfoSchema = z.object({
  cpu: z.object({
    model: z.string(),
    cores: z.number(),
    /** 1, 5 and 15 minutes; zeros on Windows. */
    loadAverage: z.array(z.number()),
    usage: z.number(),
  }),
  memory: z.object({
    ...usage,
    processRss: z.number(),
    heapUsed: z.number(),
    heapTotal: z.number(),
  }),
  /** The file system holding DATA_DIR; null when it cannot be read. */
  disk: z.object({ path: z.string(), ...usage }).nullable(),
  runtime: z.object({
    nodeVersion: z.string(),
    os: z.string(),
    osRelease: z.string(),
    arch: z.string(),
    hostname: z.string(),
    systemUptime: z.number(),
    processUptime: z.number(),
    pid: z.number(),
    startTime: z.string(),
    appVersion: z.string(),
  }),
  database: z.object({
    kind: z.enum(['sqlite', 'postgres']),
    /** Bytes; null when it cannot be measured. */
    size: z.number().nullable(),
    version: z.string().nullable(),
  }),
  cache: z.object({ kind: z.enum(['memory', 'redis']), keys: z.number().nullable() }),
  time: z.string(),
});
export type ServerInfo = z.infer<typeof serverInfoSchema>;

/**
 * The family's 服务监控 calls (`GET /api/sysServer/serverBase`, `serverUsed`, `serverDisk`), the same figures as
 * `info` in the shapes its page reads: rates as `"37%"`, memory as `"3.52GB"`, disk sizes in whole GB.
 */
export const serverBaseSchema = z.object({
  hostName: z.string(),
  systemOs: z.string(),
  osArchitecture: z.string(),
  processorCount: z.number(),
  /** How long the host has been up, e.g. `3天4小时5分` (in the request language). */
  sysRunTime: z.string(),
  /** Empty: Shuzhi never asks an outside service for its public address. */
  remoteIp: z.string(),
  localIp: z.string(),
  frameworkDescription: z.string(),
  environment: z.string(),
  wwwroot: z.string(),
});
export const serverUsedSchema = z.object({
  freeRam: z.string(),
  usedRam: z.string(),
  totalRam: z.string(),
  ramRate: z.string(),
  cpuRate: z.string(),
  startTime: z.string(),
  runTime: z.string(),
});
export const serverDiskSchema = z.array(
  z.object({
    diskName: z.string(),
    typeName: z.string(),
    totalSize: z.number(),
    totalFree: z.number(),
    used: z.number(),
    availableFreeSpace: z.number(),
    availablePercent: z.number(),
  }),
);
