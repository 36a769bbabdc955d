import type { Kysely } from 'kysely';
import type { Migration } from '../../platform/db/migrator.ts';

// biome-ignore lint/suspicious/noExplicitAny: a migration works on any schema state.
type Db = Kysely<any>;

/**
 * Marks the sessions that a signed request opened for an access key's bound user (`/api/auth/token`): a
 * service account has no password to change, so the forced password change never holds them back.
 */
export const m0014ServiceSessions: Migration = {
  name: '0014-service-sessions',
  async up(db: Db) {
    await db.schema
      .alterTable('sys_session')
      .addColumn('service', 'smallint', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
