import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import {
  type Browser,
  DEFAULT_PASSWORD,
  firstSignIn,
  openBrowser,
  openFromTopMenu,
  screenshot,
} from './support.ts';

const tenantRows = (browser: Browser) =>
  browser.page.getByTestId('tenant-table').locator('tbody tr[data-row-key]');
const menuRow = (browser: Browser, name: string) =>
  browser.page
    .getByTestId('menu-table')
    .locator('tbody tr', { has: browser.page.getByTestId(`menu-row-${name}`) });

/** Opens a top-menu directory and answers the texts of its pop-up's items. */
async function topMenuItems(browser: Browser, directory: string): Promise<string> {
  const { page } = browser;
  await page.mouse.move(1, 400);
  await page.getByTestId('top-menu').getByText(directory, { exact: true }).hover();
  const popup = page.locator('.ant-menu-submenu-popup:visible');
  await popup.first().waitFor({ timeout: 10_000 });
  const text = (await popup.first().textContent()) ?? '';
  await page.mouse.move(1, 700);
  return text;
}

/** Its own server: the operator creates a tenant and changes the global menus. */
describe('the platform operator creates a tenant and edits the menus', () => {
  let shuzhi: RunningShuzhi;
  let operator: Browser;
  let tenantAdmin: Browser;
  beforeAll(async () => {
    shuzhi = await launchShuzhi({ sys_captcha: 'false' });
    operator = await openBrowser();
    await firstSignIn(operator.page, 'superadmin', shuzhi.baseUrl);
  });
  // What the screen showed when a step failed, for the person reading the report.
  afterEach(async (context) => {
    if (context.task.result?.state !== 'fail') return;
    await screenshot(operator.page, `tenant-menu-failed-operator`).catch(() => undefined);
    if (tenantAdmin) await screenshot(tenantAdmin.page, `tenant-menu-failed-admin`).catch(() => undefined);
  });
  afterAll(async () => {
    await tenantAdmin?.close();
    await operator?.close();
    await shuzhi?.stop();
  });

  it('creates 浦东新区 with its admin account, looks at its menus and resets the admin password', async () => {
    const { page } = operator;
    await openFromTopMenu(page, '系统管理', '租户管理', /\/system\/tenant$/);
    await expect.poll(() => page.title()).toMatch(/^租户管理 - /);
    await expect.poll(() => tenantRows(operator).count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => page.getByTestId('tenant-table').textContent()).toContain('默认租户');

    await page.getByTestId('tenant-add').click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByTestId('tenant-field-name').fill('浦东新区');
    await dialog.getByTestId('tenant-field-code').fill('pudong');
    await dialog.getByTestId('tenant-field-admin-account').fill('pdadmin');
    await screenshot(page, 'tenant-add-1366');
    await dialog.getByTestId('tenant-form-submit').click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => tenantRows(operator).count(), { timeout: 10_000 }).toBe(2);
    await page.mouse.move(700, 740);
    await screenshot(page, 'tenant-list-1366');

    const row = tenantRows(operator).filter({ hasText: '浦东新区' });
    await row.getByTestId('tenant-action-menu').click();
    const drawer = page.getByTestId('tenant-grant-menu');
    await drawer.getByTestId('tenant-menu-system').waitFor({ timeout: 10_000 });
    // Tenant and menu management are the operator's own: they are not offered.
    await drawer.getByTestId('tenant-menu-expand').click();
    await drawer.getByTestId('tenant-menu-sysUser:add').waitFor();
    await expect(drawer.getByTestId('tenant-menu-sysTenant').count()).resolves.toBe(0);
    await expect(drawer.getByTestId('tenant-menu-sysMenu').count()).resolves.toBe(0);
    await expect
      .poll(() =>
        drawer
          .locator('.ant-tree-treenode', { has: page.getByTestId('tenant-menu-sysUser') })
          .locator('.ant-tree-checkbox')
          .first()
          .getAttribute('class'),
      )
      .toContain('checked');
    await drawer.locator('.ant-drawer-body').evaluate((el) => el.scrollTo(0, 0));
    await screenshot(page, 'tenant-grant-menu-1366');
    await drawer
      .getByRole('button', { name: '取 消' })
      .or(drawer.getByRole('button', { name: '取消' }))
      .click();
    await drawer.waitFor({ state: 'hidden' });

    await row.getByTestId('tenant-action-reset-pwd').click();
    await page.getByTestId('tenant-reset-pwd-ok').click();
    const shown = page.getByTestId('tenant-new-password');
    await shown.waitFor({ timeout: 10_000 });
    await expect(shown.textContent()).resolves.toContain(DEFAULT_PASSWORD);
    await screenshot(page, 'tenant-reset-pwd-1366');
    await page.getByTestId('tenant-password-close').click();
    await shown.waitFor({ state: 'hidden' });
  });

  it('lets the new tenant admin sign in, change the password and see the tenant menus only', async () => {
    tenantAdmin = await openBrowser();
    await firstSignIn(tenantAdmin.page, 'pdadmin', shuzhi.baseUrl);
    const system = await topMenuItems(tenantAdmin, '系统管理');
    expect(system).toContain('账号管理');
    expect(system).toContain('角色管理');
    expect(system).not.toContain('租户管理');
    expect(system).not.toContain('菜单管理');
    await screenshot(tenantAdmin.page, 'tenant-admin-dashboard-1366');
    await openFromTopMenu(tenantAdmin.page, '系统管理', '角色管理', /\/system\/role$/);
    await expect
      .poll(() => tenantAdmin.page.getByTestId('role-table').locator('tbody tr[data-row-key]').count(), {
        timeout: 10_000,
      })
      .toBe(1);
    await expect(tenantAdmin.page.getByTestId('role-table').textContent()).resolves.toContain('系统管理员');
    await screenshot(tenantAdmin.page, 'tenant-admin-roles-1366');
  });

  it('renames 通知公告 and adds a button to it; the tenant admin sees the new title', async () => {
    const { page } = operator;
    await openFromTopMenu(page, '系统管理', '菜单管理', /\/system\/menu$/);
    await expect.poll(() => page.title()).toMatch(/^菜单管理 - /);
    await page.getByTestId('menu-row-system').waitFor({ timeout: 10_000 });
    await page.mouse.move(700, 740);
    await screenshot(page, 'menu-list-1366');

    await page.getByTestId('menu-search-title').fill('通知公告');
    await page.getByTestId('menu-search-submit').click();
    await menuRow(operator, 'sysNotice').waitFor({ timeout: 10_000 });
    // The page with its directory and its buttons, nothing else.
    await menuRow(operator, 'sysNotice:publish').waitFor({ timeout: 10_000 });
    await expect
      .poll(() => page.getByTestId('menu-table').locator('tbody tr[data-row-key]').count())
      .toBeLessThan(15);
    await expect(page.getByTestId('menu-table').textContent()).resolves.not.toContain('账号管理');
    await screenshot(page, 'menu-search-1366');

    await menuRow(operator, 'sysNotice').getByTestId('menu-edit').click();
    const form = page.getByTestId('menu-form');
    const title = page.getByTestId('menu-field-title');
    await expect.poll(() => title.inputValue(), { timeout: 10_000 }).toBe('通知公告');
    await title.fill('公告管理');
    await screenshot(page, 'menu-edit-1366');
    await page.getByTestId('menu-form-save').click();
    await expect.poll(() => form.isVisible(), { timeout: 10_000 }).toBe(false);
    // The old title no longer matches the search; the new one does.
    await page.getByTestId('menu-search-title').fill('公告管理');
    await page.getByTestId('menu-search-submit').click();
    await expect
      .poll(() => menuRow(operator, 'sysNotice').textContent(), { timeout: 10_000 })
      .toContain('公告管理');

    // A new button under the page: the permission comes from the catalogue and names the button.
    await menuRow(operator, 'sysNotice').getByTestId('menu-add-child').click();
    await expect.poll(() => page.getByTestId('menu-field-permission').count(), { timeout: 10_000 }).toBe(1);
    await title.fill('查看字典');
    await page.getByTestId('menu-field-permission').click();
    await page.keyboard.type('sysDictType:detail');
    await page.locator('.ant-select-item-option[title="sysDictType:detail"]').click();
    await expect.poll(() => page.getByTestId('menu-field-name').inputValue()).toBe('sysDictType:detail');
    await screenshot(page, 'menu-add-button-1366');
    await page.getByTestId('menu-form-save').click();
    await expect.poll(() => form.isVisible(), { timeout: 10_000 }).toBe(false);
    await page.getByTestId('menu-expand').click();
    await menuRow(operator, 'sysDictType:detail').waitFor({ timeout: 10_000 });
    await expect(menuRow(operator, 'sysDictType:detail').textContent()).resolves.toContain('按钮');
    await screenshot(page, 'menu-button-added-1366');

    // The operator's own top menu follows at once; the tenant admin's on the next load. (Menus with a
    // translated title in the base locale, like 参数配置, keep showing the translation.)
    await expect.poll(() => topMenuItems(operator, '平台管理'), { timeout: 10_000 }).toContain('公告管理');
    await tenantAdmin.page.reload();
    await tenantAdmin.page.getByTestId('top-menu').waitFor();
    await expect.poll(() => topMenuItems(tenantAdmin, '平台管理'), { timeout: 10_000 }).toContain('公告管理');
  });
});
