import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import {
  apiCall,
  type Browser,
  chooseOption,
  firstSignIn,
  openBrowser,
  screenshot,
  tokenOf,
} from './support.ts';

const FORM = '占道经营登记表';
const LINK = '南京东路摊位扫码登记';

/**
 * Issue 22 §1–2, login-free links: the admin publishes a fill link of a form on 扫码填报链接 and reads its
 * QR code's address; a browser that never signed in opens `/scancode` at phone width, fills the form and
 * submits; the record is in the form's records for staff, and the link's use log shows the filing.
 */
describe('login-free link: publish, scan, fill', () => {
  let shuzhi: RunningShuzhi;
  let staff: Browser;
  let tableId = 0;
  let link = '';

  beforeAll(async () => {
    shuzhi = await launchShuzhi({ sys_captcha: 'false' });
    staff = await openBrowser();
    await firstSignIn(staff.page, 'admin', shuzhi.baseUrl);
    const token = await tokenOf(staff.page);
    tableId = await apiCall<number>(shuzhi.baseUrl, token, 'POST', '/api/diyTable/add', {
      title: FORM,
      fillers: { all: true, orgIds: [], roleIds: [], userIds: [], enterprises: false },
    });
    const design = {
      fields: [
        { id: 'owner', type: 'text', label: '摊主姓名', required: true },
        { id: 'stalls', type: 'integer', label: '摊位数' },
        { id: 'addr', type: 'textarea', label: '经营地点' },
      ],
    };
    await apiCall(shuzhi.baseUrl, token, 'PUT', '/api/diyTable/design', {
      id: tableId,
      design,
      publish: true,
    });
  });
  afterAll(async () => {
    await staff?.close();
    await shuzhi?.stop();
  });

  it('lets staff publish a link and shows its QR code', async () => {
    const { page } = staff;
    await page.goto(`${shuzhi.baseUrl}/diyReport/noLoginLink`);
    await page.getByTestId('nologin-create').click();
    const modal = page.getByTestId('nologin-create-modal');
    await modal.getByTestId('nologin-field-title').fill(LINK);
    await chooseOption(page, modal.getByTestId('nologin-field-form'), page.getByTitle(FORM), FORM);
    await page.getByTestId('nologin-create-ok').click();
    const url = page.getByTestId('nologin-qr-url');
    await url.waitFor();
    link = (await url.textContent()) ?? '';
    expect(link.startsWith(`${shuzhi.baseUrl}/scancode?QrCodeType=form&code=`)).toBe(true);
    await page.getByTestId('nologin-qr').locator('img').waitFor();
    await screenshot(page, 'no-login-qr-1366');
  });

  it('lets a stranger fill the form at phone width without signing in', async () => {
    const phone = await openBrowser({ width: 375, height: 812 });
    try {
      const { page } = phone;
      await page.goto(link);
      await page.getByText('摊主姓名').waitFor();
      expect(new URL(page.url()).pathname).toBe('/scancode');
      await screenshot(page, 'no-login-scancode-375');
      await page.locator('#scancode-owner').fill('王建华');
      await page.locator('#scancode-stalls').fill('2');
      await page.locator('#scancode-addr').fill('南京东路 200 号门口');
      await page.getByTestId('scancode-submit').click();
      await page.getByTestId('scancode-done').waitFor();
      await screenshot(page, 'no-login-done-375');
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(375);
    } finally {
      await phone.close();
    }
  });

  it('shows the record to staff and the filing in the use log', async () => {
    const { page } = staff;
    await page.goto(`${shuzhi.baseUrl}/diyReport/index/formTable?id=${tableId}`);
    await page.getByTestId('diy-record-table').getByText('王建华').waitFor();
    await page.goto(`${shuzhi.baseUrl}/diyReport/noLoginLink`);
    const row = page.getByTestId('nologin-table').locator('tbody tr.ant-table-row').filter({ hasText: LINK });
    await expect(row.textContent()).resolves.toContain('1 / ');
    await row.getByTestId('nologin-show-uses').click();
    await page.getByTestId('nologin-uses').getByText('提交记录').waitFor();
    await screenshot(page, 'no-login-uses-1366');
  });
});
