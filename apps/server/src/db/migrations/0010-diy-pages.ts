import type { Kysely } from 'kysely';
import type { Migration } from '../../platform/db/migrator.ts';

// biome-ignore lint/suspicious/noExplicitAny: a migration works on any schema state.
type Db = Kysely<any>;

/** The report-form pages that now exist in the web app, with their directory; their buttons come along. */
const ENABLED_MENUS = [
  'reportCenter',
  'diyReport',
  'diyReportAudit',
  'diyTable',
  'diyReportRecycle',
  'diyTableClassify',
  'diyFormTable',
  'diyTableDesign',
];

/**
 * 报表中心 is switched on: 报表填报, 报表审核, 表单管理 (with the hidden designer and record list), 表单分类 and
 * 回收站, with their buttons, in databases seeded before they existed (seeding inserts missing rows — 表单分类,
 * 表单设计 and the recycle-bin buttons are new — and never updates one).
 */
export const m0010DiyPages: Migration = {
  name: '0010-diy-pages',
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
