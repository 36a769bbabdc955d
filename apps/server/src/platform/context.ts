import type { FastifyBaseLogger } from 'fastify';
import type { PasswordChange } from './auth/password-change.ts';
import type { TokenSigner } from './auth/tokens.ts';
import type { Cache } from './cache/cache.ts';
import type { AppConfig } from './config/config.ts';
import type { Db, Dialect } from './db/db.ts';
import type { IdGenerator } from './db/ids.ts';

/** What every service gets: configuration, database, cache, id generator and logger. */
export type AppContext = {
  config: AppConfig;
  db: Db;
  dialect: Dialect;
  cache: Cache;
  newId: IdGenerator;
  log: FastifyBaseLogger;
  tokens: TokenSigner;
  /** argon2 cost; tests lower it. */
  passwordHashing: { memoryCost: number; timeCost: number };
};

/** The signed-in caller of a request. */
export type AuthUser = {
  userId: number;
  tenantId: number;
  account: string;
  realName: string;
  accountType: number;
  orgId: number;
  orgName: string;
  sessionId: number;
  permissions: ReadonlySet<string>;
  /** Set while the account owes a password change: only the forced-change screen's calls are served. */
  passwordChange?: PasswordChange;
};
