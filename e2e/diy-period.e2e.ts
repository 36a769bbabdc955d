import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import {
  type Browser,
  pageCall as call,
  clickWhenOpened,
  firstSignIn,
  openBrowser,
  openFromTopMenu,
  pageRequest as request,
  screenshot,
} from './support.ts';

const FORM = '企业用工情况月报（周期）';
const CLOSE_COMMENT = '本月数据已汇总上报，关闭填报';
const REOPEN_REASON = '区统计局要求补报从业人数';

const DESIGN = {
  fields: [
    { id: 'company', type: 'text', label: '企业名称', required: true },
    { id: 'staff', type: 'integer', label: '从业人数' },
  ],
};

/**
 * 填报周期 (issue 6 §1, §7): a monthly form filled by 张伟 (fgwstaff). The admin closes the current period on
 * 填报周期; the filler finds it closed in the record list and cannot change the record (the API refuses with
 * F1023 too); the admin reopens it with a reason; the filler edits; the period's log shows both steps.
 */
describe('reporting periods: close, refuse, reopen, edit, log', () => {
  let shuzhi: RunningShuzhi;
  let admin: Browser;
  let filler: Browser;
  let formId: number;
  let periodId: number;
  let periodName: string;
  let recordId: number;

  beforeAll(async () => {
    shuzhi = await launchShuzhi({ sys_captcha: 'false' });
    admin = await openBrowser();
    await firstSignIn(admin.page, 'admin', shuzhi.baseUrl);
    filler = await openBrowser();
    await firstSignIn(filler.page, 'fgwstaff', shuzhi.baseUrl);

    const userId = async (account: string) => {
      const [user] = await call<{ value: number }[]>(
        admin.page,
        'GET',
        `/api/diyTable/pickUsers?keyword=${account}`,
      );
      if (!user) throw new Error(`no user ${account}`);
      return user.value;
    };
    const fillers = [await userId('fgwstaff'), await userId('gzlstaff')];
    formId = await call<number>(admin.page, 'POST', '/api/diyTable/add', {
      title: FORM,
      fillers: { all: false, orgIds: [], roleIds: [], userIds: fillers, enterprises: false },
      needsReview: false,
      period: { kind: 'month', dueDays: 10, graceDays: 0, onePerOrg: true },
    });
    await call(admin.page, 'PUT', '/api/diyTable/design', { id: formId, design: DESIGN, publish: true });
    const periods = await call<{ id: number; name: string; state: string }[]>(
      filler.page,
      'GET',
      `/api/diyPeriod/list?tableId=${formId}`,
    );
    const current = periods.find((p) => p.state === 'open');
    if (!current) throw new Error(`no open period: ${JSON.stringify(periods)}`);
    periodId = current.id;
    periodName = current.name;
    recordId = await call<number>(filler.page, 'POST', `/api/diyData/${formId}/add`, {
      values: { company: '上海黄浦数智科技有限公司', staff: 120 },
      submit: false,
    });
  });
  afterAll(async () => {
    await filler?.close();
    await admin?.close();
    await shuzhi?.stop();
  });

  const periodRow = (page: Page) =>
    page
      .getByTestId('period-table')
      .locator('tr.ant-table-row', { hasText: FORM })
      .filter({ hasText: periodName });

  it('staff close the current period on 填报周期', async () => {
    const { page } = admin;
    await openFromTopMenu(page, '报表中心', '填报周期', /\/diyReport\/period$/);
    await page.getByTestId('period-search-keyword').fill(FORM);
    await page.getByTestId('period-search-submit').click();
    const row = periodRow(page);
    await row.waitFor();
    await expect.poll(() => row.getByTestId('period-state').textContent()).toBe('填报中');
    await expect(row.getByTestId('period-counts').textContent()).resolves.toBe('0 / 1');
    await row.getByTestId('period-close').click();
    const dialog = page.getByTestId('period-dialog');
    await dialog.getByTestId('period-comment').fill(CLOSE_COMMENT);
    await screenshot(page, 'diy-period-close-1366');
    await page.getByTestId('period-dialog-ok').click();
    await page.locator('.ant-message').getByText('周期已关闭').waitFor();
    await expect.poll(() => row.getByTestId('period-state').textContent()).toBe('已关闭');
    await row.getByTestId('period-reopen').waitFor();
    await page.mouse.move(10, 700);
    await screenshot(page, 'diy-period-list-1366');
  });

  it('the filler sees the period closed and cannot change the record; the API refuses with F1023', async () => {
    const { page } = filler;
    await page.goto(`${shuzhi.baseUrl}/diyReport/index/formTable?id=${formId}&periodId=${periodId}`);
    const banner = page.getByTestId('period-banner');
    await banner.waitFor();
    await expect.poll(() => banner.getAttribute('data-state')).toBe('closed');
    await expect(banner.textContent()).resolves.toContain('已关闭');
    await page.getByTestId('diy-chip-period').waitFor();
    const table = page.getByTestId('diy-record-table');
    await table.getByText('上海黄浦数智科技有限公司').waitFor();
    await expect(page.getByTestId('diy-record-add').isDisabled()).resolves.toBe(true);
    await expect(page.getByTestId('diy-record-zero').isDisabled()).resolves.toBe(true);
    await expect(table.getByTestId('diy-record-edit').isDisabled()).resolves.toBe(true);
    await expect(table.getByTestId('diy-record-delete').isDisabled()).resolves.toBe(true);
    await screenshot(page, 'diy-period-filler-closed-1366');

    const refused = await request(page, 'PUT', `/api/diyData/${formId}/update`, {
      id: recordId,
      values: { company: '上海黄浦数智科技有限公司', staff: 130 },
      submit: false,
    });
    expect(refused.code).toBe('F1023');
    const added = await request(page, 'POST', `/api/diyData/${formId}/add`, {
      values: { company: '另一家企业' },
      periodId,
    });
    expect(added.code).toBe('F1023');
  });

  it('staff reopen the period, giving a reason', async () => {
    const { page } = admin;
    const row = periodRow(page);
    await row.getByTestId('period-reopen').click();
    // The modal's root wraps it without a box of its own: wait for what is inside.
    const dialog = page.getByTestId('period-dialog');
    await clickWhenOpened(page.getByTestId('period-dialog-ok'));
    await dialog.getByText('请填写重新开放的原因').waitFor();
    await dialog.getByTestId('period-comment').fill(REOPEN_REASON);
    await page.getByTestId('period-dialog-ok').click();
    await page.locator('.ant-message').getByText('周期已重新开放').waitFor();
    await expect.poll(() => row.getByTestId('period-state').textContent()).toBe('填报中');
  });

  it('the filler edits the record again', async () => {
    const { page } = filler;
    await page.reload();
    const banner = page.getByTestId('period-banner');
    await expect.poll(() => banner.getAttribute('data-state')).toBe('open');
    const table = page.getByTestId('diy-record-table');
    const edit = table.getByTestId('diy-record-edit');
    await expect.poll(() => edit.isDisabled()).toBe(false);
    await edit.click();
    const drawer = page.getByTestId('diy-fill');
    const staff = drawer.getByTestId('diy-field-staff').locator('input');
    await staff.fill('135');
    await drawer.getByTestId('diy-fill-draft').click();
    await page.locator('.ant-message').getByText('草稿已保存').waitFor();
    const saved = await call<{ values: { staff: number }; periodId: number }>(
      page,
      'GET',
      `/api/diyData/${formId}/detail?id=${recordId}`,
    );
    expect(saved.values.staff).toBe(135);
    expect(saved.periodId).toBe(periodId);
    await drawer.getByTestId('diy-fill-close').click();
    await drawer.waitFor({ state: 'hidden' });
    await screenshot(page, 'diy-period-filler-open-1366');
  });

  it('报表填报 shows the form with its current period and due date', async () => {
    const { page } = filler;
    await page.goto(`${shuzhi.baseUrl}/diyReport`);
    const card = page.locator(`[data-testid="form-item-card"][data-id="${formId}"]`);
    const line = card.getByTestId('current-period');
    await line.waitFor();
    await expect(line.textContent()).resolves.toContain(`本期：${periodName}`);
    await expect(line.getAttribute('data-state')).resolves.toBe('open');
    await screenshot(page, 'diy-period-cards-1366');
  });

  it('the log shows the closing and the reopening with their reasons', async () => {
    const { page } = admin;
    await periodRow(page).getByTestId('period-log-btn').click();
    const drawer = page.getByTestId('period-log');
    const entries = drawer.getByTestId('period-log-entry');
    await entries.first().waitFor();
    const actions = await entries.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-action')));
    expect(actions.slice(0, 2)).toEqual(['reopen', 'close']);
    await expect(entries.nth(0).textContent()).resolves.toContain(REOPEN_REASON);
    await expect(entries.nth(1).textContent()).resolves.toContain(CLOSE_COMMENT);
    await screenshot(page, 'diy-period-log-1366');
  });

  it('staff hand the record over to another filler from the record drawer; its history says so', async () => {
    const { page } = admin;
    await page.goto(`${shuzhi.baseUrl}/diyReport/index/formTable?id=${formId}&periodId=${periodId}`);
    const row = page.getByTestId('diy-record-table').locator('tr.ant-table-row').first();
    await row.getByTestId('diy-record-view-btn').click();
    const drawer = page.getByTestId('diy-record-view');
    await drawer.getByTestId('diy-record-hand-over').click();
    const dialog = page.getByTestId('diy-handover-dialog');
    await expect
      .poll(() => dialog.getByTestId('diy-handover-current').textContent())
      .toBe('当前填报人：张伟（区发展和改革委员会）');
    await dialog.getByTestId('diy-handover-user').click();
    await page.keyboard.type('吴静');
    await page.getByTestId('diy-pick-option').filter({ hasText: '吴静' }).click();
    await screenshot(page, 'diy-handover-1366');
    await dialog.getByTestId('diy-handover-ok').click();
    await page.locator('.ant-message').getByText('已移交').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    const meta = drawer.getByTestId('diy-record-meta');
    await expect.poll(() => meta.textContent()).toContain('吴静');
    await expect(meta.textContent()).resolves.toContain('贵州路居民委员会');
    await drawer.getByTestId('diy-record-history-tab').click();
    await drawer.locator('[data-testid="diy-history-step"][data-action="handover"]').waitFor();
    const saved = await call<{ createUserName: string }>(
      page,
      'GET',
      `/api/diyData/${formId}/detail?id=${recordId}`,
    );
    expect(saved.createUserName).toBe('吴静');
  });
});
