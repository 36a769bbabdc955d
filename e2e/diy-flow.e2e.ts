import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import {
  apiCall,
  type Browser,
  clickWhenOpened,
  DEFAULT_PASSWORD,
  firstSignIn,
  NEW_PASSWORD,
  openBrowser,
  pastReclickHold,
  screenshot,
  tokenOf,
} from './support.ts';

const TITLE = '企业安全生产承诺书登记';
const COMMENT = '联系电话与营业执照不一致，请核对后重新提交';

/**
 * Issue 5 §9 end to end, across three people in their own browsers: the admin publishes a form for
 * enterprises (through the API: the designer has its own E2E); the enterprise user 马晓东 (qyfiller, login type 9)
 * finds it on 报表填报, fills it in, is stopped by a field error, corrects it and submits; the district leader
 * 陈建国 (hpleader) returns it with a comment on 报表审核; the enterprise user sees the comment, changes the record
 * and resubmits; the leader approves; the history shows every step. Then the admin renames a field and
 * publishes a second version: the record filed under the first keeps its value, under the new name in the list.
 */
describe('report forms: fill, return, resubmit, approve, history, rename', () => {
  let shuzhi: RunningShuzhi;
  let enterprise: Browser;
  let leader: Browser;
  let adminToken = '';
  let tableId = 0;
  const call = <T>(token: string, method: string, path: string, body?: unknown) =>
    apiCall<T>(shuzhi.baseUrl, token, method, path, body);

  const fields = (nameLabel: string) => [
    { id: 'name', type: 'text', label: nameLabel, required: true, unique: 'form', span: 12 },
    { id: 'phone', type: 'mobile', label: '联系电话', required: true, span: 12 },
    { id: 'staff', type: 'integer', label: '从业人数', min: 0, span: 12 },
    {
      id: 'level',
      type: 'radio',
      label: '风险等级',
      span: 12,
      options: {
        source: 'options',
        items: [
          { label: '低', value: 'low' },
          { label: '中', value: 'mid' },
          { label: '高', value: 'high' },
        ],
      },
    },
  ];

  beforeAll(async () => {
    shuzhi = await launchShuzhi({ sys_captcha: 'false' });
    const admin = await openBrowser();
    try {
      await firstSignIn(admin.page, 'admin', shuzhi.baseUrl);
      adminToken = await tokenOf(admin.page);
    } finally {
      await admin.close();
    }
    tableId = await call<number>(adminToken, 'POST', '/api/diyTable/add', {
      title: TITLE,
      fillers: { all: true, orgIds: [], roleIds: [], userIds: [], enterprises: true },
      needsReview: true,
    });
    await call(adminToken, 'PUT', '/api/diyTable/design', {
      id: tableId,
      design: { fields: fields('企业名称'), numbering: { prefix: 'AQ', datePart: 'yyyyMMdd', digits: 3 } },
      publish: true,
    });
  });
  afterAll(async () => {
    await enterprise?.close();
    await leader?.close();
    await shuzhi?.stop();
  });

  const toast = (page: Page, text: string) =>
    page.locator('.ant-message-notice').filter({ hasText: text }).first().waitFor();
  const recordRow = (page: Page) =>
    page.getByTestId('diy-record-table').locator('tbody tr.ant-table-row').filter({ hasText: '外滩数智' });
  const auditRow = (page: Page) =>
    page.getByTestId('audit-table').locator('tr.ant-table-row', { hasText: '马晓东' });

  async function openAudit(page: Page): Promise<void> {
    await page.goto(`${shuzhi.baseUrl}/diyReport/audit`);
    await page.getByTestId(`audit-form-${tableId}`).click();
    await auditRow(page).waitFor();
  }

  it('the enterprise user finds the form on 报表填报, is stopped by a field error, corrects it and submits', async () => {
    enterprise = await openBrowser();
    const { page } = enterprise;
    await page.goto(`${shuzhi.baseUrl}/login?type=9`);
    await page.getByTestId('login-account').fill('qyfiller');
    await page.getByTestId('login-password').fill(DEFAULT_PASSWORD);
    await page.getByTestId('login-submit').click();
    await clickWhenOpened(page.getByTestId('force-password-ok'));
    await page.getByTestId('password-old').fill(DEFAULT_PASSWORD);
    await page.getByTestId('password-new').fill(NEW_PASSWORD);
    await page.getByTestId('password-confirm').fill(NEW_PASSWORD);
    await page.getByTestId('password-submit').click();
    // After the forced change an enterprise account lands on its portal (issue 16 §4); 报表填报 is in its menu.
    await page.waitForURL(/\/enterprise$/);
    await page.goto(`${shuzhi.baseUrl}/diyReport`);

    const card = page.getByTestId('form-item-card').filter({ hasText: TITLE });
    await card.click();
    await page.waitForURL(/\/diyReport\/index\/formTable\?id=/);
    await expect.poll(() => page.title()).toMatch(new RegExp(`^${TITLE} - `));

    await page.getByTestId('diy-record-add').click();
    const drawer = page.getByTestId('diy-fill');
    await drawer.getByTestId('diy-fill-body').waitFor();
    await drawer.getByTestId('diy-field-name').locator('input').fill('外滩数智安全科技有限公司');
    await drawer.getByTestId('diy-field-phone').locator('input').fill('1381234');
    await drawer.getByTestId('diy-field-staff').locator('input').fill('86');
    await drawer.getByTestId('diy-field-level').getByText('中').click();
    await drawer.getByTestId('diy-fill-submit').click();
    const phoneError = drawer.getByTestId('diy-error-diy-fill-phone');
    await phoneError.waitFor();
    await expect(phoneError.textContent()).resolves.toContain('联系电话');
    await screenshot(page, 'diy-flow-error-1366');

    await drawer.getByTestId('diy-field-phone').locator('input').fill('13812345678');
    await phoneError.waitFor({ state: 'hidden' });
    await pastReclickHold(page);
    await drawer.getByTestId('diy-fill-submit').click();
    await toast(page, '已提交');
    await expect.poll(() => recordRow(page).textContent()).toContain('待审核');
    await expect(recordRow(page).textContent()).resolves.toMatch(/AQ\d{8}001/);
  });

  it('the district leader returns it with a comment on 报表审核', async () => {
    leader = await openBrowser();
    const { page } = leader;
    await firstSignIn(page, 'hpleader', shuzhi.baseUrl);
    await openAudit(page);
    await auditRow(page).getByTestId('audit-review').click();
    const drawer = page.getByTestId('diy-record-view');
    await drawer.getByText('外滩数智安全科技有限公司').waitFor();
    await drawer.getByTestId('audit-return').click();
    const dialog = page.locator('.ant-modal', { hasText: '退回记录' });
    await dialog.getByTestId('audit-return-comment').fill(COMMENT);
    await dialog.getByTestId('audit-return-ok').click();
    await page.locator('.ant-message').getByText('已退回，填报人可修改后重新提交').waitFor();
    await screenshot(page, 'diy-flow-returned-1366');
  });

  it('the enterprise user sees the comment, changes the record and resubmits', async () => {
    const { page } = enterprise;
    await page.reload();
    await expect.poll(() => recordRow(page).textContent()).toContain('已退回');
    await recordRow(page).getByTestId('diy-record-edit').click();
    const drawer = page.getByTestId('diy-fill');
    const notice = drawer.getByTestId('diy-record-returned');
    await notice.waitFor();
    await expect(notice.textContent()).resolves.toContain(COMMENT);
    await drawer.getByTestId('diy-field-phone').locator('input').fill('13987654321');
    await pastReclickHold(page);
    await drawer.getByTestId('diy-fill-submit').click();
    await toast(page, '已提交');
    await expect.poll(() => recordRow(page).textContent()).toContain('待审核');
  });

  it('the leader approves it, and the history shows every step in order', async () => {
    const { page } = leader;
    await openAudit(page);
    await auditRow(page).getByTestId('audit-review').click();
    const drawer = page.getByTestId('diy-record-view');
    await drawer.getByText('13987654321').waitFor();
    await drawer.getByTestId('audit-approve').click();
    await page.locator('.ant-popover:visible').getByTestId('audit-approve-ok').click();
    await page.locator('.ant-message').getByText('已通过 1 条记录').waitFor();

    const filer = enterprise.page;
    await filer.reload();
    await expect.poll(() => recordRow(filer).textContent()).toContain('已通过');
    // Approved: the filler can only look at it.
    await expect(recordRow(filer).getByTestId('diy-record-edit').count()).resolves.toBe(0);
    await recordRow(filer).getByTestId('diy-record-view-btn').click();
    const view = filer.getByTestId('diy-record-view');
    await view.getByTestId('diy-record-history-tab').click();
    const steps = view.getByTestId('diy-history-step');
    await expect.poll(() => steps.count()).toBeGreaterThanOrEqual(5);
    const actions = await steps.evaluateAll((els) => els.map((e) => e.getAttribute('data-action')));
    expect(actions.filter((a) => a !== 'update')).toEqual([
      'create',
      'submit',
      'return',
      'submit',
      'approve',
    ]);
    // The change after the return is there, field by field.
    const history = await view.getByTestId('diy-history').textContent();
    expect(history).toContain(COMMENT);
    expect(history).toContain('13812345678');
    expect(history).toContain('13987654321');
    await screenshot(filer, 'diy-flow-history-1366');
    await filer.keyboard.press('Escape');
  });

  it('renaming a field keeps the values of records filed under the old version', async () => {
    await call(adminToken, 'PUT', '/api/diyTable/design', {
      id: tableId,
      design: { fields: fields('单位全称'), numbering: { prefix: 'AQ', datePart: 'yyyyMMdd', digits: 3 } },
      publish: true,
    });
    const { page } = enterprise;
    await page.reload();
    const headers = () => page.getByTestId('diy-record-table').locator('thead th').allTextContents();
    await expect.poll(headers).toContain('单位全称');
    await expect(recordRow(page).textContent()).resolves.toContain('外滩数智安全科技有限公司');
    await screenshot(page, 'diy-flow-renamed-1366');
  });
});
