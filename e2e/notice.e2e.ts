import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import {
  type Browser,
  chooseOption,
  firstSignIn,
  openBrowser,
  openFromTopMenu,
  screenshot,
  settled,
} from './support.ts';

const TITLE = '关于开展防汛安全大检查的通知';

/**
 * Its own server: the admin writes and publishes a notice to 张伟 (fgwstaff), who is signed in in another
 * browser at the same time and receives it live — a toast and the bell's count, without reloading — then
 * opens it, and it is read.
 */
describe('a notice reaches a signed-in user live', () => {
  let shuzhi: RunningShuzhi;
  let admin: Browser;
  let staff: Browser;
  beforeAll(async () => {
    shuzhi = await launchShuzhi({ sys_captcha: 'false' });
    admin = await openBrowser();
    staff = await openBrowser();
    await firstSignIn(admin.page, 'admin', shuzhi.baseUrl);
    await firstSignIn(staff.page, 'fgwstaff', shuzhi.baseUrl);
  });
  afterAll(async () => {
    await admin?.close();
    await staff?.close();
    await shuzhi?.stop();
  });

  const bellLabel = () => staff.page.getByTestId('notice-bell').getAttribute('aria-label');

  it('the admin writes the notice in the editor and publishes it to one user', async () => {
    const { page } = admin;
    await expect.poll(bellLabel).toBe('通知公告');
    await openFromTopMenu(page, '平台管理', '通知公告', /\/platform\/notice$/);
    await page.getByTestId('notice-table').waitFor();
    await page.getByTestId('notice-add').click();
    const drawer = page.getByTestId('notice-editor');
    await drawer.getByTestId('notice-field-content-content').waitFor();
    // Nothing typed yet: no field is marked wrong before the person has touched it.
    await settled(page);
    await expect(drawer.locator('.ant-form-item-explain-error').count()).resolves.toBe(0);
    await drawer.getByTestId('notice-field-title').fill(TITLE);
    await drawer.getByTestId('notice-audience-4').click();
    await chooseOption(
      page,
      drawer.getByTestId('notice-field-users'),
      page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'fgwstaff' }),
      '张伟',
    );
    await page.keyboard.press('Escape');

    const body = drawer.getByTestId('notice-field-content-content');
    await body.click();
    await drawer.getByTestId('rte-h2').click();
    await page.keyboard.type('检查安排');
    // Enter after a heading starts a paragraph.
    await page.keyboard.press('Enter');
    await page.keyboard.type('请各单位于本周五前完成');
    await page.keyboard.press('Control+B');
    await page.keyboard.type('防汛物资');
    await page.keyboard.press('Control+B');
    await page.keyboard.type('清点，并上报检查结果。');
    await page.keyboard.press('Enter');
    await drawer.getByTestId('rte-bullet').click();
    await page.keyboard.type('排查低洼地区积水点');
    await page.keyboard.press('Enter');
    await page.keyboard.type('检查地下空间挡水设施');
    await expect(body.innerHTML()).resolves.toContain('<strong>防汛物资</strong>');
    await page.mouse.move(10, 700);
    await screenshot(page, 'notice-editor-1366');

    // 预览 saves the draft and shows the body as the server stored it.
    await drawer.getByTestId('notice-editor-preview').click();
    const preview = page.getByTestId('notice-preview-body');
    await preview.waitFor();
    await expect(preview.innerHTML()).resolves.toContain('<h2>检查安排</h2>');
    await page.keyboard.press('Escape');
    await preview.waitFor({ state: 'hidden' });

    await drawer.getByTestId('notice-editor-publish').click();
    await page.getByTestId('notice-publish-ok').click();
    await drawer.waitFor({ state: 'hidden' });
    const row = page.getByTestId('notice-table').locator('tr', { hasText: TITLE });
    await expect.poll(() => row.getByTestId('notice-status').textContent()).toBe('已发布');
    await expect(row.getByTestId('notice-audience').textContent()).resolves.toContain('张伟');
  });

  it('the user gets a toast and the bell count at once, without reloading', async () => {
    const { page } = staff;
    const toast = page.getByTestId('notice-toast-title');
    await toast.waitFor({ timeout: 15_000 });
    await expect(toast.textContent()).resolves.toBe(`新通知：${TITLE}`);
    await expect.poll(bellLabel).toBe('通知公告 (1 条未读)');
    await screenshot(page, 'notice-toast-1366');

    await page.getByTestId('notice-bell').click();
    const panel = page.getByTestId('notice-panel');
    await panel.waitFor();
    await expect(panel.getByTestId('notice-panel-item').count()).resolves.toBe(1);
    await screenshot(page, 'notice-bell-1366');
  });

  it('opens the notice, which becomes read, and finds it in the inbox', async () => {
    const { page } = staff;
    await page.getByTestId('notice-panel-item').click();
    const body = page.getByTestId('notice-view-body');
    await body.waitFor();
    await page.getByTestId('notice-panel').waitFor({ state: 'hidden' });
    await expect(body.innerHTML()).resolves.toContain('<strong>防汛物资</strong>');
    await expect(page.getByTestId('notice-view-meta').textContent()).resolves.toContain('系统管理员');
    await expect.poll(bellLabel).toBe('通知公告');
    await screenshot(page, 'notice-view-1366');
    await page.keyboard.press('Escape');
    await body.waitFor({ state: 'hidden' });

    await page.getByTestId('notice-bell').click();
    await page.getByTestId('notice-view-all').click();
    await page.waitForURL(/\/notice\/inbox$/);
    const row = page.getByTestId('inbox-table').locator('tr', { hasText: TITLE });
    await row.waitFor();
    await expect(row.getByTestId('inbox-read').textContent()).resolves.toBe('已读');
    await expect.poll(() => page.title()).toMatch(/^我的消息 - /);
    await screenshot(page, 'notice-inbox-1366');
  });

  it('the admin sees it read', async () => {
    const { page } = admin;
    await page.reload();
    const row = page.getByTestId('notice-table').locator('tr', { hasText: TITLE });
    await expect.poll(() => row.getByTestId('notice-read-stats').textContent()).toBe('1 / 1');
    await page.getByTestId('notice-table').locator('.ant-spin-blur').waitFor({ state: 'detached' });
    // At 1366 px every column shows: the read count is not hidden under the fixed actions column.
    const stats = await row.getByTestId('notice-read-stats').boundingBox();
    const actions = await page.getByTestId('notice-table').locator('th', { hasText: '操作' }).boundingBox();
    expect(stats && actions && stats.x + stats.width <= actions.x).toBe(true);
    await screenshot(page, 'notice-admin-1366');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await screenshot(page, 'notice-admin-1920');
    await page.setViewportSize({ width: 1366, height: 768 });
  });
});
