import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSm2KeyPair, sm2PublicKeyOf } from '../auth/sm2.ts';
import { ConfigError } from './config-error.ts';

type Env = Record<string, string | undefined>;
type StoredKeys = { sm2PublicKey?: string; sm2PrivateKey?: string; jwtSecret?: string; dataKey?: string };

/** SM4 data key: 16 bytes as 32 hex digits. */
const DATA_KEY = /^[0-9a-fA-F]{32}$/;

const HEX = /^[0-9a-fA-F]+$/;

function normalizePublicKey(key: string): string {
  // Accept the key with or without the uncompressed-point prefix; clients get it with `04`.
  const lower = key.toLowerCase();
  return lower.length === 128 ? `04${lower}` : lower;
}

function checkSm2Pair(publicKey: string, privateKey: string, source: string) {
  const variable = source === 'env' ? 'SM2_PUBLIC_KEY' : 'DATA_DIR/keys.json';
  if (!HEX.test(publicKey) || publicKey.length !== 130 || !publicKey.startsWith('04')) {
    throw new ConfigError(
      variable,
      'the SM2 public key must be 128 hex digits (optionally prefixed with 04)',
    );
  }
  if (!HEX.test(privateKey) || privateKey.length !== 64) {
    throw new ConfigError(
      source === 'env' ? 'SM2_PRIVATE_KEY' : variable,
      'the SM2 private key must be 64 hex digits',
    );
  }
  const derived = sm2PublicKeyOf(privateKey);
  if (derived !== publicKey) {
    throw new ConfigError(variable, 'SM2_PUBLIC_KEY does not belong to SM2_PRIVATE_KEY');
  }
}

function readStored(file: string): StoredKeys {
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as StoredKeys;
  } catch (error) {
    throw new ConfigError('DATA_DIR', `${file} is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * SM2 key pair, JWT secret and the SM4 data key (encrypts stored secrets such as open-access secrets): from
 * the environment when given, otherwise from DATA_DIR/keys.json, generated there (mode 0600) at first start.
 */
export function resolveSecrets(env: Env, dataDir: string) {
  const envPublic = env.SM2_PUBLIC_KEY?.trim() || undefined;
  const envPrivate = env.SM2_PRIVATE_KEY?.trim() || undefined;
  const envJwt = env.JWT_SECRET?.trim() || undefined;
  const envDataKey = env.DATA_KEY?.trim() || undefined;
  if (envDataKey !== undefined && !DATA_KEY.test(envDataKey)) {
    throw new ConfigError('DATA_KEY', 'must be 32 hex digits (a 128-bit SM4 key)');
  }
  if ((envPublic === undefined) !== (envPrivate === undefined)) {
    throw new ConfigError(
      envPublic === undefined ? 'SM2_PUBLIC_KEY' : 'SM2_PRIVATE_KEY',
      'set both SM2_PUBLIC_KEY and SM2_PRIVATE_KEY, or neither (a pair is then generated)',
    );
  }
  if (envJwt !== undefined && envJwt.length < 32) {
    throw new ConfigError('JWT_SECRET', 'must be at least 32 characters long');
  }

  const needsFile = envPublic === undefined || envJwt === undefined || envDataKey === undefined;
  let stored: StoredKeys = {};
  const file = join(dataDir, 'keys.json');
  if (needsFile) {
    try {
      mkdirSync(dataDir, { recursive: true });
    } catch (error) {
      throw new ConfigError('DATA_DIR', `cannot create ${dataDir}: ${(error as Error).message}`);
    }
    stored = readStored(file);
    let changed = false;
    if (envPublic === undefined && (!stored.sm2PublicKey || !stored.sm2PrivateKey)) {
      const pair = generateSm2KeyPair();
      stored.sm2PublicKey = pair.publicKey;
      stored.sm2PrivateKey = pair.privateKey;
      changed = true;
    }
    if (envJwt === undefined && !stored.jwtSecret) {
      stored.jwtSecret = randomBytes(48).toString('base64url');
      changed = true;
    }
    // Generated once and never rotated silently: secrets encrypted with it would become unreadable.
    if (envDataKey === undefined && !stored.dataKey) {
      stored.dataKey = randomBytes(16).toString('hex');
      changed = true;
    }
    if (changed) writeFileSync(file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
  }

  const publicKey = normalizePublicKey(envPublic ?? stored.sm2PublicKey ?? '');
  const privateKey = (envPrivate ?? stored.sm2PrivateKey ?? '').toLowerCase();
  checkSm2Pair(publicKey, privateKey, envPublic ? 'env' : 'file');
  const jwtSecret = envJwt ?? stored.jwtSecret ?? '';
  if (jwtSecret.length < 32)
    throw new ConfigError('DATA_DIR/keys.json', 'jwtSecret must be at least 32 characters long');
  const dataKey = (envDataKey ?? stored.dataKey ?? '').toLowerCase();
  if (!DATA_KEY.test(dataKey)) throw new ConfigError('DATA_DIR/keys.json', 'dataKey must be 32 hex digits');
  return { sm2: { publicKey, privateKey }, jwtSecret, dataKey };
}
