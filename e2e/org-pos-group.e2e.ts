import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import {
  type Browser,
  chooseOption,
  firstSignIn,
  openBrowser,
  openFromTopMenu,
  screenshot,
} from './support.ts';

/** Its own server: it adds an org, a position and a group. */
describe('an admin keeps the org tree, positions and user groups', () => {
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

  const orgRow = (code: string) =>
    browser.page.getByTestId('org-table').locator('tr', { has: browser.page.getByTestId(`org-row-${code}`) });

  it('adds a child org under a street', async () => {
    const { page } = browser;
    await openFromTopMenu(page, '系统管理', '机构管理', /\/system\/org$/);
    await expect.poll(() => page.title()).toMatch(/^机构管理 - /);
    // The district opens on its streets and departments.
    await orgRow('310101002').waitFor();
    await expect(page.getByTestId('org-table').textContent()).resolves.toContain('区发展和改革委员会');
    await page.mouse.move(700, 700);
    await page.locator('.ant-menu-submenu-popup:visible').waitFor({ state: 'hidden' });
    await screenshot(page, 'org-tree-1366');

    await orgRow('310101002').getByTestId('org-add-child').click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    // The parent is filled in from the row.
    await expect(dialog.textContent()).resolves.toContain('南京东路街道');
    await dialog.getByTestId('org-field-name').fill('南京东路街道综合治理中心');
    await dialog.getByTestId('org-field-code').fill('NJDL-ZZZX');
    await chooseOption(
      page,
      dialog.getByTestId('org-field-type'),
      page.locator('.ant-select-dropdown:visible [data-testid="dict-option"][data-value="department"]'),
    );
    await screenshot(page, 'org-add-child-1366');
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await dialog.waitFor({ state: 'hidden' });
    await orgRow('NJDL-ZZZX').waitFor({ timeout: 10_000 });
    await expect(orgRow('NJDL-ZZZX').textContent()).resolves.toContain('部门');

    // Search by name finds it with its flat row.
    await page.getByTestId('org-search-name').fill('综合治理');
    await page.getByTestId('org-search').click();
    await expect.poll(() => page.getByTestId('org-table').locator('tbody tr[data-row-key]').count()).toBe(1);
    await page.getByRole('button', { name: /重\s*置/ }).click();
    await orgRow('310101002').waitFor();
  });

  it('refuses to delete an org that has users, with the reason', async () => {
    const { page } = browser;
    await orgRow('HPQ-FGW').getByTestId('org-delete').click();
    await page.getByTestId('org-delete-ok').click();
    const toast = page.locator('.ant-message-notice', { hasText: '该机构下有用户，不能删除' });
    await toast.waitFor({ timeout: 10_000 });
    await screenshot(page, 'org-delete-refused-1366');
    await expect(orgRow('HPQ-FGW').count()).resolves.toBe(1);
  });

  it('adds a position', async () => {
    const { page } = browser;
    await openFromTopMenu(page, '系统管理', '职位管理', /\/system\/pos$/);
    await page.getByTestId('pos-table').waitFor();
    await page.getByTestId('pos-add').click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByTestId('pos-field-name').fill('网格督导员');
    await dialog.getByTestId('pos-field-code').fill('grid_supervisor');
    await dialog.getByTestId('pos-form-submit').click();
    await dialog.waitFor({ state: 'hidden' });
    await expect
      .poll(() => page.getByTestId('pos-table').textContent(), { timeout: 10_000 })
      .toContain('网格督导员');
    await screenshot(page, 'pos-list-1366');
  });

  it('adds a user group with two members', async () => {
    const { page } = browser;
    await openFromTopMenu(page, '系统管理', '用户组管理', /\/system\/userGroup$/);
    await page.getByTestId('user-group-table').waitFor();
    await page.getByTestId('user-group-add').click();
    const form = page.getByRole('dialog');
    await form.waitFor();
    await form.getByTestId('group-field-name').fill('防汛应急小组');
    await form.getByTestId('group-field-code').fill('flood_team');
    await form.getByTestId('user-group-form-submit').click();
    await form.waitFor({ state: 'hidden' });
    const row = page.getByTestId('user-group-table').locator('tr', { hasText: '防汛应急小组' });
    await row.waitFor({ timeout: 10_000 });

    await row.getByTestId('group-members').click();
    const dialog = page.getByTestId('group-members-modal').or(page.getByRole('dialog')).last();
    await dialog.waitFor();
    for (const name of ['张伟', '吴静']) {
      await chooseOption(
        page,
        dialog.getByTestId('group-member-picker'),
        page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: name }).first(),
        name,
      );
      await dialog.getByTestId('group-member-add').click();
      await expect.poll(() => dialog.getByTestId('group-member-list').textContent()).toContain(name);
    }
    await page.keyboard.press('Escape');
    await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'hidden' });
    await screenshot(page, 'group-members-1366');
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await page.locator('.ant-message-notice', { hasText: '成员已保存' }).waitFor({ timeout: 10_000 });

    // Opened again, the saved members are there.
    await row.getByTestId('group-members').click();
    const again = page.getByRole('dialog').last();
    await expect
      .poll(() => again.getByTestId('group-member-list').textContent(), { timeout: 10_000 })
      .toContain('吴静');
    await expect(again.getByTestId('group-member-list').textContent()).resolves.toContain('张伟');
    await expect(again.textContent()).resolves.toContain('共 2 名成员');
  });
});
