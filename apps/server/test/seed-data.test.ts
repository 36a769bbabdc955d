import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { CITY_ADMIN_ROLE_CODE, SPECIAL_ROLE_NAMES } from '@shuzhi/contracts/auth';
import { CONFIG_DEFAULTS } from '@shuzhi/contracts/config';
import { ALL_PERMISSIONS, isPermission } from '@shuzhi/contracts/permissions';
import { isAccount, isCreditCode, isEmail, isMobile, parseIdCard } from '@shuzhi/contracts/validators';
import { describe, expect, it } from 'vitest';
import { CONFIGS } from '../src/db/seeds/data/configs.ts';
import { DICTS } from '../src/db/seeds/data/dicts.ts';
import { MENUS } from '../src/db/seeds/data/menus.ts';
import { ORGS } from '../src/db/seeds/data/orgs.ts';
import { POSITIONS } from '../src/db/seeds/data/positions.ts';
import { ROLES } from '../src/db/seeds/data/roles.ts';
import { USER_GROUPS } from '../src/db/seeds/data/user-groups.ts';
import { USERS } from '../src/db/seeds/data/users.ts';
import type { SeedOrg, SeedOrgType } from '../src/db/seeds/types.ts';

type WithParents<T> = { node: T; parents: T[] };

function walk<T extends { children?: T[] }>(nodes: T[], parents: T[] = []): WithParents<T>[] {
  return nodes.flatMap((node) => [{ node, parents }, ...walk(node.children ?? [], [...parents, node])]);
}

const menus = walk(MENUS);
const menuByName = new Map(menus.map(({ node }) => [node.name, node]));
const orgs = walk(ORGS);
const orgByCode = new Map(orgs.map(({ node }) => [node.code, node]));
const dict = (code: string) => DICTS.find((d) => d.code === code)!;
const dictValues = (code: string) => dict(code).items.map((i) => i.value);

describe('menus', () => {
  it('have unique names (a button: within its page, since a permission may sit on two pages)', () => {
    const names = menus.filter(({ node }) => node.type !== 3).map(({ node }) => node.name);
    expect(new Set(names).size).toBe(names.length);
    for (const { node } of menus) {
      const buttons = (node.children ?? []).filter((c) => c.type === 3).map((c) => c.name);
      expect(new Set(buttons).size, node.name).toBe(buttons.length);
    }
  });

  it('nest directories → menus → buttons', () => {
    for (const { node, parents } of menus) {
      const parent = parents.at(-1);
      if (node.type === 3) {
        expect(parent?.type, node.name).toBe(2);
        expect(node.children ?? [], node.name).toHaveLength(0);
      } else {
        expect(node.path, node.name).toMatch(/^\/[\w/:-]*$/);
        expect(node.icon, node.name).toMatch(/^[A-Z]\w+(Outlined|Filled|TwoTone)$/);
        expect(node.title, node.name).toMatch(/\p{Script=Han}/u);
      }
      if (node.type === 2) expect(node.component, node.name).toMatch(/^\/[\w/-]+\/index$/);
      if (node.type === 1) {
        expect(node.children?.length, node.name).toBeGreaterThan(0);
        expect(parent === undefined || parent.type === 1, node.name).toBe(true);
      }
      if (node.type === 2) expect(parent === undefined || parent.type === 1, node.name).toBe(true);
    }
  });

  it('buttons carry catalogue permissions named by themselves, and cover the whole catalogue', () => {
    const buttons = menus.filter(({ node }) => node.type === 3).map(({ node }) => node);
    for (const b of buttons) {
      expect(b.name).toBe(b.permission);
      expect(isPermission(b.permission ?? ''), b.name).toBe(true);
    }
    expect(menus.filter(({ node }) => node.type !== 3 && node.permission)).toHaveLength(0);
    expect(new Set(buttons.map((b) => b.permission))).toEqual(new Set(ALL_PERMISSIONS));
  });

  it('enable only the pages that exist, and directories exactly when a child is enabled', () => {
    const enabledPages = menus
      .filter(({ node }) => node.enabled && node.type === 2)
      .map(({ node }) => node.name);
    expect(enabledPages.sort()).toEqual([
      'about',
      'cockpit',
      'diyCustomScene',
      'diyFormTable',
      'diyLoadTable',
      'diyMyTask',
      'diyNoLoginLink',
      'diyReport',
      'diyReportAudit',
      'diyReportPeriod',
      'diyReportRecycle',
      'diyStatement',
      'diyTable',
      'diyTableClassify',
      'diyTableDesign',
      'diyTask',
      'diyTaskDetail',
      'diyTaskSchedule',
      'diyWord',
      'efficiencyBoard',
      'enterprisePortal',
      'formBoard',
      'home',
      'jobDashboard',
      'sysCache',
      'sysConfig',
      'sysDict',
      'sysFile',
      'sysInfo',
      'sysJob',
      'sysLogDiff',
      'sysLogEx',
      'sysLogOp',
      'sysLogVis',
      'sysMenu',
      'sysNotice',
      'sysOnlineUser',
      'sysOpenAccess',
      'sysOrg',
      'sysPos',
      'sysRegion',
      'sysRole',
      'sysServer',
      'sysTenant',
      'sysUser',
      'sysUserCenter',
      'sysUserGroup',
      'sysUserOpPassword',
    ]);
    for (const { node, parents } of menus) {
      if (node.type === 1) expect(node.enabled, node.name).toBe((node.children ?? []).some((c) => c.enabled));
      if (node.enabled) {
        for (const p of parents) expect(p.enabled, `${p.name} holds enabled ${node.name}`).toBe(true);
      }
    }
  });

  it('seed the three live pages as the web app expects', () => {
    expect(menuByName.get('home')).toMatchObject({
      type: 2,
      path: '/dashboard',
      component: '/home/dashboard/index',
      isAffix: true,
      enabled: true,
    });
    expect(menuByName.get('sysUserCenter')).toMatchObject({
      type: 2,
      path: '/system/userCenter',
      component: '/system/userCenter/index',
      isHide: true,
      enabled: true,
    });
    expect(menuByName.get('about')).toMatchObject({
      type: 2,
      path: '/about',
      component: '/about/index',
      enabled: true,
    });
    expect(menuByName.get('about')?.isHide ?? false).toBe(false);
  });

  it('cover every admin area of SPEC §2', () => {
    for (const name of [
      'sysTag',
      'sysRole',
      'about',
      'sysCache',
      'sysCodeGen',
      'sysConfig',
      'sysDataDecrypt',
      'sysDbDesigner',
      'sysDict',
      'sysFile',
      'sysFormDesigner',
      'sysJob',
      'sysLogDiff',
      'sysLogEx',
      'sysLogOp',
      'sysLogVis',
      'sysMenu',
      'sysNotice',
      'sysOcr',
      'sysOnlineUser',
      'sysOpenAccess',
      'sysOrg',
      'sysPlugin',
      'sysPos',
      'sysPrint',
      'sysPrintDesigner',
      'sysRegion',
      'sysServer',
      'sysCityTableSync',
      'sysTableDataNo',
      'sysTableRelation',
      'sysTaskFlow',
      'sysTenant',
      'sysTimedDecrypt',
      'sysTimedSql',
      'sysUser',
      'sysUserEdit',
      'sysUserOpPassword',
      'sysUserCenter',
      'sysUserGroup',
      'sysWechatUser',
      'sysCompanyTool',
      'sysDataTransfer',
      'sysVisualDemo',
    ]) {
      expect(menuByName.has(name), name).toBe(true);
    }
  });

  it('have unique paths among pages', () => {
    const paths = menus.filter(({ node }) => node.type !== 3).map(({ node }) => node.path);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('use icons that exist in @ant-design/icons', () => {
    let iconsDir: string;
    try {
      iconsDir = join(
        dirname(createRequire(import.meta.url).resolve('@ant-design/icons/package.json')),
        'lib/icons',
      );
    } catch {
      return; // the web app's dependencies are not installed here
    }
    for (const { node } of menus) {
      if (node.icon) expect(existsSync(join(iconsDir, `${node.icon}.js`)), node.icon).toBe(true);
    }
  });
});

describe('orgs', () => {
  it('have unique codes and dictionary types', () => {
    const codes = orgs.map(({ node }) => node.code);
    expect(new Set(codes).size).toBe(codes.length);
    const types = new Set(dictValues('org_type'));
    for (const { node } of orgs) expect(types.has(node.type), node.code).toBe(true);
  });

  it('form district → streets → communities → grids, with departments and enterprises', () => {
    expect(ORGS).toHaveLength(1);
    const [root] = ORGS;
    expect(root).toMatchObject({ code: '310101', name: '黄浦区', type: 'district', regionCode: '310101' });
    const kids = (o: SeedOrg, type: SeedOrgType) => (o.children ?? []).filter((c) => c.type === type);
    const streets = kids(root, 'street');
    expect(streets.length).toBeGreaterThanOrEqual(3);
    for (const s of streets) {
      expect(s.code).toMatch(/^310101\d{3}$/);
      expect(s.regionCode).toBe(s.code);
      expect(s.name).toMatch(/街道$/);
      const communities = kids(s, 'community');
      expect(communities.length, s.name).toBeGreaterThanOrEqual(2);
      for (const c of communities) {
        expect(c.code).toMatch(new RegExp(`^${s.code}\\d{3}$`));
        expect(c.name).toMatch(/居民委员会$/);
        const grids = kids(c, 'grid');
        expect(grids, c.name).toHaveLength(2);
        for (const g of grids) expect(g.code).toMatch(new RegExp(`^${c.code}\\d{2}$`));
      }
    }
    expect(kids(root, 'department').length).toBeGreaterThanOrEqual(6);
    for (const { node, parents } of orgs) {
      if (node.type === 'enterprise') {
        expect(isCreditCode(node.code), node.code).toBe(true);
        expect(parents.at(-1)?.type).toBe('street');
      }
      if (node.type === 'department') expect(['district', 'department']).toContain(parents.at(-1)?.type);
    }
    expect(orgs.filter(({ node }) => node.type === 'enterprise').length).toBeGreaterThanOrEqual(2);
  });
});

describe('positions and roles', () => {
  it('have unique codes', () => {
    expect(new Set(POSITIONS.map((p) => p.code)).size).toBe(POSITIONS.length);
    expect(new Set(ROLES.map((r) => r.code)).size).toBe(ROLES.length);
    expect(new Set(ROLES.map((r) => r.name)).size).toBe(ROLES.length);
  });

  it('include one role per data scope with the Admin.NET codes', () => {
    const scopes = Object.fromEntries(ROLES.map((r) => [r.code, r.dataScope]));
    expect(scopes).toMatchObject({ sys_admin: 1, sys_deptChild: 2, sys_dept: 3, sys_self: 4, sys_define: 5 });
    expect(ROLES.find((r) => r.code === 'sys_admin')?.menus).toBe('all');
  });

  it('include the special role names and the city admin code', () => {
    const names = ROLES.map((r) => r.name);
    for (const name of Object.values(SPECIAL_ROLE_NAMES)) expect(names).toContain(name);
    expect(ROLES.map((r) => r.code)).toContain(CITY_ADMIN_ROLE_CODE);
  });

  it('reference existing orgs and menus, each granted page with its directory', () => {
    for (const role of ROLES) {
      if (role.dataScope === 5) expect(role.customOrgCodes?.length, role.code).toBeGreaterThan(0);
      else expect(role.customOrgCodes, role.code).toBeUndefined();
      for (const code of role.customOrgCodes ?? []) expect(orgByCode.has(code), code).toBe(true);
      if (role.menus === 'all') continue;
      const granted = new Set(role.menus);
      expect(granted.size, `${role.code} lists a menu twice`).toBe(role.menus.length);
      for (const name of role.menus) {
        expect(menuByName.has(name), `${role.code} → ${name}`).toBe(true);
        const entry = menus.find(({ node }) => node.name === name)!;
        for (const p of entry.parents)
          expect(granted.has(p.name), `${role.code}: ${name} without ${p.name}`).toBe(true);
      }
      for (const name of ['home', 'sysUserCenter', 'about']) expect(granted.has(name), role.code).toBe(true);
    }
  });
});

describe('user groups', () => {
  it('have unique codes and names, and members among the demo accounts', () => {
    expect(new Set(USER_GROUPS.map((g) => g.code)).size).toBe(USER_GROUPS.length);
    expect(new Set(USER_GROUPS.map((g) => g.name)).size).toBe(USER_GROUPS.length);
    const accounts = new Set(USERS.map((u) => u.account));
    for (const group of USER_GROUPS) {
      expect(group.members.length, group.code).toBeGreaterThan(0);
      expect(new Set(group.members).size, group.code).toBe(group.members.length);
      for (const account of group.members)
        expect(accounts.has(account), `${group.code} → ${account}`).toBe(true);
    }
  });
});

describe('users', () => {
  const today = new Date(2026, 10, 21);

  it('have unique, well-formed accounts', () => {
    const accounts = USERS.map((u) => u.account);
    expect(new Set(accounts).size).toBe(accounts.length);
    for (const a of accounts) {
      expect(a).toMatch(/^[a-z][a-z0-9]{4,15}$/);
      expect(isAccount(a)).toBe(true);
    }
  });

  it('reference existing orgs, positions and roles', () => {
    const posCodes = new Set(POSITIONS.map((p) => p.code));
    const roleCodes = new Set(ROLES.map((r) => r.code));
    for (const u of USERS) {
      expect(orgByCode.has(u.orgCode), u.account).toBe(true);
      if (u.posCode) expect(posCodes.has(u.posCode), u.account).toBe(true);
      for (const r of u.roleCodes) expect(roleCodes.has(r), `${u.account} → ${r}`).toBe(true);
      for (const o of u.extOrgCodes ?? []) expect(orgByCode.has(o), `${u.account} → ${o}`).toBe(true);
    }
  });

  it('carry valid ID numbers, mobiles and e-mails', () => {
    const ids = new Set<string>();
    const phones = new Set<string>();
    for (const u of USERS) {
      if (u.idCardNum) {
        const info = parseIdCard(u.idCardNum, today);
        expect(info, u.account).not.toBeNull();
        expect(info?.sex, u.account).toBe(u.sex);
        expect(info?.age, u.account).toBeGreaterThanOrEqual(18);
        ids.add(u.idCardNum);
      }
      if (u.phone) {
        expect(isMobile(u.phone), u.account).toBe(true);
        phones.add(u.phone);
      }
      if (u.email) expect(isEmail(u.email), u.account).toBe(true);
    }
    expect(ids.size).toBe(USERS.filter((u) => u.idCardNum).length);
    expect(phones.size).toBe(USERS.filter((u) => u.phone).length);
  });

  it('cover every kind: super admin, admin, leaders, staff, every role, city admin, enterprise', () => {
    const byAccount = new Map(USERS.map((u) => [u.account, u]));
    expect(byAccount.get('superadmin')).toMatchObject({ accountType: 999, realName: '超级管理员' });
    expect(byAccount.get('admin')).toMatchObject({
      accountType: 888,
      realName: '系统管理员',
      roleCodes: ['sys_admin'],
    });
    for (const role of ROLES) {
      expect(
        USERS.some((u) => u.roleCodes.includes(role.code)),
        `nobody holds ${role.code}`,
      ).toBe(true);
    }
    const staffOrgTypes = new Set(
      USERS.filter((u) => u.roleCodes.includes('staff')).map((u) => orgByCode.get(u.orgCode)?.type),
    );
    expect(staffOrgTypes).toEqual(new Set(['department', 'street', 'community', 'grid']));
    const members = USERS.filter((u) => u.accountType === 666);
    expect(members.length).toBeGreaterThan(0);
    for (const m of members) {
      const org = orgByCode.get(m.orgCode);
      expect(org?.type, m.account).toBe('enterprise');
      expect(m.enterprise, m.account).toBe(org?.name);
    }
    for (const u of USERS.filter((x) => x.accountType !== 666))
      expect(u.enterprise, u.account).toBeUndefined();
  });
});

describe('dictionaries and config', () => {
  it('have unique dictionary codes and values', () => {
    expect(new Set(DICTS.map((d) => d.code)).size).toBe(DICTS.length);
    for (const d of DICTS) {
      const values = d.items.map((i) => i.value);
      expect(new Set(values).size, d.code).toBe(values.length);
    }
  });

  it('match the shapes the product uses', () => {
    expect(new Set(dictValues('org_type'))).toEqual(
      new Set(['district', 'street', 'community', 'grid', 'department', 'enterprise']),
    );
    expect(dictValues('account_type')).toEqual(['999', '888', '777', '666']);
    expect(dictValues('menu_type')).toEqual(['1', '2', '3']);
    expect(dictValues('data_scope')).toEqual(['1', '2', '3', '4', '5']);
    expect(dict('status').items.map((i) => [i.value, i.label, i.tagType])).toEqual([
      ['1', '启用', 'success'],
      ['2', '停用', 'error'],
    ]);
    for (const code of ['sex', 'yes_no', 'notice_type']) expect(dict(code), code).toBeDefined();
  });

  it('seed every config code with its default', () => {
    expect(Object.fromEntries(CONFIGS.map((c) => [c.code, c.value]))).toEqual(CONFIG_DEFAULTS);
    const groups = new Set(dictValues('config_group'));
    for (const c of CONFIGS) {
      expect(c.sysFlag, c.code).toBe(1);
      expect(groups.has(c.groupCode), c.code).toBe(true);
      expect(c.name, c.code).toMatch(/\p{Script=Han}/u);
      expect(c.remark, c.code).toBeTruthy();
    }
  });
});
