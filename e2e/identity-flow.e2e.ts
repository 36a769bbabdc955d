import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import {
  type Browser,
  chooseOption,
  clickWhenOpened,
  firstSignIn,
  openBrowser,
  openFromTopMenu,
  screenshot,
} from './support.ts';

/**
 * Issue 3 §7, end to end: the admin creates an org, a role with some menus and buttons and a data scope,
 * and a user; that user signs in and sees exactly those menus and buttons and only the rows in scope; the
 * admin forces them offline and their browser returns to /login. (Lock screen, mobile and scan sign-in
 * have their own files: sessions.e2e.ts and login-modes.e2e.ts.)
 */
describe('an admin sets up a user who then sees exactly what was granted', () => {
  let shuzhi: RunningShuzhi;
  let admin: Browser;
  let user: Browser;
  beforeAll(async () => {
    shuzhi = await launchShuzhi({ sys_captcha: 'false' });
    admin = await openBrowser();
    await firstSignIn(admin.page, 'admin', shuzhi.baseUrl);
  });
  afterAll(async () => {
    await user?.close();
    await admin?.close();
    await shuzhi?.stop();
  });

  const closeTopMenu = async (page: Page) => {
    await page.mouse.move(700, 740);
    await page.locator('.ant-menu-submenu-popup:visible').waitFor({ state: 'hidden' });
  };

  it('creates an org below 南京东路街道', async () => {
    const { page } = admin;
    await openFromTopMenu(page, '系统管理', '机构管理', /\/system\/org$/);
    const street = page
      .getByTestId('org-table')
      .locator('tr', { has: page.getByTestId('org-row-310101002') });
    await street.waitFor();
    await closeTopMenu(page);
    await street.getByTestId('org-add-child').click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByTestId('org-field-name').fill('南京东路流程测试社区');
    await dialog.getByTestId('org-field-code').fill('FLOW-COMM');
    await chooseOption(
      page,
      dialog.getByTestId('org-field-type'),
      page.locator('.ant-select-dropdown:visible [data-testid="dict-option"][data-value="community"]'),
    );
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page
      .getByTestId('org-table')
      .locator('tr', { has: page.getByTestId('org-row-FLOW-COMM') })
      .waitFor({ timeout: 10_000 });
  });

  it('creates a role with 账号管理 (查询 only) and 机构管理, data scope 2', async () => {
    const { page } = admin;
    await openFromTopMenu(page, '系统管理', '角色管理', /\/system\/role$/);
    await closeTopMenu(page);
    await page.getByTestId('role-add').click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByTestId('role-field-name').fill('流程巡查员');
    await dialog.getByTestId('role-field-code').fill('flow_patrol');
    await dialog.getByTestId('role-form-submit').click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByTestId('role-search-code').fill('flow_patrol');
    await page.getByTestId('role-search-submit').click();
    const rows = page.getByTestId('role-table').locator('tbody tr[data-row-key]');
    await expect.poll(() => rows.count()).toBe(1);

    await rows.first().getByTestId('role-action-menu').click();
    const drawer = page.getByTestId('role-grant-menu');
    await drawer.getByTestId('role-menu-system').waitFor({ timeout: 10_000 });
    await drawer.getByTestId('role-menu-expand').click();
    const checkbox = (name: string) =>
      drawer
        .locator('.ant-tree-treenode', { has: page.getByTestId(`role-menu-${name}`) })
        .locator('.ant-tree-checkbox')
        .first();
    await checkbox('sysOrg').click();
    await checkbox('sysUser:page').click();
    await drawer.getByTestId('role-grant-menu-save').click();
    await drawer.waitFor({ state: 'hidden' });

    await rows.first().getByTestId('role-action-scope').click();
    const modal = page.getByRole('dialog');
    await modal.getByTestId('role-scope-2').click();
    await page.getByTestId('role-scope-save').click();
    await modal.waitFor({ state: 'hidden' });
    await expect.poll(() => rows.first().textContent()).toContain('本部门及以下数据');
  });

  it('creates a user in 南京东路街道 holding that role', async () => {
    const { page } = admin;
    await openFromTopMenu(page, '系统管理', '账号管理', /\/system\/user$/);
    await closeTopMenu(page);
    await page.getByTestId('org-tree').getByText('南京东路街道', { exact: true }).click();
    await page.getByTestId('user-add').click();
    const drawer = page.getByTestId('user-drawer');
    await drawer.getByTestId('user-field-account').waitFor();
    await drawer.getByTestId('user-field-account').fill('flowuser1');
    await drawer.getByTestId('user-field-realName').fill('流程测试员');
    // The option list is virtual: type to bring the new role into view.
    await chooseOption(
      page,
      drawer.getByTestId('user-field-roleIdList'),
      page.locator('.ant-select-dropdown:visible').getByText('流程巡查员', { exact: true }),
      '流程巡查',
    );
    await drawer.getByText('账号信息').click();
    await page.getByTestId('user-form-submit').click();
    await drawer.waitFor({ state: 'hidden' });
    await expect
      .poll(() => page.getByTestId('user-table').textContent(), { timeout: 10_000 })
      .toContain('flowuser1');
  });

  it('the user sees exactly the granted menus and buttons, and only rows in scope', async () => {
    user = await openBrowser();
    const { page } = user;
    await firstSignIn(page, 'flowuser1', shuzhi.baseUrl);
    const top = page.getByTestId('top-menu');
    await expect.poll(() => top.textContent()).toContain('系统管理');
    await expect(top.textContent()).resolves.not.toContain('平台管理');

    await page.mouse.move(1, 400);
    await top.getByText('系统管理', { exact: true }).hover();
    const items = page.locator('.ant-menu-submenu-popup:visible .ant-menu-item');
    await expect.poll(() => items.allTextContents(), { timeout: 10_000 }).toEqual(['账号管理', '机构管理']);
    await screenshot(page, 'identity-flow-user-menu-1366');

    await openFromTopMenu(page, '系统管理', '账号管理', /\/system\/user$/);
    await closeTopMenu(page);
    const table = page.getByTestId('user-table');
    await expect.poll(() => table.textContent(), { timeout: 10_000 }).toContain('njdlstaff');
    const text = (await table.textContent()) ?? '';
    expect(text).toContain('flowuser1');
    expect(text).toContain('gzlstaff'); // 贵州路居民委员会 lies below 南京东路街道
    for (const outside of ['fgwstaff', 'hpleader', 'tjjdirector', 'mzjchief', 'admin']) {
      expect(text, outside).not.toContain(outside);
    }
    // Only 查询 was granted: no add, import or export, and no row actions that write.
    await expect(page.getByTestId('user-add').count()).resolves.toBe(0);
    await expect(page.getByTestId('user-import').count()).resolves.toBe(0);
    await expect(page.getByTestId('user-more').count()).resolves.toBe(0);
    await expect(page.getByTestId('user-edit').count()).resolves.toBe(0);
    // The org tree shows the user's street and the new community below it, not the rest of the district.
    const tree = page.getByTestId('org-tree');
    await expect.poll(() => tree.textContent()).toContain('南京东路街道');
    // Nothing on the page asked for what the user may not see (a refusal would show as a toast).
    await expect(page.locator('.ant-message-notice', { hasText: 'Forbidden' }).count()).resolves.toBe(0);
    await expect(page.getByText('操作', { exact: true }).count()).resolves.toBe(0);
    await screenshot(page, 'identity-flow-user-list-1366');
  });

  it('the admin forces the user offline and their browser returns to /login', async () => {
    await openFromTopMenu(admin.page, '系统管理', '在线用户', /\/system\/onlineUser$/);
    await closeTopMenu(admin.page);
    const force = admin.page.getByTestId('online-user-force-flowuser1').first();
    await force.waitFor({ timeout: 10_000 });
    await force.click();
    await clickWhenOpened(admin.page.getByTestId('online-user-force-ok'));
    await user.page.waitForURL(/\/login/, { timeout: 15_000 });
    await screenshot(user.page, 'identity-flow-forced-offline-1366');
  });
});
