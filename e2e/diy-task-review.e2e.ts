import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import { type Browser, clickWhenOpened, firstSignIn, openBrowser, screenshot, settled } from './support.ts';

const FORM = '社区人口月报';
const TITLE = '逐级审核：社区人口月报';
const STREET = '南京东路街道';
const COMMUNITY = '贵州路居民委员会';

/** A time `days` from now in the product's zone (Asia/Shanghai), as the date pickers take it. */
function daysAhead(days: number, time: string): string {
  const shanghai = new Date(Date.now() + 8 * 3_600_000 + days * 86_400_000);
  return `${shanghai.toISOString().slice(0, 10)} ${time}`;
}

/** Picks a node of an open org TreeSelect by its text. */
async function pickOrg(page: Page, select: Locator, name: string): Promise<void> {
  await select.click();
  await page.keyboard.type(name);
  await page
    .locator('.ant-select-dropdown:visible .ant-select-tree-node-content-wrapper', { hasText: name })
    .first()
    .click();
  await page.keyboard.press('Escape');
}

async function pickTime(page: Page, picker: Locator, value: string): Promise<void> {
  const input = (await picker.evaluate((e) => e.tagName)) === 'INPUT' ? picker : picker.locator('input');
  await input.click();
  await input.fill(value);
  await page.keyboard.press('Enter');
}

const cellOf = (page: Page, unit: string) =>
  page.getByTestId('task-grid').locator('tr', { hasText: unit }).first().getByTestId('task-cell').first();

/**
 * Issue 19 §4, level-by-level review across three browsers: 系统管理员 (the district) asks 南京东路街道 for 社区人口月报
 * with 逐级审核; 王海燕 (the street) hands it on to 贵州路; 吴静 files; the street sees the figures against last
 * month and passes the record; the district sees it counted for the street, then passes it and it is approved.
 */
describe('逐级审核: the street reviews first, then the district', () => {
  let shuzhi: RunningShuzhi;
  let district: Browser;
  let street: Browser;
  let community: Browser;
  let taskUrl = '';

  beforeAll(async () => {
    shuzhi = await launchShuzhi({ sys_captcha: 'false' });
    [district, street, community] = await Promise.all([openBrowser(), openBrowser(), openBrowser()]);
    await firstSignIn(district.page, 'admin', shuzhi.baseUrl);
    await firstSignIn(street.page, 'njdleader', shuzhi.baseUrl);
    await firstSignIn(community.page, 'gzlstaff', shuzhi.baseUrl);
  });
  afterAll(async () => {
    await Promise.all([district?.close(), street?.close(), community?.close()]);
    await shuzhi?.stop();
  });

  const toast = (page: Page, text: string | RegExp) =>
    page.locator('.ant-message-notice').filter({ hasText: text }).first().waitFor();

  it('the district creates the task with level-by-level review; the street hands it on', async () => {
    const { page } = district;
    await page.goto(`${shuzhi.baseUrl}/diyTask`);
    await page.getByTestId('task-create').click();
    const form = page.getByTestId('task-create-form');
    await form.waitFor();
    await form.getByTestId('task-field-title').fill(TITLE);
    await form.getByTestId('task-field-forms').click();
    await page.keyboard.type(FORM);
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: FORM }).click();
    await page.keyboard.press('Escape');
    await pickTime(page, form.getByTestId('task-field-due'), daysAhead(10, '18:00'));
    await pickOrg(page, form.getByTestId('task-field-orgs'), STREET);
    await form.getByTestId('task-create-level-review').click();
    await page.getByTestId('task-create-submit').click();
    await toast(page, '任务已创建并下发');
    await page.waitForURL(/\/diyTask\/detail\?id=\d+$/);
    taskUrl = page.url();
    await page.getByTestId('task-review').waitFor();

    const s = street.page;
    await s.goto(`${shuzhi.baseUrl}/diyTask/mine`);
    const row = s.getByTestId('my-task-table').locator('tr', { hasText: TITLE });
    await row.waitFor();
    await row.getByTestId('my-task-hand-on').click();
    const handOn = s.getByTestId('task-hand-on-form');
    await handOn.waitFor();
    await pickTime(s, handOn.getByTestId('task-hand-on-due'), daysAhead(5, '17:00'));
    await pickOrg(s, handOn.getByTestId('task-field-orgs'), COMMUNITY);
    await clickWhenOpened(s.locator('.ant-modal').getByRole('button', { name: /确\s*定/ }));
    await toast(s, /已下发给 1 个单位/);
  });

  it('the community files from 我的任务', async () => {
    const { page } = community;
    await page.goto(`${shuzhi.baseUrl}/diyTask/mine`);
    const row = page.getByTestId('my-task-table').locator('tr', { hasText: TITLE });
    await row.waitFor();
    await row.getByTestId('my-task-fill').click();
    await page.getByTestId('diy-record-add').click();
    const drawer = page.getByTestId('diy-fill');
    await drawer.getByTestId('diy-fill-body').waitFor();
    for (const [id, value] of Object.entries({ huji: '3010', liudong: '990', elderly: '1195' })) {
      await drawer.getByTestId(`diy-field-${id}`).locator('input').fill(value);
    }
    await drawer.getByTestId('diy-fill-submit').click();
    await drawer.waitFor({ state: 'hidden' });
  });

  it('the street sees the figures against last month and passes the record', async () => {
    const { page } = street;
    await page.goto(taskUrl);
    await expect.poll(() => cellOf(page, COMMUNITY).getAttribute('data-state')).toBe('reviewing');
    const card = page.getByTestId('task-review');
    await card.getByTestId('task-review-open').click();
    const drawer = page.getByTestId('task-review-drawer');
    const compare = drawer.getByTestId('task-review-compare');
    // Last month's record of 贵州路: 户籍人口 2995.
    await compare.locator('tr', { hasText: '户籍人口' }).getByText('+15（+0.5%）').waitFor();
    await settled(page);
    await screenshot(page, 'task-review-1366');
    await drawer.getByTestId('task-review-comment').fill('已核对');
    await drawer.getByTestId('task-review-pass').click();
    await toast(page, '已审核通过');
    await expect.poll(() => cellOf(page, COMMUNITY).getAttribute('data-state')).toBe('submitted');
  });

  it('the district sees it counted for the street, passes it and it is approved', async () => {
    const { page } = district;
    await page.reload();
    await page.getByTestId('task-detail').waitFor();
    await expect.poll(() => cellOf(page, STREET).getAttribute('data-state')).toBe('reviewing');
    await page.getByTestId('task-review').getByTestId('task-review-open').click();
    const drawer = page.getByTestId('task-review-drawer');
    await drawer.getByTestId('task-review-step').filter({ hasText: '已核对' }).waitFor();
    await drawer.getByTestId('task-review-pass').click();
    await toast(page, '已审核通过');
    await expect.poll(() => cellOf(page, COMMUNITY).getAttribute('data-state')).toBe('approved');
    await expect.poll(() => cellOf(page, STREET).getAttribute('data-state')).toBe('approved');
    await expect.poll(() => page.getByTestId('task-detail-progress').textContent()).toContain('1/1');
  });
});
