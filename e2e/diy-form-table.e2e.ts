import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import {
  apiCall,
  type Browser,
  firstSignIn,
  openBrowser,
  pastReclickHold,
  screenshot,
  tokenOf,
} from './support.ts';

const TITLE = '企业用工情况月报';

/**
 * Its own server. The admin publishes a form through the API (everybody fills; 单位名称 required and unique,
 * 从业人数, 备注 hidden by the route); 张伟 (fgwstaff) already filed two drafts through the API. In the browser he
 * opens `/diyReport/index/formTable?id=…`, adds a record — the browser's check, then the server's unique
 * check on the field — corrects it, saves a draft, submits, views it with its history, filters and sorts the
 * list, and deletes one record.
 */
describe('表单填报: the record list and filling of a form', () => {
  let shuzhi: RunningShuzhi;
  let filler: Browser;
  let tableId = 0;
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
          { id: 'name', type: 'text', label: '单位名称', required: true, unique: 'form', span: 12 },
          { id: 'staff', type: 'integer', label: '从业人数', min: 0, span: 12 },
          {
            id: 'kind',
            type: 'select',
            label: '单位类型',
            span: 12,
            options: {
              source: 'options',
              items: [
                { label: '企业', value: 'e' },
                { label: '事业单位', value: 'i' },
              ],
            },
          },
          { id: 'day', type: 'date', label: '填报日期', span: 12 },
          { id: 'memo', type: 'textarea', label: '备注' },
        ],
        numbering: { prefix: 'YG', datePart: 'yyyyMMdd', digits: 4 },
      };
      await call(token, 'PUT', '/api/diyTable/design', { id: tableId, design, publish: true });
    } finally {
      await admin.close();
    }
  });
  afterAll(async () => {
    await filler?.close();
    await shuzhi?.stop();
  });

  const toast = (page: Page, text: string) =>
    page.locator('.ant-message-notice').filter({ hasText: text }).first().waitFor();
  const rows = (page: Page) => page.getByTestId('diy-record-table').locator('tbody tr.ant-table-row');
  const row = (page: Page, text: string) => rows(page).filter({ hasText: text });
  const url = () => `${shuzhi.baseUrl}/diyReport/index/formTable?id=${tableId}&defaultHideDataList=memo`;

  it('opens the record list with the form title, the records filed so far and the hidden column', async () => {
    filler = await openBrowser();
    const { page } = filler;
    await firstSignIn(page, 'fgwstaff', shuzhi.baseUrl);
    const token = await tokenOf(page);
    if (!token) throw new Error('no filler token');
    for (const [name, staff, kind] of [
      ['黄浦数智科技有限公司', 50, 'e'],
      ['外滩物业管理中心', 300, 'i'],
    ] as const) {
      await call(token, 'POST', `/api/diyData/${tableId}/add`, {
        values: { name, staff, kind, memo: '首批' },
        submit: false,
      });
    }

    await page.goto(url());
    await page.getByTestId('diy-record-table').waitFor();
    await expect(page.getByTestId('diy-form-table-title').textContent()).resolves.toBe(TITLE);
    await expect.poll(() => page.title()).toMatch(new RegExp(`^${TITLE} - `));
    await expect.poll(() => rows(page).count()).toBe(2);
    const headers = () => page.getByTestId('diy-record-table').locator('thead th').allTextContents();
    await expect(headers()).resolves.toContain('单位名称');
    await expect(headers()).resolves.not.toContain('备注');
    await expect(row(page, '外滩物业管理中心').textContent()).resolves.toContain('事业单位');
    await expect(row(page, '外滩物业管理中心').textContent()).resolves.toContain('草稿');

    // The column chooser shows the hidden column.
    await page.getByTestId('diy-columns').click();
    await page.getByTestId('diy-column-toggle-memo').click();
    await expect.poll(headers).toContain('备注');
    await page.getByTestId('diy-columns-default').click();
    await expect.poll(headers).not.toContain('备注');
    await page.getByTestId('diy-columns').click();
    await page.getByTestId('diy-columns-chooser').waitFor({ state: 'hidden' });
    await page.mouse.move(1, 700);
    // The button's tooltip closes once the pointer has left; it would cover the toolbar's next click.
    await page.getByRole('tooltip', { name: '显示列' }).waitFor({ state: 'hidden' });
    await screenshot(page, 'diy-form-table-list-1366');
  });

  it('adds a record: the browser check, the server unique check on the field, a draft, then submit', async () => {
    const { page } = filler;
    await page.getByTestId('diy-record-add').click();
    const drawer = page.getByTestId('diy-fill');
    await drawer.getByTestId('diy-fill-body').waitFor();
    const name = drawer.getByTestId('diy-field-name').locator('input');
    const error = drawer.getByTestId('diy-error-diy-fill-name');

    // Nothing typed: the required field is marked and nothing is sent.
    await drawer.getByTestId('diy-fill-submit').click();
    await error.waitFor();
    await expect(error.textContent()).resolves.toContain('单位名称');

    // A name already filed: the server's unique check answers on the field.
    await name.fill('黄浦数智科技有限公司');
    await drawer.getByTestId('diy-field-staff').locator('input').fill('120');
    await pastReclickHold(page);
    await drawer.getByTestId('diy-fill-submit').click();
    await error.waitFor();
    await expect(error.textContent()).resolves.toContain('单位名称');
    await page.mouse.move(1, 700);
    await screenshot(page, 'diy-form-table-fill-error-1366');

    await name.fill('南京东路商务服务有限公司');
    await error.waitFor({ state: 'hidden' });
    await pastReclickHold(page);
    await drawer.getByTestId('diy-fill-draft').click();
    await toast(page, '草稿已保存');
    await expect.poll(() => rows(page).count()).toBe(3);
    await pastReclickHold(page);
    await drawer.getByTestId('diy-fill-submit').click();
    await toast(page, '已提交');
    await drawer.getByTestId('diy-fill-body').waitFor({ state: 'hidden' });
    await expect.poll(() => row(page, '南京东路商务服务有限公司').textContent()).toContain('待审核');
  });

  it('views the submitted record with its number, facts and history', async () => {
    const { page } = filler;
    await row(page, '南京东路商务服务有限公司').getByTestId('diy-record-view-btn').click();
    const view = page.getByTestId('diy-record-view');
    const meta = view.getByTestId('diy-record-meta');
    await meta.waitFor();
    await expect(meta.textContent()).resolves.toContain('张伟');
    await expect(meta.textContent()).resolves.toContain('待审核');
    await expect(meta.textContent()).resolves.toMatch(/YG\d{12}/);
    await expect(view.getByTestId('diy-view-diy-view-name').textContent()).resolves.toBe(
      '南京东路商务服务有限公司',
    );
    await view.getByTestId('diy-record-history-tab').click();
    const steps = view.getByTestId('diy-history-step');
    await steps.first().waitFor();
    const actions = await steps.evaluateAll((els) => els.map((e) => e.getAttribute('data-action')));
    expect(actions[0]).toBe('create');
    expect(actions.at(-1)).toBe('submit');
    // The creation lists every value set, the submission the status before and after.
    await expect(steps.first().textContent()).resolves.toContain('南京东路商务服务有限公司');
    await expect(steps.last().textContent()).resolves.toContain('待审核');
    await page.mouse.move(1, 700);
    await screenshot(page, 'diy-form-table-view-1366');
    await page.keyboard.press('Escape');
    await meta.waitFor({ state: 'hidden' });
  });

  it('filters by a field and by status, and sorts by a column on the server', async () => {
    const { page } = filler;
    await page.getByTestId('diy-record-filter-toggle').click();
    await page.getByTestId('diy-filter-add').click();
    // The first condition is 单位名称 包含 ….
    await page.getByTestId('diy-filter-value').fill('物业');
    await page.getByTestId('diy-filter-apply').click();
    await expect.poll(() => rows(page).count()).toBe(1);
    await expect(rows(page).first().textContent()).resolves.toContain('外滩物业管理中心');
    await page.mouse.move(1, 700);
    await screenshot(page, 'diy-form-table-filter-1366');
    await page.getByTestId('diy-filter-clear').click();
    await expect.poll(() => rows(page).count()).toBe(3);

    // The keyword box: three characters or more are looked up in the text-search index, fewer are read row by
    // row (docs/search.md); the answers are the same substring search.
    const keyword = page.getByTestId('diy-record-keyword').locator('input');
    const found = () =>
      rows(page).evaluateAll((els) => els.map((e) => e.querySelectorAll('td')[3]?.textContent));
    const search = async (text: string) => {
      await keyword.fill(text);
      await keyword.press('Enter');
    };
    await search('东路商务');
    await expect.poll(found).toEqual(['南京东路商务服务有限公司']);
    await search('数智');
    await expect.poll(found).toEqual(['黄浦数智科技有限公司']);
    await search('数智物业');
    await expect.poll(found).toEqual([]);
    // The label of a chosen option, as the list shows it (the record stores the option's value).
    await search('事业单位');
    await expect.poll(found).toEqual(['外滩物业管理中心']);
    await search('');
    await expect.poll(() => rows(page).count()).toBe(3);

    await page.getByTestId('diy-record-status-filter').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '待审核' }).click();
    await expect.poll(() => rows(page).count()).toBe(1);
    await page.getByTestId('diy-record-reset').click();
    await expect.poll(() => rows(page).count()).toBe(3);

    const header = page.getByTestId('diy-record-table').locator('thead th', { hasText: '从业人数' });
    const names = () =>
      rows(page).evaluateAll((els) => els.map((e) => e.querySelectorAll('td')[3]?.textContent ?? ''));
    await header.click();
    await expect
      .poll(names)
      .toEqual(['黄浦数智科技有限公司', '南京东路商务服务有限公司', '外滩物业管理中心']);
    await header.click();
    await expect
      .poll(names)
      .toEqual(['外滩物业管理中心', '南京东路商务服务有限公司', '黄浦数智科技有限公司']);
  });

  it('deletes one record after a confirmation', async () => {
    const { page } = filler;
    await row(page, '外滩物业管理中心').getByTestId('diy-record-delete').click();
    await page.getByTestId('diy-record-delete-ok').click();
    await toast(page, '已删除 1 条记录');
    await expect.poll(() => rows(page).count()).toBe(2);
    await expect(page.getByTestId('diy-record-total').textContent()).resolves.toBe('共 2 条');
  });

  it('holds its layout at 1920×1080 and on a phone', async () => {
    const { page } = filler;
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto(url());
    await page.getByTestId('diy-record-table').waitFor();
    await expect.poll(() => rows(page).count(), { timeout: 15_000 }).toBe(2);
    await page.mouse.move(1, 1000);
    await screenshot(page, 'diy-form-table-list-1920');
    await page.getByTestId('diy-record-add').click();
    await page.getByTestId('diy-fill-body').waitFor();
    await page.mouse.move(1, 1000);
    await screenshot(page, 'diy-form-table-fill-1920');
    // On a phone the drawer takes the whole screen and the fields stack.
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'diy-form-table-fill-phone');
    await page.setViewportSize({ width: 1366, height: 768 });
  });
});
