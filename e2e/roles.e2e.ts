import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import { type Browser, firstSignIn, openBrowser, openFromTopMenu, screenshot } from './support.ts';

const rows = (browser: Browser) => browser.page.getByTestId('role-table').locator('tbody tr[data-row-key]');
const menuNode = (browser: Browser, name: string) =>
  browser.page.getByTestId('role-grant-menu').locator('.ant-tree-treenode', {
    has: browser.page.getByTestId(`role-menu-${name}`),
  });
const menuCheckbox = (browser: Browser, name: string) =>
  menuNode(browser, name).locator('.ant-tree-checkbox').first();

/** Its own server: the admin signs in for the first time and creates a role. */
describe('an admin creates a role, grants it menus, buttons and a custom data scope', () => {
  let shuzhi: RunningShuzhi;
  let browser: Browser;
  beforeAll(async () => {
    shuzhi = await launchShuzhi({ sys_captcha: 'false' });
    browser = await openBrowser();
    await firstSignIn(browser.page, 'admin', shuzhi.baseUrl);
  });
  afterAll(async () => {
    await browser?.close();
    await shuzhi?.stop();
  });

  it('lists the seeded roles with their data scope and adds 巡查员', async () => {
    const { page } = browser;
    await openFromTopMenu(page, '系统管理', '角色管理', /\/system\/role$/);
    await expect.poll(() => rows(browser).count(), { timeout: 10_000 }).toBeGreaterThan(5);
    await expect.poll(() => page.getByTestId('role-table').textContent()).toContain('系统管理员');
    await expect.poll(() => page.getByTestId('role-table').textContent()).toContain('本部门及以下数据');
    // Close the top menu's pop-up; the status switches fit on a 1366-pixel screen beside the actions.
    await page.mouse.move(1000, 180);
    await page.keyboard.press('Escape');
    await page.locator('.ant-menu-submenu-popup:visible').waitFor({ state: 'hidden' });
    const status = await rows(browser).first().getByTestId('crud-status-switch').boundingBox();
    expect(status?.x ?? 9999).toBeLessThan(1366 - 300);
    await screenshot(page, 'roles-list-1366');
    // The tenant admin role (sys_admin) cannot be disabled: its switch is off limits, the tooltip says why.
    const adminRow = rows(browser).filter({ hasText: 'sys_admin' });
    await expect.poll(() => adminRow.getByTestId('crud-status-switch').isDisabled()).toBe(true);
    await adminRow.getByTestId('crud-status-blocked').hover();
    await page.getByRole('tooltip').filter({ hasText: '租户管理员角色不能停用' }).waitFor();
    await screenshot(page, 'roles-admin-status-blocked-1366');
    await page.mouse.move(0, 0);

    await page.getByTestId('role-add').click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByTestId('role-field-name').fill('巡查员');
    await dialog.getByTestId('role-field-code').fill('patrol');
    await dialog.getByTestId('role-form-submit').click();
    await dialog.waitFor({ state: 'hidden' });

    await page.getByTestId('role-search-code').fill('patrol');
    await page.getByTestId('role-search-submit').click();
    await expect.poll(() => rows(browser).count()).toBe(1);
    await expect.poll(() => rows(browser).first().textContent()).toContain('仅本人数据');
  });

  it('grants a whole page and one button of another page; re-opening shows the same checks', async () => {
    const { page } = browser;
    await rows(browser).first().getByTestId('role-action-menu').click();
    const drawer = page.getByTestId('role-grant-menu');
    await drawer.getByTestId('role-menu-system').waitFor({ timeout: 10_000 });
    await drawer.getByTestId('role-menu-expand').click();
    await menuCheckbox(browser, 'sysOrg').click(); // 机构管理 with all its buttons
    await menuCheckbox(browser, 'sysRole:page').click(); // 角色管理: only 查询
    await expect
      .poll(() => menuCheckbox(browser, 'sysRole').getAttribute('class'))
      .toContain('indeterminate');
    await expect.poll(() => menuCheckbox(browser, 'sysOrg:add').getAttribute('class')).toContain('checked');
    await menuNode(browser, 'sysRole:page').scrollIntoViewIfNeeded();
    await screenshot(page, 'roles-grant-menu-1366');
    await drawer.getByTestId('role-grant-menu-save').click();
    await drawer.waitFor({ state: 'hidden' });

    await rows(browser).first().getByTestId('role-action-menu').click();
    await drawer.getByTestId('role-menu-system').waitFor({ timeout: 10_000 });
    await expect.poll(() => menuCheckbox(browser, 'system').getAttribute('class')).toContain('indeterminate');
    await expect.poll(() => menuCheckbox(browser, 'sysOrg').getAttribute('class')).toContain('checked');
    await expect
      .poll(() => menuCheckbox(browser, 'sysRole').getAttribute('class'))
      .toContain('indeterminate');
    await expect
      .poll(() => menuCheckbox(browser, 'sysUser').getAttribute('class'))
      .not.toMatch(/checked|indeterminate/);
    await drawer
      .getByRole('button', { name: '取 消' })
      .or(drawer.getByRole('button', { name: '取消' }))
      .click();
    await drawer.waitFor({ state: 'hidden' });
  });

  it('grants a custom data scope of two streets', async () => {
    const { page } = browser;
    await rows(browser).first().getByTestId('role-action-scope').click();
    const modal = page.getByRole('dialog');
    await modal.getByTestId('role-scope-5').click();
    const orgs = modal.getByTestId('role-scope-orgs');
    for (const name of ['外滩街道', '豫园街道']) {
      const node = orgs.locator('.ant-tree-treenode', { hasText: name }).first();
      await node.waitFor();
      await node.locator('.ant-tree-checkbox').first().click();
    }
    await expect.poll(() => modal.getByTestId('role-scope-org-count').textContent()).toContain('2');
    await screenshot(page, 'roles-data-scope-1366');
    await page.getByTestId('role-scope-save').click();
    await modal.waitFor({ state: 'hidden' });
    await expect.poll(() => rows(browser).first().textContent()).toContain('自定义数据');

    // Re-opened, the two streets are still checked.
    await rows(browser).first().getByTestId('role-action-scope').click();
    await expect.poll(() => modal.getByTestId('role-scope-org-count').textContent()).toContain('2');
  });
});
