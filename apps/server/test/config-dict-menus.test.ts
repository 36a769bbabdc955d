import type { MenuNode } from '@shuzhi/contracts/menu';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { m0001Platform } from '../src/db/migrations/0001-platform.ts';
import { MIGRATIONS } from '../src/db/migrations/migrations.ts';
import { MENUS } from '../src/db/seeds/data/menus.ts';
import { DEMO_DATA, seed } from '../src/db/seeds/seed.ts';
import type { SeedMenu } from '../src/db/seeds/types.ts';
import { loadConfig } from '../src/platform/config/config.ts';
import { openDatabase } from '../src/platform/db/db.ts';
import { createIdGenerator } from '../src/platform/db/ids.ts';
import { migrate } from '../src/platform/db/migrator.ts';
import {
  authed,
  body,
  createTestApp,
  createTestEnv,
  login,
  TEST_HASH_COST,
  type TestEnv,
} from './helpers.ts';

const flatten = (nodes: MenuNode[]): MenuNode[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);

const PAGES = {
  sysConfig: { path: '/platform/config', component: '/platform/config/index' },
  sysDict: { path: '/platform/dict', component: '/platform/dict/index' },
  sysInfo: { path: '/platform/sysInfo', component: '/platform/sysInfo/index' },
};

async function menusOf(app: FastifyInstance, account: string) {
  const { accessToken } = await login(app, account);
  const tree = flatten(
    body<MenuNode[]>(await authed(app, accessToken, { url: '/api/sysMenu/loginMenuTree' })).result ?? [],
  );
  const buttons =
    body<string[]>(await authed(app, accessToken, { url: '/api/sysMenu/ownBtnPermList' })).result ?? [];
  return { tree, buttons };
}

function expectAdminPages(tree: MenuNode[], buttons: string[]) {
  const platform = tree.find((n) => n.name === 'platform');
  expect(platform).toMatchObject({ type: 1, path: '/platform', redirect: '/platform/config' });
  for (const [name, page] of Object.entries(PAGES)) {
    expect(
      tree.find((n) => n.name === name),
      name,
    ).toMatchObject({ type: 2, pid: platform?.id, ...page });
  }
  // Pages not built yet stay hidden.
  expect(tree.find((n) => n.name === 'sysCodeGen')).toBeUndefined();
  // 行政区划 is built.
  expect(tree.find((n) => n.name === 'sysRegion')).toMatchObject({ type: 2, pid: platform?.id });
  // The log pages sit in 日志管理 under 平台管理.
  expect(tree.find((n) => n.name === 'sysLog')).toMatchObject({ type: 1, pid: platform?.id });
  expect(buttons).toEqual(
    expect.arrayContaining([
      'sysConfig:page',
      'sysConfig:update',
      'sysConfig:batchDelete',
      'sysConfig:batchUpdate',
      'sysConfig:export',
      'sysDictType:add',
      'sysDictType:setStatus',
      'sysDictData:delete',
    ]),
  );
  expect(buttons).toContain('sysRegion:sync');
  expect(buttons).toContain('sysNotice:publish');
}

const PLATFORM_WIDE = ['sysConfig', 'sysDict', 'sysInfo', 'sysRegion', 'sysCache', 'sysServer'];

/** A tenant admin keeps 平台管理 with its tenant's pages (notices, files, logs), never a platform-wide one. */
function expectTenantAdminPages(tree: MenuNode[], buttons: string[]) {
  const platform = tree.find((n) => n.name === 'platform');
  expect(platform).toMatchObject({ type: 1, path: '/platform' });
  expect(tree.find((n) => n.name === 'sysNotice')).toMatchObject({ type: 2, pid: platform?.id });
  // The directory leads to a page the admin may open (its stored redirect, 参数配置, is not one).
  expect(tree.find((n) => n.path === platform?.redirect)).toMatchObject({ type: 2, pid: platform?.id });
  for (const name of PLATFORM_WIDE)
    expect(
      tree.find((n) => n.name === name),
      name,
    ).toBeUndefined();
  expect(buttons).toContain('sysNotice:publish');
  expect(buttons).not.toContain('sysCodeGen:page');
  expect(buttons.filter((b) => /^sys(Config|DictType|DictData|Region|Cache|Server):/.test(b))).toEqual([]);
}

describe('config, dictionary and system-info menus', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it('are on for the super admin of a new database, and off for tenant admins and others', async () => {
    const t = await createTestApp();
    cleanups.push(() => t.close());
    const su = await menusOf(t.app, 'superadmin');
    expectAdminPages(su.tree, su.buttons);
    // Platform-wide settings (docs/tenancy.md): not even the default tenant's admin is offered them.
    const admin = await menusOf(t.app, 'admin');
    expectTenantAdminPages(admin.tree, admin.buttons);
    const staff = await menusOf(t.app, 'fgwstaff');
    expect(staff.tree.map((n) => n.name)).not.toContain('platform');
    expect(staff.buttons.some((b) => b.startsWith('sysConfig:'))).toBe(false);
  });

  it('are switched on by migration 0002 in a database seeded before it', async () => {
    const env: TestEnv = await createTestEnv();
    cleanups.push(() => env.cleanup());
    const config = loadConfig(env.env);
    const { db, dialect } = openDatabase(config.database);
    // The database as the previous release left it: only 0001, menus seeded off, dictionary types without a flag.
    await migrate(db, dialect, [m0001Platform]);
    const seededBefore = (menus: SeedMenu[]): SeedMenu[] =>
      menus
        .filter((m) => m.name !== 'sysInfo')
        .map((m) => {
          const off = ['platform', 'sysConfig', 'sysDict', 'sysCache', 'sysServer'].includes(m.name);
          const children = m.children ? seededBefore(m.children) : undefined;
          return {
            ...m,
            ...(off ? { enabled: false } : {}),
            ...(children
              ? { children: off ? children.map((c) => ({ ...c, enabled: false })) : children }
              : {}),
          };
        });
    const ctx = { db, newId: createIdGenerator(1), passwordHashing: TEST_HASH_COST };
    // User groups came with migration 0007, jobs with 0008 and forms with 0009: the release before had none to seed.
    await seed(ctx, {
      ...DEMO_DATA,
      menus: seededBefore(MENUS),
      dicts: [],
      userGroups: [],
      jobs: [],
      formCategories: [],
      forms: [],
    });
    for (const code of ['sex', 'mine']) {
      await db
        .insertInto('sys_dict_type')
        .values({
          id: ctx.newId(),
          code,
          name: code,
          create_time: '2026-01-01 00:00:00',
          is_delete: 0,
        } as never)
        .execute();
    }
    const status = async (name: string) =>
      (
        await db
          .selectFrom('sys_menu')
          .select('status')
          .where('name', '=', name)
          .where('type', '!=', 3)
          .executeTakeFirst()
      )?.status;
    expect(await status('sysConfig')).toBe(2);
    // That release granted the tenant and its roles the pages that are platform-wide now.
    const platformWide = await db
      .selectFrom('sys_menu as m')
      .leftJoin('sys_menu as p', 'p.id', 'm.pid')
      .select('m.id')
      .where((eb) => eb.or([eb('m.name', 'in', PLATFORM_WIDE), eb('p.name', 'in', PLATFORM_WIDE)]))
      .execute();
    const tenant = await db.selectFrom('sys_tenant').select('id').executeTakeFirstOrThrow();
    const role = await db.selectFrom('sys_role').select('id').executeTakeFirstOrThrow();
    for (const { id } of platformWide) {
      await db
        .insertInto('sys_tenant_menu')
        .values({ id: ctx.newId(), tenant_id: tenant.id, menu_id: id })
        .execute();
      await db
        .insertInto('sys_role_menu')
        .values({ id: ctx.newId(), role_id: role.id, menu_id: id })
        .execute();
    }
    const grantsOf = async (table: 'sys_tenant_menu' | 'sys_role_menu') =>
      (
        await db
          .selectFrom(table)
          .select('id')
          .where(
            'menu_id',
            'in',
            platformWide.map((m) => m.id),
          )
          .execute()
      ).length;
    expect(platformWide.length).toBeGreaterThan(20);
    expect(await grantsOf('sys_tenant_menu')).toBe(platformWide.length);

    expect(await migrate(db, dialect, MIGRATIONS)).toEqual([
      '0002-config-dict-admin',
      '0003-logs',
      '0004-log-pages',
      '0005-cache-server-pages',
      '0006-regions',
      '0007-identity',
      '0008-notice-file-job',
      '0009-diy-forms',
      '0010-diy-pages',
      '0011-diy-collect-confirm',
      '0012-diy-periods-rollups-import',
      '0013-platform-wide-pages',
      '0014-service-sessions',
      '0015-text-search',
      '0016-tasks',
      '0017-task-urge',
      '0018-task-lifecycle',
      '0019-task-schedules',
      '0021-no-login-links',
      '0022-query-reports',
      '0023-task-review',
      '0025-cockpit',
      '0026-word-templates',
      '0027-public-statements-scenes',
      '0028-task-urge-retry',
    ]);
    for (const name of ['platform', 'sysConfig', 'sysDict', 'sysLog', 'sysLogOp'])
      expect(await status(name), name).toBe(1);
    for (const name of ['sysCache', 'sysServer']) expect(await status(name), name).toBe(1);
    expect(await status('sysRegion')).toBe(1);
    // 0013: no tenant nor role keeps a platform-wide page or its buttons.
    expect(await grantsOf('sys_tenant_menu')).toBe(0);
    expect(await grantsOf('sys_role_menu')).toBe(0);
    for (const name of ['system', 'sysUser', 'sysRole', 'sysOnlineUser'])
      expect(await status(name), name).toBe(1);
    for (const name of ['sysNotice', 'sysFile', 'sysJob']) expect(await status(name), name).toBe(1);
    for (const name of ['reportCenter', 'diyReport', 'diyReportAudit', 'diyTable', 'diyReportRecycle'])
      expect(await status(name), name).toBe(1);
    for (const name of ['diyReportPeriod', 'diyLoadTable']) expect(await status(name), name).toBe(1);
    expect(await status('sysCodeGen')).toBe(2);
    const config1 = await db
      .selectFrom('sys_menu')
      .select('id')
      .where('name', '=', 'sysConfig')
      .executeTakeFirstOrThrow();
    const buttons = await db.selectFrom('sys_menu').select('status').where('pid', '=', config1.id).execute();
    expect(buttons.length).toBeGreaterThan(5);
    expect(buttons.every((b) => b.status === 1)).toBe(true);
    const flags = await db.selectFrom('sys_dict_type').select(['code', 'sys_flag']).orderBy('code').execute();
    expect(flags).toEqual([
      { code: 'mine', sys_flag: 2 },
      { code: 'sex', sys_flag: 1 },
    ]);
    await db.destroy();

    // The next start seeds what is missing: the system-info page, on, for the super admin alone.
    const app = await buildApp({
      config,
      logger: false,
      passwordHashing: TEST_HASH_COST,
      cachePrefix: env.cachePrefix,
    });
    cleanups.unshift(() => app.close());
    await app.ctx.db
      .updateTable('sys_config')
      .set({ value: 'false' })
      .where('code', '=', 'sys_captcha')
      .execute();
    const su = await menusOf(app, 'superadmin');
    expectAdminPages(su.tree, su.buttons);
    const admin = await menusOf(app, 'admin');
    expectTenantAdminPages(admin.tree, admin.buttons);
  });
});
