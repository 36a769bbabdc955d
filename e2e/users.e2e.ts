import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import {
  type Browser,
  chooseOption,
  DEFAULT_PASSWORD,
  firstSignIn,
  openBrowser,
  openFromTopMenu,
  screenshot,
} from './support.ts';

const table = (page: Page) => page.getByTestId('user-table');
const row = (page: Page, account: string) =>
  table(page).locator('tbody tr[data-row-key]').filter({ hasText: account });

/** A template-shaped workbook: one good row, one with an unknown org and a bad mobile number. */
async function importFile(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('账号');
  sheet.addRow(['*账号', '*姓名', '*机构编码', '职位编码', '角色编码', '账号类型', '性别', '手机号码']);
  sheet.addRow(['e2eimport1', '导入甲', '310101002001', '', 'staff', '', '男', '13911110001']);
  sheet.addRow(['e2eimport2', '导入乙', 'NO-SUCH-ORG', '', '', '', '', '12345']);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Its own server: the admin adds and imports users. */
describe('an admin manages users: add, reset password, disable, import', () => {
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

  it('lists the users beside the org tree and filters by org', async () => {
    const { page } = browser;
    await openFromTopMenu(page, '系统管理', '账号管理', /\/system\/user$/);
    await expect.poll(() => table(page).textContent()).toContain('fgwstaff');
    await page.mouse.move(700, 740);
    await screenshot(page, 'users-list-1366');
    await page.getByTestId('org-tree').getByText('南京东路街道', { exact: true }).click();
    await expect.poll(() => page.getByTestId('user-org').textContent()).toContain('南京东路街道');
    await expect.poll(() => table(page).textContent()).toContain('njdlstaff');
    await expect.poll(() => table(page).textContent()).not.toContain('fgwstaff');
  });

  it('adds a user into the picked org, with a role', async () => {
    const { page } = browser;
    await page.getByTestId('user-add').click();
    const drawer = page.getByTestId('user-drawer');
    await drawer.getByTestId('user-field-account').waitFor();
    await drawer.getByTestId('user-field-account').fill('e2euser01');
    await drawer.getByTestId('user-field-realName').fill('端到端');
    await chooseOption(
      page,
      drawer.getByTestId('user-field-roleIdList'),
      page.locator('.ant-select-dropdown:visible').getByText('工作人员', { exact: true }),
    );
    // Close the role list by clicking elsewhere in the drawer (Escape would close the drawer).
    await drawer.getByText('账号信息').click();
    await drawer.getByTestId('user-field-phone').fill('13911112345');
    await drawer.getByTestId('user-field-street').fill('南京东路街道');
    await drawer.getByTestId('user-field-account').scrollIntoViewIfNeeded();
    await screenshot(page, 'users-add-drawer-1366');
    await page.getByTestId('user-form-submit').click();
    await drawer.waitFor({ state: 'hidden' });
    await expect.poll(() => table(page).textContent(), { timeout: 10_000 }).toContain('e2euser01');
    await expect.poll(() => row(page, 'e2euser01').textContent()).toContain('南京东路街道');
  });

  it('resets the password and shows it once', async () => {
    const { page } = browser;
    await row(page, 'e2euser01').getByTestId('user-more').click();
    await page.locator('.ant-dropdown:visible').getByTestId('user-reset').click();
    await page.getByTestId('user-reset-ok').click();
    const modal = page.getByTestId('user-password-modal');
    await expect.poll(() => modal.getByTestId('user-new-password').textContent()).toBe(DEFAULT_PASSWORD);
    await modal.getByTestId('user-password-copy').waitFor();
    await screenshot(page, 'users-reset-password-1366');
    await page.getByTestId('user-password-close').click();
    await modal.waitFor({ state: 'hidden' });
    // Nothing keeps it: the password is gone from the page.
    await expect.poll(() => page.getByTestId('user-new-password').count()).toBe(0);
  });

  it('disables and enables the user with the status switch', async () => {
    const { page } = browser;
    const toggle = async (checked: 'true' | 'false') => {
      await row(page, 'e2euser01').getByTestId('crud-status-switch').click();
      await page.locator('.ant-popover:visible').getByTestId('crud-status-ok').click();
      await expect
        .poll(() => row(page, 'e2euser01').getByTestId('crud-status-switch').getAttribute('aria-checked'))
        .toBe(checked);
    };
    await toggle('false');
    await toggle('true');
  });

  it('imports two rows: one goes in, the other is reported with its errors', async () => {
    const { page } = browser;
    await page.getByTestId('user-import').click();
    const modal = page.getByTestId('user-import-modal');
    await modal.getByTestId('user-import-template').waitFor();
    await screenshot(page, 'users-import-dialog-1366');
    await modal.locator('input[type=file]').setInputFiles({
      name: '账号导入.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: await importFile(),
    });
    const result = modal.getByTestId('user-import-result');
    await expect.poll(() => result.textContent(), { timeout: 15_000 }).toContain('成功导入 1 行');
    const errors = await modal.getByTestId('user-import-errors').textContent();
    expect(errors).toContain('NO-SUCH-ORG');
    expect(errors).toContain('手机号码');
    await modal.getByTestId('user-import-report').waitFor();
    await screenshot(page, 'users-import-result-1366');
    await modal
      .getByRole('button', { name: '确 定' })
      .or(modal.getByRole('button', { name: '确定' }))
      .click();
    await modal.waitFor({ state: 'hidden' });
    await expect.poll(() => table(page).textContent(), { timeout: 10_000 }).toContain('e2eimport1');
    expect(await table(page).textContent()).not.toContain('e2eimport2');
  });
});
