import type { Kysely } from 'kysely';
import type { Migration } from '../../platform/db/migrator.ts';

// biome-ignore lint/suspicious/noExplicitAny: a migration works on any schema state.
type Db = Kysely<any>;

/** The log pages that now exist in the web app, with their directories; their buttons come along. */
const ENABLED_MENUS = ['platform', 'sysLog', 'sysLogVis', 'sysLogOp', 'sysLogEx', 'sysLogDiff'];

/**
 * The four log pages (访问日志, 操作日志, 异常日志, 差异日志) under 平台管理 › 日志管理 are switched on, with their
 * buttons, in databases seeded before they existed (seeding inserts missing rows and never updates one).
 */
export const m0004LogPages: Migration = {
  name: '0004-log-pages',
  async up(db: Db) {
    const menus = await db
      .selectFrom('sys_menu')
      .select('id')
      .where('name', 'in', ENABLED_MENUS)
      .where('type', 'in', [1, 2])
      .execute();
    const ids = menus.map((m) => m.id as number);
    if (ids.length === 0) return;
    await db
      .updateTable('sys_menu')
      .set({ status: 1 })
      .where((eb) => eb.or([eb('id', 'in', ids), eb.and([eb('pid', 'in', ids), eb('type', '=', 3)])]))
      .execute();
  },
};
