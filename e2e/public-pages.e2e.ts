import type { NoLoginLink } from '@shuzhi/contracts/no-login';
import type { Scene, Statement } from '@shuzhi/contracts/no-login-pages';
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

const FORM = '门前三包检查表';
const STATEMENT = '门前三包检查结果公示';

/**
 * Issue 22 §2: staff publish a statement on 公示发布 choosing its public fields; a browser that never signed in
 * opens `/statement` and sees only those fields; a custom scene with three entries opens at phone width without
 * signing in, and its form entry leads to the fill page of the link.
 */
describe('public statement and custom scene', () => {
  let shuzhi: RunningShuzhi;
  let staff: Browser;
  let token = '';
  let tableId = 0;
  let statement: Statement | undefined;

  beforeAll(async () => {
    shuzhi = await launchShuzhi({ sys_captcha: 'false' });
    staff = await openBrowser();
    await firstSignIn(staff.page, 'admin', shuzhi.baseUrl);
    token = await tokenOf(staff.page);
    tableId = await apiCall<number>(shuzhi.baseUrl, token, 'POST', '/api/diyTable/add', {
      title: FORM,
      fillers: { all: true, orgIds: [], roleIds: [], userIds: [], enterprises: false },
    });
    const design = {
      fields: [
        { id: 'shop', type: 'text', label: '商户名称', required: true },
        { id: 'result', type: 'text', label: '检查结果' },
        { id: 'phone', type: 'text', label: '联系电话' },
      ],
    };
    await apiCall(shuzhi.baseUrl, token, 'PUT', '/api/diyTable/design', {
      id: tableId,
      design,
      publish: true,
    });
    for (const [shop, result] of [
      ['福记面馆', '合格'],
      ['新华书店', '限期整改'],
    ]) {
      await apiCall(shuzhi.baseUrl, token, 'POST', `/api/diyData/${tableId}/add`, {
        values: { shop, result, phone: '13900000000' },
        submit: true,
      });
    }
  });
  afterAll(async () => {
    await staff?.close();
    await shuzhi?.stop();
  });

  it('lets staff publish a statement with chosen fields, which a stranger sees and can print', async () => {
    const { page } = staff;
    await page.goto(`${shuzhi.baseUrl}/diyReport/statement`);
    await page.getByTestId('statements-create').click();
    const dialog = page.getByTestId('statement-dialog');
    await dialog.getByTestId('statement-title').fill(STATEMENT);
    await chooseOption(page, dialog.getByTestId('statement-form'), page.getByTitle(FORM), FORM);
    const fields = dialog.getByTestId('statement-fields');
    await fields.getByText('商户名称').click();
    await fields.getByText('检查结果').click();
    await page.getByTestId('statement-save').click();
    const row = page
      .getByTestId('statements-table')
      .locator('tbody tr.ant-table-row')
      .filter({ hasText: STATEMENT });
    await row.waitFor();
    await screenshot(page, 'public-statements-1366');
    const page1 = await apiCall<{ items: Statement[] }>(
      shuzhi.baseUrl,
      token,
      'GET',
      '/api/sysStatement/page',
    );
    statement = page1.items.find((s) => s.title === STATEMENT);
    expect(statement?.fields).toEqual(['shop', 'result']);

    const stranger = await openBrowser();
    try {
      await stranger.page.goto(`${shuzhi.baseUrl}${statement?.url ?? ''}`);
      const table = stranger.page.getByTestId('statement-table');
      await table.getByText('限期整改').waitFor();
      expect(await table.textContent()).not.toContain('13900000000');
      expect(await table.locator('th').allTextContents()).toEqual(['#', '商户名称', '检查结果']);
      await screenshot(stranger.page, 'public-statement-1366');
      await stranger.page.emulateMedia({ media: 'print' });
      await expect(stranger.page.getByTestId('statement-print').isVisible()).resolves.toBe(false);
    } finally {
      await stranger.close();
    }
  });

  it('opens a scene with three entries at phone width; the form entry leads to the fill page', async () => {
    const link = await apiCall<NoLoginLink>(shuzhi.baseUrl, token, 'POST', '/api/sysNoLoginLink/add', {
      title: '商户自查上报',
      qrType: 'form',
      tableId,
      mode: 'fillMany',
      days: 7,
    });
    const scene = await apiCall<Scene>(shuzhi.baseUrl, token, 'POST', '/api/sysScene/add', {
      title: '门前三包宣传月',
      intro: '扫码自查，结果公示。',
      days: 7,
      entries: [
        { type: 'form', title: '商户自查上报', linkId: link.id },
        { type: 'statement', title: '检查结果公示', statementId: statement?.id },
        { type: 'link', title: '政策解读', url: 'https://example.org/policy', note: '外部网站' },
      ],
    });
    const phone = await openBrowser({ width: 375, height: 812 });
    try {
      const { page } = phone;
      await page.goto(`${shuzhi.baseUrl}${scene.url}`);
      await page.getByTestId('scene-entry-2').waitFor();
      expect(await page.getByTestId('scene-entries').locator('a').count()).toBe(3);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await screenshot(page, 'public-scene-375');
      await page.getByTestId('scene-entry-0').click();
      await page.getByText('商户名称').waitFor();
      expect(new URL(page.url()).pathname).toBe('/scancode');
    } finally {
      await phone.close();
    }
  });
});
