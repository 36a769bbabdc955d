import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_PROFILES } from '@shuzhi/contracts/profiles';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateSm2KeyPair } from '../src/platform/auth/sm2.ts';
import { loadConfig } from '../src/platform/config/config.ts';
import { ConfigError } from '../src/platform/config/config-error.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'shuzhi-config-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const load = (env: Record<string, string> = {}) => loadConfig({ DATA_DIR: join(dir, 'data'), ...env }, dir);

function failure(env: Record<string, string>): ConfigError {
  try {
    load(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('configuration', () => {
  it('reads CORS_ORIGINS as normalised origins, none by default', () => {
    expect(load().corsOrigins).toEqual([]);
    expect(load({ CORS_ORIGINS: 'https://Portal.Example.test/, http://10.0.0.5:8080' }).corsOrigins).toEqual([
      'https://portal.example.test',
      'http://10.0.0.5:8080',
    ]);
    expect(failure({ CORS_ORIGINS: '*' }).variable).toBe('CORS_ORIGINS');
    expect(failure({ CORS_ORIGINS: 'https://a.test/path' }).variable).toBe('CORS_ORIGINS');
  });

  it('has defaults', () => {
    const config = load();
    expect(config).toMatchObject({
      port: 5005,
      host: '0.0.0.0',
      dataDir: join(dir, 'data'),
      database: { kind: 'sqlite', file: join(dir, 'data', 'shuzhi.db') },
      redisUrl: null,
      packageType: 0,
      logLevel: 'info',
    });
    expect(config.profile.areaCode).toBe('310101');
    expect(config.webDist.endsWith(join('apps', 'web', 'dist'))).toBe(true);
  });

  it('resolves DATA_DIR against the working directory and reads the other variables', () => {
    const config = loadConfig(
      {
        DATA_DIR: 'rel',
        PORT: '8080',
        PACKAGE_TYPE: '21',
        DATABASE_URL: 'postgres://u:p@db:5432/shuzhi',
        REDIS_URL: 'redis://cache:6379',
        LOG_LEVEL: 'debug',
      },
      dir,
    );
    expect(config).toMatchObject({
      dataDir: join(dir, 'rel'),
      port: 8080,
      packageType: 21,
      database: { kind: 'postgres', url: 'postgres://u:p@db:5432/shuzhi' },
      redisUrl: 'redis://cache:6379',
      logLevel: 'debug',
    });
  });

  it('names the variable and what is allowed', () => {
    expect(failure({ PORT: 'abc' }).message).toMatch(/PORT.*integer from 1 to 65535/);
    expect(failure({ PORT: '70000' }).variable).toBe('PORT');
    const packageType = failure({ PACKAGE_TYPE: '16' });
    expect(packageType.variable).toBe('PACKAGE_TYPE');
    expect(packageType.message).toContain('0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 21');
    expect(failure({ DATABASE_URL: 'mysql://x' }).message).toMatch(/DATABASE_URL.*postgres:\/\//);
    expect(failure({ REDIS_URL: 'http://x' }).variable).toBe('REDIS_URL');
    expect(failure({ LOG_LEVEL: 'loud' }).message).toContain(
      'fatal, error, warn, info, debug, trace, silent',
    );
    expect(failure({ JWT_SECRET: 'short' }).message).toMatch(/JWT_SECRET.*32/);
    expect(failure({ SM2_PUBLIC_KEY: generateSm2KeyPair().publicKey }).variable).toBe('SM2_PRIVATE_KEY');
    const a = generateSm2KeyPair();
    const b = generateSm2KeyPair();
    expect(failure({ SM2_PUBLIC_KEY: a.publicKey, SM2_PRIVATE_KEY: b.privateKey }).message).toContain(
      'does not belong',
    );
    expect(failure({ SM2_PUBLIC_KEY: 'zz', SM2_PRIVATE_KEY: a.privateKey }).variable).toBe('SM2_PUBLIC_KEY');
  });

  it('validates a profiles file', () => {
    const file = join(dir, 'profiles.json');
    writeFileSync(file, JSON.stringify([{ packageType: 0, areaCode: 'bad' }]));
    expect(failure({ PROFILES_FILE: file }).variable).toBe('PROFILES_FILE');
    writeFileSync(file, '{not json');
    expect(failure({ PROFILES_FILE: file }).message).toContain('cannot read JSON');
    const custom = DEFAULT_PROFILES.filter((p) => p.packageType === 3);
    writeFileSync(file, JSON.stringify(custom));
    expect(load({ PROFILES_FILE: file, PACKAGE_TYPE: '3' }).profile.packageType).toBe(3);
    expect(failure({ PROFILES_FILE: file, PACKAGE_TYPE: '0' }).message).toContain('no profile for 0');
  });

  it('generates keys once in DATA_DIR/keys.json (mode 0600) and reuses them', () => {
    const first = load();
    const file = join(dir, 'data', 'keys.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const second = load();
    expect(second.sm2).toEqual(first.sm2);
    expect(second.jwtSecret).toBe(first.jwtSecret);
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(JSON.parse(readFileSync(file, 'utf8')).sm2PrivateKey).toBe(first.sm2.privateKey);
  });

  it('prefers keys from the environment', () => {
    const pair = generateSm2KeyPair();
    const secret = 'x'.repeat(40);
    const config = load({
      SM2_PUBLIC_KEY: pair.publicKey.slice(2),
      SM2_PRIVATE_KEY: pair.privateKey,
      JWT_SECRET: secret,
    });
    expect(config.sm2).toEqual(pair);
    expect(config.jwtSecret).toBe(secret);
  });
});
