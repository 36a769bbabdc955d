import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import { type Browser, clickWhenOpened, firstSignIn, openBrowser, screenshot, settled } from './support.ts';

const FORM = '社区人口月报';
const TITLE = '11 月社区人口月报收集';
const STREET = '南京东路街道';
const OTHER_STREET = '外滩街道';
const COMMUNITY = '贵州路居民委员会';
const OTHER_COMMUNITY = '福州路居民委员会';

/** A time `days` from now in the product's zone (Asia/Shanghai), as the date pickers take it. */
function daysAhead(days: number, time: string): string {
  const shanghai = new Date(Date.now() + 8 * 3_600_000 + days * 86_400_000);
  return `${shanghai.toISOString().slice(0, 10)} ${time}`;
}

/** Picks a node of an open org TreeSelect by its text; the dropdown stays open for the next pick. */
async function pickOrg(page: Page, select: Locator, name: string): Promise<void> {
  await select.click();
  await page.keyboard.type(name);
  await page
    .locator('.ant-select-dropdown:visible .ant-select-tree-node-content-wrapper', { hasText: name })
    .first()
    .click();
  await page.keyboard.press('Escape');
}

/** Types a date and time into an antd DatePicker and confirms it. */
async function pickTime(page: Page, picker: Locator, value: string): Promise<void> {
  const input = (await picker.evaluate((e) => e.tagName)) === 'INPUT' ? picker : picker.locator('input');
  await input.click();
  await input.fill(value);
  await page.keyboard.press('Enter');
}

/** The completeness cell of a unit in the task's grid. */
const cellOf = (page: Page, unit: string) =>
  page.getByTestId('task-grid').locator('tr', { hasText: unit }).first().getByTestId('task-cell').first();

/**
 * Issue 19 §9, the chain of a task across three browsers: 系统管理员 (the district) hands 社区人口月报 out to two
 * streets; 王海燕 (南京东路街道's leader) hands her part on to two of her communities with an earlier due time;
 * 吴静 (贵州路居民委员会) finds it in 我的任务 and files; the district's grid shows 贵州路 filed and the street
 * half done; the district urges the street (催办), and 王海燕's open browser shows the reminder at once.
 */
describe('任务: the district hands a form out, a street hands it on, a community files', () => {
  let shuzhi: RunningShuzhi;
  let district: Browser;
  let street: Browser;
  let community: Browser;

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

  it('the district creates the task for two streets', async () => {
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
    const orgs = form.getByTestId('task-field-orgs');
    await pickOrg(page, orgs, STREET);
    await pickOrg(page, orgs, OTHER_STREET);
    await screenshot(page, 'task-create-1366');
    await page.getByTestId('task-create-submit').click();
    await toast(page, '任务已创建并下发');
    // The new task opens at once: two streets received it, nobody has filed.
    await page.waitForURL(/\/diyTask\/detail\?id=\d+$/);
    await expect.poll(() => page.getByTestId('task-detail-progress').textContent()).toContain('0/2');
  });

  it('the street finds it in 我的任务 and hands it on to two communities, due earlier', async () => {
    const { page } = street;
    await page.goto(`${shuzhi.baseUrl}/diyTask/mine`);
    const row = page.getByTestId('my-task-table').locator('tr', { hasText: TITLE });
    await row.waitFor();
    await row.getByTestId('my-task-hand-on').click();
    const form = page.getByTestId('task-hand-on-form');
    await form.waitFor();
    await pickTime(page, form.getByTestId('task-hand-on-due'), daysAhead(5, '17:00'));
    const orgs = form.getByTestId('task-field-orgs');
    await pickOrg(page, orgs, COMMUNITY);
    await pickOrg(page, orgs, OTHER_COMMUNITY);
    await clickWhenOpened(page.locator('.ant-modal').getByRole('button', { name: /确\s*定/ }));
    await toast(page, /已下发给 2 个单位/);
    await form.waitFor({ state: 'detached' });
  });

  it('the community files from 我的任务', async () => {
    const { page } = community;
    await page.goto(`${shuzhi.baseUrl}/diyTask/mine`);
    const row = page.getByTestId('my-task-table').locator('tr', { hasText: TITLE });
    await row.waitFor();
    await expect(row.getByTestId('my-task-due').textContent()).resolves.toBe(daysAhead(5, '17:00'));
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

  it('the district sees 贵州路 filed and the street half done', async () => {
    const { page } = district;
    await page.reload();
    await page.getByTestId('task-detail').waitFor();
    await expect.poll(() => cellOf(page, COMMUNITY).getAttribute('data-state')).toBe('submitted');
    await expect(cellOf(page, OTHER_COMMUNITY).getAttribute('data-state')).resolves.toBe('notStarted');
    await expect(cellOf(page, OTHER_STREET).getAttribute('data-state')).resolves.toBe('notStarted');
    await page.mouse.move(1, 760);
    await settled(page);
    await screenshot(page, 'task-grid-1366');
  });

  it('the district urges the street, whose open browser shows the reminder at once', async () => {
    const { page } = district;
    // Only units not done can be ticked: 贵州路 filed, 南京东路街道 and 外滩街道 have not.
    const tick = (unit: string) =>
      page.getByTestId('task-grid').locator('tr', { hasText: unit }).first().locator('.ant-checkbox-input');
    await expect(tick(COMMUNITY).isDisabled()).resolves.toBe(true);
    await street.page.goto(`${shuzhi.baseUrl}/diyTask/mine`);
    await street.page.getByTestId('my-task-table').locator('tr', { hasText: TITLE }).waitFor();
    await tick(STREET).check();
    await page.getByTestId('task-grid-urge').click();
    const form = page.getByTestId('task-urge-form');
    await form.waitFor();
    await expect(form.getByTestId('task-urge-units').textContent()).resolves.toBe(STREET);
    await form.getByTestId('task-urge-message').fill('请督促福州路居委会今天完成填报');
    await clickWhenOpened(page.getByTestId('task-urge-ok'));
    await form.waitFor({ state: 'detached' });
    await page.getByTestId('task-urge-records').locator('tr', { hasText: STREET }).first().waitFor();

    await street.page
      .getByTestId('notice-toast-title')
      .filter({ hasText: `【催办】${TITLE}` })
      .waitFor();
    await screenshot(street.page, 'task-urged-1366');
  });
});
