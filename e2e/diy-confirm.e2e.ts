import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import { apiCall, type Browser, firstSignIn, openBrowser, screenshot, tokenOf } from './support.ts';

const TITLE = '个体工商户信息核对表';
const SUBJECT = '陈建国';
const COMMENT = '经营地址应为南京东路 100 号';

/**
 * Issue 6 §6, row confirmation: the filler (fgwstaff) opens a record in the record drawer, 发起确认 creates a
 * link for its subject (7 days) shown with a QR code; a fresh browser without any sign-in opens the link at
 * phone width, sees that row only, disputes it with a comment and gets the thank-you; opening the link again
 * says it was used; back in the drawer the link shows as 有异议 and the history holds the dispute.
 */
describe('row confirmation: a link for the subject of a record', () => {
  let shuzhi: RunningShuzhi;
  let staff: Browser;
  let tableId = 0;
  let link = '';
  const call = <T>(token: string, method: string, path: string, body?: unknown) =>
    apiCall<T>(shuzhi.baseUrl, token, method, path, body);

  beforeAll(async () => {
    shuzhi = await launchShuzhi({ sys_captcha: 'false' });
    const admin = await openBrowser();
    try {
      await firstSignIn(admin.page, 'admin', shuzhi.baseUrl);
      const token = await tokenOf(admin.page);
      if (!token) throw new Error('no admin token');
      tableId = await call<number>(token, 'POST', '/api/diyTable/add', {
        title: TITLE,
        fillers: { all: true, orgIds: [], roleIds: [], userIds: [], enterprises: false },
        needsReview: true,
      });
      const design = {
        fields: [
          { id: 'name', type: 'text', label: '字号名称', required: true, span: 12 },
          { id: 'owner', type: 'text', label: '经营者', span: 12 },
          { id: 'addr', type: 'text', label: '经营地址' },
          {
            id: 'kind',
            type: 'select',
            label: '行业',
            span: 12,
            options: {
              source: 'options',
              items: [
                { label: '餐饮', value: 'food' },
                { label: '零售', value: 'retail' },
              ],
            },
          },
          { id: 'staff', type: 'integer', label: '从业人数', span: 12 },
        ],
      };
      await call(token, 'PUT', '/api/diyTable/design', { id: tableId, design, publish: true });
    } finally {
      await admin.close();
    }
  });
  afterAll(async () => {
    await staff?.close();
    await shuzhi?.stop();
  });

  const openDrawer = async (page: Page) => {
    await page.goto(`${shuzhi.baseUrl}/diyReport/index/formTable?id=${tableId}`);
    const row = page
      .getByTestId('diy-record-table')
      .locator('tbody tr.ant-table-row')
      .filter({ hasText: '建国小吃店' });
    await row.getByTestId('diy-record-view-btn').click();
    const view = page.getByTestId('diy-record-view');
    await view.getByTestId('diy-record-meta').waitFor();
    return view;
  };

  it('lets the filler create a link with a QR code from the record drawer', async () => {
    staff = await openBrowser();
    const { page } = staff;
    await firstSignIn(page, 'fgwstaff', shuzhi.baseUrl);
    const token = await tokenOf(page);
    if (!token) throw new Error('no staff token');
    await call(token, 'POST', `/api/diyData/${tableId}/add`, {
      values: { name: '建国小吃店', owner: SUBJECT, addr: '南京东路 10 号', kind: 'food', staff: 3 },
      submit: true,
    });
    const view = await openDrawer(page);
    await view.getByTestId('diy-record-start-confirm').click();
    const modal = page.getByTestId('diy-confirm-modal');
    await modal.getByTestId('diy-confirm-subject').fill(SUBJECT);
    await modal.getByText('7天').click();
    await modal.getByTestId('diy-confirm-create').click();
    const url = modal.getByTestId('diy-confirm-url');
    await url.waitFor();
    link = await url.inputValue();
    expect(link.startsWith(`${shuzhi.baseUrl}/diyReport/rowConfirm?t=${tableId}&c=`)).toBe(true);
    await modal.getByTestId('diy-confirm-qr').waitFor();
    await modal.getByTestId('diy-confirm-state-open').waitFor();
    await screenshot(page, 'diy-confirm-create-1366');
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'hidden' });
  });

  it('lets the subject dispute the row without signing in, once', async () => {
    const subject = await openBrowser({ width: 390, height: 844 });
    try {
      const { page } = subject;
      await page.goto(link);
      await page.getByTestId('row-confirm-title').waitFor();
      await expect(page.getByTestId('row-confirm-title').textContent()).resolves.toBe(TITLE);
      await expect(page.getByTestId('diy-view-row-confirm-addr').textContent()).resolves.toBe(
        '南京东路 10 号',
      );
      await expect(page.getByTestId('row-confirm-subject').textContent()).resolves.toContain(SUBJECT);
      // Nothing else of the app: the page is outside the shell and no sign-in was asked for.
      expect(new URL(page.url()).pathname).toBe('/diyReport/rowConfirm');
      await screenshot(page, 'diy-confirm-page-phone');

      await page.getByTestId('row-confirm-dispute').click();
      await page.getByTestId('row-confirm-dispute-submit').click();
      await page.getByText('请填写异议说明').waitFor();
      await page.getByTestId('row-confirm-comment').fill(COMMENT);
      await screenshot(page, 'diy-confirm-dispute-phone');
      await page.getByTestId('row-confirm-dispute-submit').click();
      await page.getByTestId('row-confirm-thanks').waitFor();
      await screenshot(page, 'diy-confirm-thanks-phone');

      await page.goto(link);
      await page.getByTestId('row-confirm-used').waitFor();
      await screenshot(page, 'diy-confirm-used-phone');
    } finally {
      await subject.close();
    }
    const desktop = await openBrowser();
    try {
      await desktop.page.goto(link.replace(/c=[^&]+/, 'c=broken'));
      await desktop.page.getByTestId('row-confirm-invalid').waitFor();
      await desktop.page.goto(link);
      await desktop.page.getByTestId('row-confirm-used').waitFor();
      await screenshot(desktop.page, 'diy-confirm-used-1366');
    } finally {
      await desktop.close();
    }
  });

  it('shows the link as disputed and the dispute in the history', async () => {
    const { page } = staff;
    const view = await openDrawer(page);
    await view.getByTestId('diy-record-start-confirm').click();
    const modal = page.getByTestId('diy-confirm-modal');
    await modal.getByTestId('diy-confirm-state-disputed').waitFor();
    await expect(modal.getByTestId('diy-confirm-links').textContent()).resolves.toContain(COMMENT);
    // The modal's opening animation has ended.
    await screenshot(page, 'diy-confirm-list-1366');
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'hidden' });
    await view.getByTestId('diy-record-history-tab').click();
    const steps = view.getByTestId('diy-history-step');
    await steps.first().waitFor();
    const last = steps.last();
    await expect(last.getAttribute('data-action')).resolves.toBe('dispute');
    await expect(last.textContent()).resolves.toContain(COMMENT);
    await expect(last.textContent()).resolves.toContain(SUBJECT);
    await screenshot(page, 'diy-confirm-history-1366');
  });
});
