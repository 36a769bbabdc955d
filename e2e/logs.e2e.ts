import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import {
  type Browser,
  firstSignIn,
  NEW_PASSWORD,
  openBrowser,
  openFromNestedTopMenu,
  openFromTopMenu,
  screenshot,
} from './support.ts';

/** The log pages sit in 平台管理 › 日志管理. */
const openLog = (page: Page, title: string, url: RegExp) =>
  openFromNestedTopMenu(page, ['平台管理', '日志管理'], title, url);

const rowsOf = (page: Page, testId: string) =>
  page.getByTestId(`${testId}-table`).locator('tbody tr[data-row-key]');

/** Log rows are written off the request path in batches: refresh until the expected row is there. */
async function waitForRow(page: Page, testId: string, text: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const found = await rowsOf(page, testId).filter({ hasText: text }).count();
        if (found === 0) await page.getByTestId(`${testId}-refresh`).click();
        return found;
      },
      { timeout: 20_000, interval: 1_000 },
    )
    .toBeGreaterThan(0);
}

/** Its own server: it clears a log, which other E2E files may read. */
describe('a tenant admin reads, exports and clears the logs', () => {
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

  it('finds the password change on 操作日志 with its parameters masked, and filters by account', async () => {
    const { page } = browser;
    await openLog(page, '操作日志', /\/platform\/log\/oplog$/);
    await expect.poll(() => page.title()).toMatch(/^操作日志 - /);
    await waitForRow(page, 'oplog', '/api/sysUser/changePwd');
    // Read-only: nothing to add, edit or delete.
    await expect(page.getByTestId('oplog-add').count()).resolves.toBe(0);
    await expect(page.getByTestId('oplog-edit').count()).resolves.toBe(0);
    await screenshot(page, 'logs-oplog-1366');

    await rowsOf(page, 'oplog')
      .filter({ hasText: '/api/sysUser/changePwd' })
      .first()
      .getByTestId('oplog-detail')
      .click();
    const drawer = page.getByTestId('oplog-drawer');
    const params = drawer.getByTestId('oplog-params');
    await params.waitFor();
    const text = (await params.textContent()) ?? '';
    expect(text).toContain('"passwordNew": "******"');
    expect(text).not.toContain(NEW_PASSWORD);
    await expect(drawer.textContent()).resolves.toContain('changePwd');
    await screenshot(page, 'logs-oplog-detail-1366');
    await page.keyboard.press('Escape');
    await drawer.locator('.ant-drawer-content').waitFor({ state: 'hidden' });

    await page.getByTestId('oplog-filter-account').fill('nobody-here');
    await page.getByTestId('oplog-filter-account').press('Enter');
    await expect.poll(() => rowsOf(page, 'oplog').count()).toBe(0);
    await page
      .getByTestId('oplog-table')
      .locator('.ant-empty-description', { hasText: '暂无数据' })
      .waitFor();
    await page.getByTestId('oplog-filter-account').fill('admin');
    await page.getByTestId('oplog-search').click();
    await waitForRow(page, 'oplog', '/api/sysUser/changePwd');
    const accounts = await rowsOf(page, 'oplog').allTextContents();
    expect(accounts.every((row) => row.includes('admin'))).toBe(true);
  });

  it('exports the operation log as an Excel file', async () => {
    const { page } = browser;
    const download = page.waitForEvent('download');
    await page.getByTestId('oplog-export').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.xlsx$/);
  });

  it('shows the sign-in on 访问日志', async () => {
    const { page } = browser;
    await openLog(page, '访问日志', /\/platform\/log\/vislog$/);
    await waitForRow(page, 'vislog', '登录');
    const row = rowsOf(page, 'vislog').filter({ hasText: '登录' }).first();
    await expect(row.textContent()).resolves.toContain('admin');
    await expect(row.textContent()).resolves.toContain('成功');
    await screenshot(page, 'logs-vislog-1366');
  });

  it("shows the before and after of the super admin's config edit on 差异日志", async () => {
    // Parameters are the super admin's (docs/tenancy.md); the edit lands in the district's diff log.
    const operator = await openBrowser();
    try {
      const other = operator.page;
      await firstSignIn(other, 'superadmin', shuzhi.baseUrl);
      await openFromTopMenu(other, '平台管理', '参数配置', /\/platform\/config$/);
      await other.getByTestId('config-search-code').fill('sys_watermark');
      await other.getByTestId('config-search-code').press('Enter');
      await expect.poll(() => other.getByTestId('config-total').textContent()).toBe('共 1 条');
      await other
        .getByTestId('config-table')
        .locator('tbody tr[data-row-key]')
        .getByTestId('config-edit')
        .click();
      const dialog = other.getByRole('dialog');
      await dialog.getByTestId('config-field-value').fill('true');
      await dialog.getByTestId('config-field-value').press('Enter');
      await dialog.waitFor({ state: 'hidden' });
    } finally {
      await operator.close();
    }

    const { page } = browser;
    await openLog(page, '差异日志', /\/platform\/log\/difflog$/);
    await waitForRow(page, 'difflog', 'sys_config');
    await rowsOf(page, 'difflog')
      .filter({ hasText: 'sys_config' })
      .first()
      .getByTestId('difflog-detail')
      .click();
    const diff = page.getByTestId('log-diff');
    await diff.waitFor();
    const value = diff.locator('tr[data-row-key="value"]');
    await expect(value.getAttribute('data-changed')).resolves.toBe('true');
    await expect(value.locator('td').nth(1).textContent()).resolves.toBe('false');
    await expect(value.locator('td').nth(2).textContent()).resolves.toBe('true');
    await screenshot(page, 'logs-difflog-detail-1366');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await screenshot(page, 'logs-difflog-detail-1920');
    await page.keyboard.press('Escape');
    await screenshot(page, 'logs-difflog-1920');
    await page.setViewportSize({ width: 1366, height: 768 });
  });

  it('clears the visit log after confirming', async () => {
    const { page } = browser;
    await openLog(page, '访问日志', /\/platform\/log\/vislog$/);
    await waitForRow(page, 'vislog', '登录');
    await page.getByTestId('vislog-clear').click();
    const confirm = page.getByRole('dialog');
    await expect(confirm.textContent()).resolves.toContain('将永久删除本租户的全部访问日志记录');
    // Let the menu pop-up fade and the dialog finish opening before the picture.
    await page.mouse.move(683, 700);
    await screenshot(page, 'logs-vislog-clear-1366');
    await page.getByTestId('vislog-clear-ok').click();
    await page.getByText(/已清空 \d+ 条访问日志记录/).waitFor();
    await expect.poll(() => rowsOf(page, 'vislog').count()).toBe(0);
    await page
      .getByTestId('vislog-table')
      .locator('.ant-empty-description', { hasText: '暂无数据' })
      .waitFor();
    await screenshot(page, 'logs-vislog-cleared-1366');
  });
});
