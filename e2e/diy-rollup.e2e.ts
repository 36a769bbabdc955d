import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import {
  type Browser,
  pageCall as call,
  clickWhenOpened,
  fillLogin,
  firstSignIn,
  NEW_PASSWORD,
  openBrowser,
  screenshot,
} from './support.ts';

const FORM = '楼宇人口登记（汇总测试）';
const ROLLUP = '楼宇人口按街道汇总';
const DESIGN = {
  fields: [
    { id: 'site', type: 'text', label: '楼宇', required: true },
    { id: 'people', type: 'integer', label: '常住人口', required: true, min: 0 },
    { id: 'rooms', type: 'integer', label: '房屋（间）', min: 0 },
  ],
};

/**
 * 汇总表 (issue 6 §2): a form filed by a grid worker and a community worker of 南京东路街道, a roll-up by
 * street made in 表单管理's dialog; the street's figure equals the sum of the submitted records (the draft is
 * pending, not summed), the drill-down reaches the community and its grids, and a figure opens the record
 * list narrowed to that org. The seeded 社区人口月报汇总 then expects the communities its source names: once
 * 贵州路居民委员会's own return is approved, it is no longer missing, and no grid is listed.
 */
describe('roll-up report', () => {
  let shuzhi: RunningShuzhi;
  let admin: Browser;
  let formId: number;
  let orgs: { value: number; label: string }[];

  beforeAll(async () => {
    shuzhi = await launchShuzhi({ sys_captcha: 'false' });
    admin = await openBrowser();
    await firstSignIn(admin.page, 'admin', shuzhi.baseUrl);
    orgs = await call(admin.page, 'GET', `/api/diyTable/pickOrgs?keyword=${encodeURIComponent('黄浦区')}`);
    const district = orgs.find((o) => o.label === '黄浦区');
    if (!district) throw new Error('no district org');
    formId = await call<number>(admin.page, 'POST', '/api/diyTable/add', {
      title: FORM,
      fillers: { all: false, orgIds: [district.value], roleIds: [], userIds: [], enterprises: false },
    });
    await call(admin.page, 'PUT', '/api/diyTable/design', { id: formId, design: DESIGN, publish: true });

    const file = async (account: string, rows: [string, number, boolean][]) => {
      const b = await openBrowser();
      try {
        await firstSignIn(b.page, account, shuzhi.baseUrl);
        for (const [site, people, submit] of rows) {
          await call(b.page, 'POST', `/api/diyData/${formId}/add`, {
            values: { site, people, rooms: Math.round(people / 3) },
            submit,
          });
        }
      } finally {
        await b.close();
      }
    };
    await file('gridstaff', [
      ['贵州路 12 号', 120, true],
      ['贵州路 30 号', 80, true],
      ['贵州路 45 号', 999, false],
    ]);
    await file('gzlstaff', [['居委会集体户', 50, true]]);
  });
  afterAll(async () => {
    await admin?.close();
    await shuzhi?.stop();
  });

  it('is made in 表单管理, sums the submitted records, drills down and opens the records', async () => {
    const page = admin.page;
    await page.goto(`${shuzhi.baseUrl}/diyTable`);
    await page.getByTestId('rollup-add').click();
    const modal = page.getByTestId('rollup-config-modal');
    await modal.getByTestId('rollup-title').fill(ROLLUP);
    await modal.getByTestId('rollup-source').click();
    await page.locator('.ant-select-item-option').filter({ hasText: FORM }).click();
    // The number fields come in as sums, with a record count.
    await modal.getByTestId('rollup-measure-2').waitFor();
    const labels = await modal
      .getByTestId('rollup-measures')
      .locator('input')
      .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
    expect(labels).toEqual(expect.arrayContaining(['常住人口', '房屋（间）', '上报份数']));
    await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'hidden' });
    await screenshot(page, 'rollup-config-1366');
    await page.getByTestId('rollup-save').click();
    await clickWhenOpened(page.getByTestId('rollup-add-open'));
    await page.waitForURL(/\/diyLoad\/index\/loadTable\?id=\d+/);
    const rollupId = Number(new URL(page.url()).searchParams.get('id'));
    await page
      .getByTestId('rollup-table')
      .waitFor()
      .catch(async (error: Error) => {
        await screenshot(page, 'rollup-table-failed');
        throw error;
      });
    await expect(page.getByTestId('rollup-title').textContent()).resolves.toBe(ROLLUP);

    // The street's figure is the sum of the submitted records (the draft counts as pending).
    const records = await call<{ items: { status: number; values: { people: number } }[] }>(
      page,
      'POST',
      `/api/diyData/${formId}/page`,
      { page: 1, pageSize: 100 },
    );
    const submitted = records.items.filter((r) => r.status === 1 || r.status === 2);
    const sum = submitted.reduce((s, r) => s + r.values.people, 0);
    expect(sum).toBe(250);
    const info = await call<{ config: { measures: { id: string; field: string | null }[] } }>(
      page,
      'GET',
      `/api/diyLoad/${rollupId}/config`,
    );
    const people = info.config.measures.find((m) => m.field === 'people')?.id as string;
    const street =
      orgs.find((o) => o.label === '南京东路街道') ??
      (
        await call<{ value: number; label: string }[]>(
          page,
          'GET',
          `/api/diyTable/pickOrgs?keyword=${encodeURIComponent('南京东路街道')}`,
        )
      )[0];
    if (!street) throw new Error('no street org');
    const figure = page.getByTestId(`rollup-fig-${street.value}-${people}`);
    await expect(figure.textContent()).resolves.toBe('250');
    await expect(page.getByTestId('rollup-count-pending').textContent()).resolves.toContain('1');
    await expect(page.getByTestId(`rollup-total-${people}`).textContent()).resolves.toBe('250');
    await screenshot(page, 'rollup-streets-1366');

    // Down one level: the street's communities; 贵州路 holds all of it.
    await page.getByTestId(`rollup-drill-${street.value}`).click();
    await page.getByTestId('rollup-crumb-0').filter({ hasText: '南京东路街道' }).waitFor();
    const community = page.getByTestId('rollup-table').locator('tr', { hasText: '贵州路居民委员会' });
    await community.waitFor();
    await expect(community.locator('button').filter({ hasText: '250' }).count()).resolves.toBe(1);
    await page.getByTestId('rollup-missing-button').click();
    await page.getByTestId('rollup-missing-list').waitFor();
    await screenshot(page, 'rollup-drill-1366');
    await page.getByTestId('rollup-missing-button').click();
    await page.getByTestId('rollup-missing-list').waitFor({ state: 'hidden' });

    // The figure opens the record list narrowed to the community (its grids' records and its own).
    await community.locator('button').filter({ hasText: '250' }).click();
    await page.waitForURL(/\/diyReport\/index\/formTable\?/);
    const url = new URL(page.url());
    expect(url.searchParams.get('id')).toBe(String(formId));
    expect(url.searchParams.get('orgId')).toMatch(/^\d+$/);
    const rows = page.getByTestId('diy-record-table').locator('tbody tr.ant-table-row');
    await rows.first().waitFor();
    // Three submitted records and the draft, all filed under 贵州路.
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(4);
    await screenshot(page, 'rollup-records-1366');
  });

  it('counts a community’s own approved return in the seeded 社区人口月报汇总 (issue 16 §3)', async () => {
    const forms = await call<{ id: number; title: string }[]>(admin.page, 'GET', '/api/diyTable/list');
    const population = forms.find((f) => f.title === '社区人口月报')?.id as number;
    const seeded = (
      await call<{ id: number; title: string }[]>(admin.page, 'GET', '/api/diyTable/list?reportType=2')
    ).find((f) => f.title === '社区人口月报汇总')?.id as number;
    const [current] = await call<{ id: number; key: string }[]>(
      admin.page,
      'GET',
      `/api/diyPeriod/list?tableId=${population}`,
    );
    const [community] = await call<{ value: number }[]>(
      admin.page,
      'GET',
      `/api/diyTable/pickOrgs?keyword=${encodeURIComponent('贵州路居民委员会')}`,
    );
    const gzl = await openBrowser();
    const leader = await openBrowser();
    try {
      // 吴静 signed in before (beforeAll) and changed her password then.
      await fillLogin(gzl.page, 'gzlstaff', NEW_PASSWORD, shuzhi.baseUrl);
      await gzl.page.getByTestId('dashboard-greeting').waitFor();
      const id = await call<number>(gzl.page, 'POST', `/api/diyData/${population}/add`, {
        periodId: current?.id,
        values: {
          month: current?.key,
          unit: community?.value,
          filler: '吴静',
          huji: 3001,
          liudong: 998,
          elderly: 1190,
        },
        submit: true,
      });
      await firstSignIn(leader.page, 'hpleader', shuzhi.baseUrl);
      await call(leader.page, 'POST', `/api/diyData/${population}/audit`, { ids: [id], action: 'approve' });
    } finally {
      await gzl.close();
      await leader.close();
    }

    const { page } = admin;
    await page.goto(`${shuzhi.baseUrl}/diyLoad/index/loadTable?id=${seeded}`);
    await page.getByTestId('rollup-table').waitFor();
    // 12 communities are expected this month; 贵州路 has reported.
    await expect.poll(() => page.getByTestId('rollup-missing-button').textContent()).toBe('未上报单位（11）');
    await page.getByTestId('rollup-missing-button').click();
    const list = page.getByTestId('rollup-missing-list');
    await list.getByText('南京东路街道/福州路居民委员会').waitFor();
    const text = (await list.textContent()) ?? '';
    expect(text).not.toContain('贵州路');
    expect(text).not.toContain('网格');
    await screenshot(page, 'rollup-seeded-missing-1366');
  });
});
