import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import {
  type Browser,
  pageCall as call,
  type Envelope,
  firstSignIn,
  NEW_PASSWORD,
  openBrowser,
  openFromTopMenu,
  screenshot,
  settled,
} from './support.ts';

const FORM = '防汛物资储备统计表';
const DOOMED = '临时排查表（待删除）';
const COMMENT = '沙袋数量与仓库台账不符，请核对后重新提交';
const OP_PASSWORD = 'Op#Audit2026';

const AUDIENCE = (userIds: number[]) => ({
  all: false,
  orgIds: [],
  roleIds: [],
  userIds,
  enterprises: false,
});
const DESIGN = {
  fields: [
    { id: 'sn', type: 'serialNo', label: '编号' },
    { id: 'site', type: 'text', label: '储备点', required: true },
    { id: 'bags', type: 'integer', label: '沙袋（只）' },
  ],
  numbering: { prefix: 'FX-', datePart: 'none', digits: 3 },
};
const DOOMED_DESIGN = { ...DESIGN, numbering: { prefix: 'LS-', datePart: 'none', digits: 3 } };

async function userId(page: Page, account: string): Promise<number> {
  const users = await call<{ value: number }[]>(page, 'GET', `/api/diyTable/pickUsers?keyword=${account}`);
  const [first] = users;
  if (!first) throw new Error(`no user ${account}`);
  return first.value;
}

async function bothSizes(page: Page, name: string): Promise<void> {
  await screenshot(page, `${name}-1366`);
  await page.setViewportSize({ width: 1920, height: 1080 });
  await screenshot(page, `${name}-1920`);
  await page.setViewportSize({ width: 1366, height: 768 });
  await settled(page);
}

/**
 * 报表审核 and 回收站 (issue 5 §5, §6): a form needing review, two records filed by 张伟 (fgwstaff); the district
 * leader (hpleader, a reviewer of the form) returns one with a comment and approves the other. The admin then
 * restores a deleted record, meets F1015 for a record of a deleted form, and purges that form for good.
 * Issue 16 §2: a record of the seeded 社区人口月报 returned after its period's due date stays its filler's
 * (吴静, gzlstaff) to submit again, marked late; the return dialog says so.
 */
describe('report review and the recycle bin', () => {
  let shuzhi: RunningShuzhi;
  let admin: Browser;
  let filler: Browser;
  let reviewer: Browser;
  let formId: number;
  let doomedId: number;
  const records: Record<'returned' | 'approved' | 'deleted' | 'orphan', { id: number; dataNo: string }> =
    {} as never;

  beforeAll(async () => {
    shuzhi = await launchShuzhi({ sys_captcha: 'false' });
    admin = await openBrowser();
    await firstSignIn(admin.page, 'admin', shuzhi.baseUrl);
    filler = await openBrowser();
    await firstSignIn(filler.page, 'fgwstaff', shuzhi.baseUrl);

    const fgw = await userId(admin.page, 'fgwstaff');
    const leader = await userId(admin.page, 'hpleader');
    formId = await call<number>(admin.page, 'POST', '/api/diyTable/add', {
      title: FORM,
      fillers: AUDIENCE([fgw]),
      reviewerIds: [leader],
      needsReview: true,
    });
    await call(admin.page, 'PUT', '/api/diyTable/design', { id: formId, design: DESIGN, publish: true });
    doomedId = await call<number>(admin.page, 'POST', '/api/diyTable/add', {
      title: DOOMED,
      fillers: AUDIENCE([fgw]),
      needsReview: true,
    });
    await call(admin.page, 'PUT', '/api/diyTable/design', {
      id: doomedId,
      design: DOOMED_DESIGN,
      publish: true,
    });

    const file = async (table: number, site: string, bags: number) => {
      const id = await call<number>(filler.page, 'POST', `/api/diyData/${table}/add`, {
        values: { site, bags },
        submit: true,
      });
      const record = await call<{ dataNo: string }>(
        filler.page,
        'GET',
        `/api/diyData/${table}/detail?id=${id}`,
      );
      return { id, dataNo: record.dataNo };
    };
    records.returned = await file(formId, '外滩储备点', 1200);
    records.approved = await file(formId, '南京东路储备点', 800);
    records.deleted = await file(formId, '打浦桥储备点', 300);
    records.orphan = await file(doomedId, '老西门排查点', 50);

    reviewer = await openBrowser();
    await firstSignIn(reviewer.page, 'hpleader', shuzhi.baseUrl);
  });
  afterAll(async () => {
    await reviewer?.close();
    await filler?.close();
    await admin?.close();
    await shuzhi?.stop();
  });

  const row = (page: Page, dataNo: string) =>
    page.getByTestId('audit-table').locator('tr', { hasText: dataNo });

  it('the reviewer sees the form with its pending records', async () => {
    const { page } = reviewer;
    await openFromTopMenu(page, '报表中心', '报表审核', /\/diyReport\/audit$/);
    const formItem = page.getByTestId(`audit-form-${formId}`);
    await formItem.waitFor();
    // Three records of this form wait (the two to review and the one the admin deletes later).
    await expect.poll(() => formItem.textContent()).toBe(`${FORM}3`);
    await formItem.click();
    await row(page, records.returned.dataNo).waitFor();
    await row(page, records.approved.dataNo).waitFor();
    await expect
      .poll(() => page.getByTestId('audit-table').locator('tbody tr.ant-table-row').count())
      .toBe(3);
    await expect(row(page, records.returned.dataNo).textContent()).resolves.toContain('张伟');
    await page.mouse.move(10, 700);
    await bothSizes(page, 'diy-audit-list');
  });

  it('shows the whole status tag beside the fixed 操作 column at 1366', async () => {
    const { page } = reviewer;
    // All forms listed: the widest table, with the form's name.
    await page.getByTestId('audit-form-all').click();
    const first = page.getByTestId('audit-table').locator('tbody tr.ant-table-row').first();
    await first.getByTestId('audit-review').waitFor();
    await settled(page);
    const status = first.getByTestId('diy-record-status');
    await expect(status.textContent()).resolves.toBe('待审核');
    const tag = await status.boundingBox();
    const actions = await first.getByTestId('audit-review').locator('xpath=ancestor::td[1]').boundingBox();
    if (!tag || !actions) throw new Error('no status tag or 操作 cell');
    expect(tag.x + tag.width).toBeLessThanOrEqual(actions.x);
    await screenshot(page, 'diy-audit-all-forms-1366');
    await page.getByTestId(`audit-form-${formId}`).click();
    await expect
      .poll(() => page.getByTestId('audit-table').locator('tbody tr.ant-table-row').count())
      .toBe(3);
  });

  it('returns a record: the comment is required, then it leaves the pending list', async () => {
    const { page } = reviewer;
    await row(page, records.returned.dataNo).getByTestId('audit-review').click();
    const drawer = page.getByTestId('diy-record-view');
    await drawer.getByText('外滩储备点').waitFor();
    await drawer.getByTestId('audit-drawer-actions').waitFor();
    await bothSizes(page, 'diy-audit-drawer');
    await drawer.getByTestId('audit-return').click();
    const dialog = page.locator('.ant-modal', { hasText: '退回记录' });
    await dialog.waitFor();
    await dialog.getByTestId('audit-return-ok').click();
    await dialog.getByText('请填写退回意见').waitFor();
    await dialog.getByTestId('audit-return-comment').fill(COMMENT);
    await screenshot(page, 'diy-audit-return-1366');
    await dialog.getByTestId('audit-return-ok').click();
    await page.locator('.ant-message').getByText('已退回，填报人可修改后重新提交').waitFor();
    await drawer.waitFor({ state: 'hidden' });
    await row(page, records.returned.dataNo).waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId(`audit-form-${formId}`).textContent()).toBe(`${FORM}2`);
  });

  it('approves the other record from the drawer after a confirmation', async () => {
    const { page } = reviewer;
    await row(page, records.approved.dataNo).getByTestId('audit-review').click();
    const drawer = page.getByTestId('diy-record-view');
    await drawer.getByText('南京东路储备点').waitFor();
    await drawer.getByTestId('audit-approve').click();
    await page.locator('.ant-popover:visible').getByTestId('audit-approve-ok').click();
    await page.locator('.ant-message').getByText('已通过 1 条记录').waitFor();
    await drawer.waitFor({ state: 'hidden' });
    await row(page, records.approved.dataNo).waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId(`audit-form-${formId}`).textContent()).toBe(`${FORM}1`);
  });

  it('shows the reviewed records under their tabs, with the comment and the history', async () => {
    const { page } = reviewer;
    await page.getByRole('tab', { name: '已退回' }).click();
    const returned = row(page, records.returned.dataNo);
    await returned.waitFor();
    await expect(returned.textContent()).resolves.toContain(COMMENT);
    await expect(returned.getByTestId('diy-record-status').textContent()).resolves.toBe('已退回');
    await expect(returned.textContent()).resolves.toContain('陈建国');

    await page.getByRole('tab', { name: '已通过' }).click();
    const approved = row(page, records.approved.dataNo);
    await approved.waitFor();
    await expect(approved.getByTestId('diy-record-status').textContent()).resolves.toBe('已通过');
    await page.mouse.move(10, 700);
    await bothSizes(page, 'diy-audit-approved');

    await page.getByRole('tab', { name: '已退回' }).click();
    await returned.getByTestId('audit-view').click();
    const drawer = page.getByTestId('diy-record-view');
    await drawer.getByTestId('diy-record-returned').waitFor();
    // A reviewed record offers no review buttons.
    await expect(drawer.getByTestId('audit-drawer-actions').count()).resolves.toBe(0);
    await drawer.getByTestId('diy-record-history-tab').click();
    const step = drawer.locator('[data-testid="diy-history-step"][data-action="return"]');
    await step.waitFor();
    await expect(step.textContent()).resolves.toContain(COMMENT);
    await drawer.locator('[data-testid="diy-history-step"][data-action="submit"]').first().waitFor();
    await screenshot(page, 'diy-audit-history-1366');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });

    // The filer sees the same outcome.
    const filed = await call<{ status: number; auditComment: string | null }>(
      filler.page,
      'GET',
      `/api/diyData/${formId}/detail?id=${records.returned.id}`,
    );
    expect(filed).toMatchObject({ status: 3, auditComment: COMMENT });
  });

  it('returns a record of a period past its due date; its filler submits it again, marked late', async () => {
    // The seeded 社区人口月报: last month made past due (not closed), whatever today is.
    const forms = await call<{ id: number; title: string }[]>(admin.page, 'GET', '/api/diyTable/list');
    const population = forms.find((f) => f.title === '社区人口月报')?.id as number;
    const periods = await call<{ id: number; startDate: string }[]>(
      admin.page,
      'GET',
      `/api/diyPeriod/list?tableId=${population}`,
    );
    const last = periods[1] as { id: number; startDate: string };
    await call(admin.page, 'POST', '/api/diyPeriod/update', {
      id: last.id,
      dueDate: last.startDate,
      graceUntil: null,
    });
    const waiting = await call<{ items: { dataNo: string; createUserName: string }[] }>(
      admin.page,
      'POST',
      `/api/diyData/${population}/page`,
      { page: 1, pageSize: 50, periodId: last.id, status: 1 },
    );
    const dataNo = waiting.items.find((r) => r.createUserName === '吴静')?.dataNo as string;

    const { page } = reviewer;
    await page.goto(`${shuzhi.baseUrl}/diyReport/audit`);
    await page.getByTestId(`audit-form-${population}`).click();
    await row(page, dataNo).getByTestId('audit-review').click();
    const drawer = page.getByTestId('diy-record-view');
    await drawer.getByTestId('audit-drawer-actions').waitFor();
    await drawer.getByTestId('audit-return').click();
    const dialog = page.locator('.ant-modal', { hasText: '退回记录' });
    // The reviewer is told before returning that the filler can still act after the due date.
    await expect(dialog.getByTestId('audit-return-refile').textContent()).resolves.toContain(
      '在其周期关闭前都可由填报人修改、提交或删除',
    );
    await dialog.getByTestId('audit-return-comment').fill('户籍人口与上月差异较大，请核实后重新提交');
    await screenshot(page, 'diy-audit-return-overdue-1366');
    await dialog.getByTestId('audit-return-ok').click();
    await page.locator('.ant-message').getByText('已退回，填报人可修改后重新提交').waitFor();

    const gzl = await openBrowser();
    try {
      await firstSignIn(gzl.page, 'gzlstaff', shuzhi.baseUrl);
      await gzl.page.goto(`${shuzhi.baseUrl}/diyReport/index/formTable?id=${population}&periodId=${last.id}`);
      await expect
        .poll(() => gzl.page.getByTestId('period-banner').getAttribute('data-state'))
        .toBe('overdue');
      await gzl.page.getByTestId('period-banner').getByText('退回的记录在本周期关闭前仍可修改').waitFor();
      const record = gzl.page
        .getByTestId('diy-record-table')
        .locator('tr.ant-table-row', { hasText: dataNo });
      await record.getByTestId('diy-record-status').filter({ hasText: '已退回' }).waitFor();
      await expect(record.getByTestId('diy-record-edit').isEnabled()).resolves.toBe(true);
      await expect(record.getByTestId('diy-record-delete').isEnabled()).resolves.toBe(true);
      await screenshot(gzl.page, 'diy-returned-overdue-1366');
      await record.getByTestId('diy-record-submit').click();
      await gzl.page.locator('.ant-popover:visible').getByTestId('diy-record-submit-ok').click();
      await record.getByTestId('diy-record-status').filter({ hasText: '待审核' }).waitFor();
      await record.getByTestId('diy-record-flag-late').waitFor();
      // Back with the reviewer: no longer the filler's to change after the due date.
      await expect(record.getByTestId('diy-record-edit').isEnabled()).resolves.toBe(false);
    } finally {
      await gzl.close();
    }
  });

  it('sets the admin’s operation password for purging', async () => {
    const { page } = admin;
    await page.goto(`${shuzhi.baseUrl}/system/userCenter?tab=opPassword`);
    await page.getByTestId('op-login-password').fill(NEW_PASSWORD);
    await page.getByTestId('op-new-password').fill(OP_PASSWORD);
    await page.getByTestId('op-confirm-password').fill(OP_PASSWORD);
    await page.getByTestId('op-password-submit').click();
    await expect.poll(() => page.getByTestId('op-password-status').getAttribute('data-set')).toBe('true');

    await call(admin.page, 'DELETE', `/api/diyData/${formId}/delete`, { ids: [records.deleted.id] });
    await call(admin.page, 'DELETE', `/api/diyData/${doomedId}/delete`, { ids: [records.orphan.id] });
    await call(admin.page, 'POST', '/api/diyTable/delete', { id: doomedId });
  });

  const binRow = (page: Page, text: string) =>
    page.getByTestId('recycle-table').locator('tr.ant-table-row', { hasText: text });

  it('restores a deleted record; a record of a deleted form is refused with F1015', async () => {
    const { page } = admin;
    await openFromTopMenu(page, '报表中心', '回收站', /\/diyReport\/recycle$/);
    const record = binRow(page, records.deleted.dataNo);
    await record.waitFor();
    await binRow(page, DOOMED).first().waitFor();
    await page.mouse.move(10, 700);
    await bothSizes(page, 'diy-recycle-list');

    await record.getByTestId('recycle-restore').click();
    await page.locator('.ant-popover:visible').getByTestId('recycle-restore-ok').click();
    await page.locator('.ant-message').getByText('已恢复 1 项').waitFor();
    await record.waitFor({ state: 'detached' });
    const back = await call<{ status: number }>(
      page,
      'GET',
      `/api/diyData/${formId}/detail?id=${records.deleted.id}`,
    );
    expect(back.status).toBe(1);

    const orphan = binRow(page, records.orphan.dataNo);
    await orphan.getByTestId('recycle-restore').click();
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/diyRecycle/restore')),
      page.locator('.ant-popover:visible').getByTestId('recycle-restore-ok').click(),
    ]);
    const refused = (await response.json()) as Envelope<null>;
    await screenshot(page, 'diy-recycle-f1015-1366');
    expect(refused.code, JSON.stringify(refused)).toBe('F1015');
    await page.locator('.ant-message').getByText('记录所属表单已删除，请先恢复表单').waitFor();
    await expect(orphan.count()).resolves.toBe(1);
  });

  it('purges the deleted form after the warning and the operation password', async () => {
    const { page } = admin;
    await page.getByRole('tab', { name: '表单' }).click();
    const form = binRow(page, DOOMED);
    await form.waitFor();
    await expect(binRow(page, records.orphan.dataNo).count()).resolves.toBe(0);
    await form.getByTestId('recycle-purge').click();
    const warning = page.getByTestId('recycle-purge-warning');
    await warning.waitFor();
    await expect(warning.textContent()).resolves.toContain('全部记录');
    await screenshot(page, 'diy-recycle-purge-warning-1366');
    await page.getByTestId('recycle-purge-ok').click();
    const input = page.getByTestId('op-password-prompt-input');
    await input.fill('Wrong#2026');
    await input.press('Enter');
    await page.locator('.ant-modal .ant-form-item-explain-error').waitFor();
    await expect(input.isVisible()).resolves.toBe(true);
    await input.fill(OP_PASSWORD);
    await screenshot(page, 'diy-recycle-op-password-1366');
    await input.press('Enter');
    await page.locator('.ant-message').getByText('已彻底删除 1 项').waitFor();
    await form.waitFor({ state: 'detached' });

    // Gone for good: the form cannot be restored, and its record left the bin with it.
    await page.getByRole('tab', { name: '全部' }).click();
    await expect.poll(() => binRow(page, DOOMED).count()).toBe(0);
    await expect(binRow(page, records.orphan.dataNo).count()).resolves.toBe(0);
    await page.mouse.move(10, 700);
    await bothSizes(page, 'diy-recycle-after');
  });

  it('names a deleted record by its values’ labels, not their stored codes', async () => {
    const { page } = admin;
    // The seeded draft of 马晓东 (qyfiller): 外滩分公司, of the type 分公司 (stored as `branch`).
    const forms = await call<{ value: number; label: string }[]>(page, 'GET', '/api/diyTable/select');
    const enterprise = forms.find((f) => f.label === '企业基本情况登记表');
    if (!enterprise) throw new Error('the seeded 企业基本情况登记表 is missing');
    const list = await call<{ id: number; values: Record<string, unknown> }[]>(
      page,
      'GET',
      `/api/diyData/${enterprise.value}/list`,
    );
    const draft = list.find((r) => String(r.values.name).endsWith('外滩分公司'));
    if (!draft) throw new Error('the seeded draft 外滩分公司 is missing');
    await call(page, 'DELETE', `/api/diyData/${enterprise.value}/delete`, { ids: [draft.id] });

    await page.getByTestId('recycle-refresh').click();
    const deleted = binRow(page, '外滩分公司');
    await deleted.waitFor();
    const summary = deleted.locator('td').nth(3);
    await expect(summary.textContent()).resolves.toBe(
      '2026-11-20 / 上海黄浦数智科技有限公司外滩分公司 / 分公司',
    );
    await screenshot(page, 'diy-recycle-labels-1366');
  });
});
