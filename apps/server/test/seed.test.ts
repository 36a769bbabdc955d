import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/schema.ts';
import { DEFAULT_TENANT_ID, seed } from '../src/db/seeds/seed.ts';
import { createTestApp, type TestApp } from './helpers.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const TABLES: (keyof Database)[] = [
  'sys_tenant',
  'sys_org',
  'sys_pos',
  'sys_user',
  'sys_user_ext_org',
  'sys_role',
  'sys_user_role',
  'sys_role_menu',
  'sys_role_org',
  'sys_user_group',
  'sys_user_group_member',
  'sys_menu',
  'sys_tenant_menu',
  'sys_config',
  'sys_dict_type',
  'sys_dict_data',
];

async function counts(): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (const table of TABLES) {
    const row = await t.app.ctx.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    result[table] = Number(row.n);
  }
  return result;
}

describe('demo district seed', () => {
  it('creates a living district', async () => {
    const c = await counts();
    expect(c.sys_tenant).toBe(1);
    expect(c.sys_user).toBeGreaterThanOrEqual(10);
    expect(c.sys_menu).toBeGreaterThan(50);
    const tenant = await t.app.ctx.db.selectFrom('sys_tenant').selectAll().executeTakeFirstOrThrow();
    expect(tenant.id).toBe(DEFAULT_TENANT_ID);
    const root = await t.app.ctx.db.selectFrom('sys_org').selectAll().where('pid', '=', 0).execute();
    expect(root).toHaveLength(1);
    expect(tenant.org_id).toBe(root[0]?.id);
    const grid = await t.app.ctx.db
      .selectFrom('sys_org')
      .selectAll()
      .where('code', '=', '31010100200101')
      .executeTakeFirstOrThrow();
    expect(grid.level).toBe(4);
    expect(grid.full_ids.split(',')).toHaveLength(4);
    expect(grid.full_names.startsWith('黄浦区/南京东路街道/')).toBe(true);
    const users = await t.app.ctx.db.selectFrom('sys_user').select(['password', 'is_def_pwd']).execute();
    expect(users.every((u) => u.password.startsWith('$argon2id$') && u.is_def_pwd === 1)).toBe(true);
    // User groups with their members across orgs.
    const members = await t.app.ctx.db
      .selectFrom('sys_user_group as g')
      .innerJoin('sys_user_group_member as m', 'm.group_id', 'g.id')
      .innerJoin('sys_user as u', 'u.id', 'm.user_id')
      .select(['g.code', 'g.tenant_id', 'u.account'])
      .execute();
    expect(c.sys_user_group).toBe(3);
    expect(members.every((m) => m.tenant_id === DEFAULT_TENANT_ID)).toBe(true);
    expect(
      members
        .filter((m) => m.code === 'njdl_work_group')
        .map((m) => m.account)
        .sort(),
    ).toEqual(['gzlstaff', 'njdleader', 'njdlstaff']);
    expect(
      members
        .filter((m) => m.code === 'stat_report_liaison')
        .map((m) => m.account)
        .sort(),
    ).toEqual(['fgwstaff', 'mzjchief', 'tjjdirector']);
  });

  it('seeding again changes nothing and keeps what an admin changed', async () => {
    const db = t.app.ctx.db;
    await db
      .updateTable('sys_config')
      .set({ value: '9' })
      .where('code', '=', 'sys_passwd_max_error_times')
      .execute();
    await db.updateTable('sys_org').set({ name: '改名的街道' }).where('code', '=', '310101002').execute();
    const role = await db
      .selectFrom('sys_role')
      .select('id')
      .where('code', '=', 'staff')
      .executeTakeFirstOrThrow();
    const link = await db
      .selectFrom('sys_role_menu')
      .select(['id', 'menu_id'])
      .where('role_id', '=', role.id)
      .executeTakeFirstOrThrow();
    await db.deleteFrom('sys_role_menu').where('id', '=', link.id).execute();
    await db.updateTable('sys_dict_data').set({ is_delete: 1 }).where('value', '=', 'grid').execute();
    const before = await counts();

    const report = await seed(t.app.ctx);
    expect(Object.values(report).reduce((a, b) => a + b, 0)).toBe(0);
    expect(await counts()).toEqual(before);

    const config = await db
      .selectFrom('sys_config')
      .select('value')
      .where('code', '=', 'sys_passwd_max_error_times')
      .executeTakeFirstOrThrow();
    expect(config.value).toBe('9');
    const org = await db
      .selectFrom('sys_org')
      .select('name')
      .where('code', '=', '310101002')
      .executeTakeFirstOrThrow();
    expect(org.name).toBe('改名的街道');
    const relinked = await db
      .selectFrom('sys_role_menu')
      .select('id')
      .where('role_id', '=', role.id)
      .where('menu_id', '=', link.menu_id)
      .executeTakeFirst();
    expect(relinked).toBeUndefined();
  });

  it('adds what is missing, with its links', async () => {
    const db = t.app.ctx.db;
    const user = await db
      .selectFrom('sys_user')
      .select('id')
      .where('account', '=', 'gridstaff')
      .executeTakeFirstOrThrow();
    await db.deleteFrom('sys_user_role').where('user_id', '=', user.id).execute();
    await db.deleteFrom('sys_user_ext_org').where('user_id', '=', user.id).execute();
    await db.deleteFrom('sys_user_group_member').where('user_id', '=', user.id).execute();
    await db.deleteFrom('sys_user').where('id', '=', user.id).execute();
    const report = await seed(t.app.ctx);
    expect(report).toMatchObject({
      sys_user: 1,
      sys_user_role: 1,
      sys_user_ext_org: 1,
      sys_user_group_member: 1,
      sys_user_group: 0,
    });
    const again = await db
      .selectFrom('sys_user')
      .select(['id', 'street'])
      .where('account', '=', 'gridstaff')
      .executeTakeFirstOrThrow();
    expect(again.id).not.toBe(user.id);
    // The new row takes the org names as they are now.
    expect(again.street).toBe('改名的街道');
  });
});
