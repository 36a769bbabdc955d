import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DEFAULT_PROFILES,
  PACKAGE_TYPES,
  profileListSchema,
  type RegionalProfile,
} from '@shuzhi/contracts/profiles';
import { DEFAULT_TIME_ZONE, isTimeZone } from '@shuzhi/contracts/time-zone';
import { ConfigError } from './config-error.ts';
import { resolveSecrets } from './secrets.ts';

export type DatabaseConfig =
  | { kind: 'sqlite'; file: string }
  | {
      kind: 'postgres';
      url: string;
      /** Connections per process (DATABASE_POOL_MAX). */
      poolMax: number;
      /** Longest a statement may run, ms; 0 = no limit (DATABASE_STATEMENT_TIMEOUT_MS). */
      statementTimeoutMs: number;
      /** The sessions' `TimeZone`: the product's zone, so that now() and timestamptz text agree with it. */
      timeZone: string;
    };

export type AppConfig = {
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseConfig;
  redisUrl: string | null;
  packageType: number;
  profiles: RegionalProfile[];
  profile: RegionalProfile;
  /**
   * The product's one time zone (IANA name): periods, due dates, numbers by date, cron runs, "today" and every
   * time the server writes or the browser shows (TIME_ZONE, else the profile's `timeZone`, else Asia/Shanghai).
   */
  timeZone: string;
  sm2: { publicKey: string; privateKey: string };
  jwtSecret: string;
  /** SM4 key (32 hex digits) for secrets kept in the database (open-access secrets). */
  dataKey: string;
  /** API documentation at /swagger (env SWAGGER=off switches it off; it is behind an admin login otherwise). */
  swagger: boolean;
  logLevel: LogLevel;
  webDist: string;
  /** Requests per minute and IP on the captcha and login endpoints. */
  rateLimit: { captcha: number; login: number; noLoginLink: number };
  /** CSP frame-ancestors: pages that may embed Shuzhi (iframe modes of SPEC §2). */
  frameAncestors: string[];
  /** Origins (scheme://host[:port]) other than the app's own whose scripts may call the API with credentials. */
  corsOrigins: string[];
  /** Id generator worker number (0–31); random when unset. */
  workerId: number | null;
  /** SMS codes for mobile sign-in: `log` writes them to the server log, `http` POSTs them to `httpUrl`. */
  sms: { provider: 'log' | 'http'; httpUrl: string | null; dailyLimit: number };
  /**
   * Automatic login by URL parameter: the identity provider endpoint (`{type}` in it is replaced by the login
   * type); null switches automatic login off (every attempt answers D1020).
   */
  autoLogin: { providerUrl: string | null; timeoutMs: number };
  /**
   * Scheduled jobs: the scheduler lease (one process runs scheduled triggers) lasts `leaseTtlMs` and is
   * renewed every `renewMs` (JOB_LEASE_TTL_MS, JOB_LEASE_RENEW_MS; tests shorten them).
   */
  jobs: { leaseTtlMs: number; renewMs: number };
  /**
   * Seconds a retired refresh token still answers the pair it was exchanged for (REFRESH_GRACE_SECONDS,
   * default 10): clients of the family refresh with several requests at once (docs/wire.md).
   */
  refreshGraceSeconds: number;
  /**
   * Which proxies in front may tell the client's address (X-Forwarded-For/-Proto): false (none, the
   * default), true (any), a hop count, or a list of addresses and CIDR ranges (TRUST_PROXY).
   */
  trustProxy: boolean | number | string[];
  /**
   * The cockpit's weather (WEATHER_PROVIDER `none` | `http`, WEATHER_URL with `{city}` and `{key}` in it,
   * WEATHER_KEY): `none` (the default) makes the weather panel say that no provider is set.
   */
  weather: { provider: 'none' | 'http'; url: string | null; key: string | null };
};

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

type Env = Record<string, string | undefined>;

function value(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined) return undefined;
  const trimmed = raw.trim();
  return trimmed === '' ? undefined : trimmed;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = value(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `"${raw}" is not allowed; use an integer from ${min} to ${max}`);
  }
  return Number(raw);
}

/** The server package folder, found from this file whether it runs from src/ or from the bundle in dist/. */
function serverRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      const name = (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name;
      if (name === '@shuzhi/server') return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
}

function loadProfiles(env: Env, cwd: string): RegionalProfile[] {
  const file = value(env, 'PROFILES_FILE');
  if (!file) return DEFAULT_PROFILES;
  const path = resolve(cwd, file);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError('PROFILES_FILE', `cannot read JSON from ${path}: ${(error as Error).message}`);
  }
  const parsed = profileListSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(
      'PROFILES_FILE',
      `${path} is not a valid profile list: ${issue?.path.join('.') || '(root)'} ${issue?.message ?? ''}`.trim(),
    );
  }
  return parsed.data;
}

function httpUrl(env: Env, name: string): string | null {
  const raw = value(env, name);
  if (raw === undefined) return null;
  if (!/^https?:\/\/[^\s]+$/i.test(raw)) throw new ConfigError(name, `"${raw}" is not an http(s) URL`);
  return raw;
}

/** CORS_ORIGINS: comma-separated origins, each normalised to scheme://host[:port]; unset means same-origin only. */
function corsOrigins(env: Env): string[] {
  const raw = value(env, 'CORS_ORIGINS');
  if (raw === undefined) return [];
  return raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const url = /^https?:\/\/[^\s/]+\/?$/i.test(part) ? new URL(part) : null;
      if (!url)
        throw new ConfigError(
          'CORS_ORIGINS',
          `"${part}" is not an origin such as https://portal.example.gov.cn`,
        );
      return url.origin;
    });
}

function weatherConfig(env: Env): AppConfig['weather'] {
  const provider = (value(env, 'WEATHER_PROVIDER') ?? 'none').toLowerCase();
  if (provider !== 'none' && provider !== 'http') {
    throw new ConfigError('WEATHER_PROVIDER', `"${provider}" is unknown; use none or http`);
  }
  const url = httpUrl(env, 'WEATHER_URL');
  if (provider === 'http' && !url) {
    throw new ConfigError('WEATHER_URL', 'WEATHER_PROVIDER=http needs the URL the weather is read from');
  }
  return { provider, url, key: value(env, 'WEATHER_KEY') ?? null };
}

function smsConfig(env: Env): AppConfig['sms'] {
  const provider = (value(env, 'SMS_PROVIDER') ?? 'log').toLowerCase();
  if (provider !== 'log' && provider !== 'http') {
    throw new ConfigError('SMS_PROVIDER', `"${provider}" is unknown; use log or http`);
  }
  const url = httpUrl(env, 'SMS_HTTP_URL');
  if (provider === 'http' && !url) {
    throw new ConfigError('SMS_HTTP_URL', 'SMS_PROVIDER=http needs the URL the codes are posted to');
  }
  return { provider, httpUrl: url, dailyLimit: integer(env, 'SMS_DAILY_LIMIT', 10, 1, 1000) };
}

/**
 * Renewal at most a third of the lease, so that one late renewal does not lose it; a lease of at most 20 s
 * keeps a takeover (lease run out + one renewal period) within 30 s.
 */
function jobsConfig(env: Env): AppConfig['jobs'] {
  const leaseTtlMs = integer(env, 'JOB_LEASE_TTL_MS', 15_000, 1_000, 20_000);
  const renewMs = integer(env, 'JOB_LEASE_RENEW_MS', Math.floor(leaseTtlMs / 3), 200, 10_000);
  if (renewMs * 3 > leaseTtlMs) {
    throw new ConfigError(
      'JOB_LEASE_RENEW_MS',
      `${renewMs} is too long; at most a third of JOB_LEASE_TTL_MS`,
    );
  }
  return { leaseTtlMs, renewMs };
}

function trustProxy(env: Env): AppConfig['trustProxy'] {
  const raw = value(env, 'TRUST_PROXY');
  if (raw === undefined || raw.toLowerCase() === 'false') return false;
  if (raw.toLowerCase() === 'true') return true;
  if (/^\d+$/.test(raw)) return integer(env, 'TRUST_PROXY', 0, 0, 100);
  const list = raw.split(/[\s,]+/).filter(Boolean);
  if (!list.every((entry) => /^[0-9a-f.:]+(\/\d{1,3})?$/i.test(entry))) {
    throw new ConfigError(
      'TRUST_PROXY',
      `"${raw}" is not allowed; use true, false, a hop count or addresses/CIDR ranges separated by commas`,
    );
  }
  return list;
}

/** TIME_ZONE: an IANA zone name the runtime knows; unset, the profile's zone or Asia/Shanghai. */
function timeZone(env: Env, profile: RegionalProfile): string {
  const raw = value(env, 'TIME_ZONE');
  if (raw === undefined) return profile.timeZone ?? DEFAULT_TIME_ZONE;
  if (!isTimeZone(raw)) {
    throw new ConfigError(
      'TIME_ZONE',
      `"${raw}" is not a time zone; use an IANA name such as Asia/Shanghai or UTC`,
    );
  }
  return raw;
}

function database(env: Env, dataDir: string, zone: string): DatabaseConfig {
  const url = value(env, 'DATABASE_URL');
  if (!url) return { kind: 'sqlite', file: join(dataDir, 'shuzhi.db') };
  if (/^postgres(ql)?:\/\//i.test(url)) {
    return {
      kind: 'postgres',
      url,
      poolMax: integer(env, 'DATABASE_POOL_MAX', 10, 1, 1000),
      statementTimeoutMs: integer(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 60_000, 0, 86_400_000),
      timeZone: zone,
    };
  }
  throw new ConfigError(
    'DATABASE_URL',
    'use postgres://user:password@host:port/database, or leave it unset for the embedded SQLite database',
  );
}

/**
 * Reads the configuration from environment variables. Secrets not given are generated once and kept in
 * DATA_DIR/keys.json, so a restart keeps sessions and the login key pair.
 */
export function loadConfig(env: Env = process.env, cwd = process.cwd()): AppConfig {
  const port = integer(env, 'PORT', 5005, 1, 65535);
  const host = value(env, 'HOST') ?? '0.0.0.0';
  const dataDir = resolve(cwd, value(env, 'DATA_DIR') ?? './data');

  const redisUrl = value(env, 'REDIS_URL') ?? null;
  if (redisUrl && !/^rediss?:\/\//i.test(redisUrl)) {
    throw new ConfigError(
      'REDIS_URL',
      'use redis://host:port (or rediss://), or leave it unset for the in-memory cache',
    );
  }

  const packageTypeRaw = value(env, 'PACKAGE_TYPE') ?? '0';
  const packageType = Number(packageTypeRaw);
  const allowed = PACKAGE_TYPES as readonly number[];
  if (!/^\d+$/.test(packageTypeRaw) || !allowed.includes(packageType)) {
    throw new ConfigError(
      'PACKAGE_TYPE',
      `"${packageTypeRaw}" is unknown; valid values are ${allowed.join(', ')}`,
    );
  }
  const profiles = loadProfiles(env, cwd);
  const profile = profiles.find((p) => p.packageType === packageType);
  if (!profile) {
    throw new ConfigError(
      'PACKAGE_TYPE',
      `no profile for ${packageType}; the profiles define ${profiles.map((p) => p.packageType).join(', ')}`,
    );
  }

  const logLevel = (value(env, 'LOG_LEVEL') ?? 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `"${logLevel}" is not allowed; use one of ${LOG_LEVELS.join(', ')}`);
  }

  const workerRaw = value(env, 'WORKER_ID');
  const workerId = workerRaw === undefined ? null : integer(env, 'WORKER_ID', 0, 0, 31);

  const frameAncestors = (value(env, 'FRAME_ANCESTORS') ?? "'self'").split(/\s+/).filter(Boolean);

  const swaggerRaw = (value(env, 'SWAGGER') ?? 'on').toLowerCase();
  if (!['on', 'off'].includes(swaggerRaw)) {
    throw new ConfigError('SWAGGER', `"${swaggerRaw}" is not allowed; use on or off`);
  }

  const zone = timeZone(env, profile);
  const db = database(env, dataDir, zone);
  const secrets = resolveSecrets(env, dataDir);

  return {
    port,
    host,
    dataDir,
    database: db,
    redisUrl,
    packageType,
    profiles,
    profile,
    timeZone: zone,
    sm2: secrets.sm2,
    jwtSecret: secrets.jwtSecret,
    dataKey: secrets.dataKey,
    swagger: swaggerRaw === 'on',
    logLevel: logLevel as LogLevel,
    webDist: resolve(cwd, value(env, 'WEB_DIST') ?? join(serverRoot(), '..', 'web', 'dist')),
    rateLimit: {
      captcha: integer(env, 'RATE_LIMIT_CAPTCHA', 60, 1, 100_000),
      login: integer(env, 'RATE_LIMIT_LOGIN', 30, 1, 100_000),
      noLoginLink: integer(env, 'RATE_LIMIT_NOLOGIN_LINK', 600, 1, 1_000_000),
    },
    frameAncestors,
    corsOrigins: corsOrigins(env),
    workerId,
    sms: smsConfig(env),
    autoLogin: {
      providerUrl: httpUrl(env, 'AUTO_LOGIN_PROVIDER_URL'),
      timeoutMs: integer(env, 'AUTO_LOGIN_TIMEOUT_MS', 10_000, 100, 120_000),
    },
    jobs: jobsConfig(env),
    refreshGraceSeconds: integer(env, 'REFRESH_GRACE_SECONDS', 10, 1, 60),
    trustProxy: trustProxy(env),
    weather: weatherConfig(env),
  };
}
