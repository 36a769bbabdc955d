import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import { type Browser, firstSignIn, openBrowser, openFromTopMenu, screenshot } from './support.ts';

/** Its own server: it deletes cache keys, which other E2E files may depend on. */
describe('the super admin watches the server and manages the cache', () => {
  let shuzhi: RunningShuzhi;
  let browser: Browser;
  beforeAll(async () => {
    shuzhi = await launchShuzhi({ sys_captcha: 'false' });
    browser = await openBrowser();
    await firstSignIn(browser.page, 'superadmin', shuzhi.baseUrl);
  });
  afterAll(async () => {
    await browser?.close();
    await shuzhi?.stop();
  });

  it('opens 服务监控 and sees the figures refresh', async () => {
    const { page } = browser;
    await openFromTopMenu(page, '平台管理', '服务监控', /\/platform\/server$/);
    await expect.poll(() => page.title()).toMatch(/^服务监控 - /);
    await page.getByTestId('server-cpu').waitFor();
    for (const id of ['server-cpu', 'server-memory', 'server-disk']) {
      const text = await page.getByTestId(id).locator('.ant-progress-indicator').textContent();
      expect(text, id).toMatch(/^\d+(\.\d)?%$/);
    }
    await expect(page.getByTestId('server-db-kind').textContent()).resolves.toBe('SQLite');
    await expect(page.getByTestId('server-db-size').textContent()).resolves.toMatch(/\d+(\.\d)? (KB|MB|GB)/);
    await expect(page.getByTestId('server-node').textContent()).resolves.toMatch(/^v\d+\./);
    await screenshot(page, 'server-monitor-1366');

    // Live: the time stamp moves within a refresh period; paused, it stays.
    const first = await page.getByTestId('server-updated').textContent();
    await expect
      .poll(() => page.getByTestId('server-updated').textContent(), { timeout: 12_000 })
      .not.toBe(first);
    await page.getByTestId('server-live').click();
    const held = await page.getByTestId('server-updated').textContent();
    // Nothing on the page can show that a refresh did not happen: wait past one refresh period.
    await page.waitForTimeout(6_000);
    await expect(page.getByTestId('server-updated').textContent()).resolves.toBe(held);

    await page.setViewportSize({ width: 1920, height: 1080 });
    await screenshot(page, 'server-monitor-1920');
    await page.setViewportSize({ width: 1366, height: 768 });
  });

  it('opens 缓存管理, finds a key, views it masked and deletes it, then deletes by prefix', async () => {
    const { page } = browser;
    // Two captchas put two one-use answers in the cache (the id is a number on the wire, as the family sends it).
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const answer = await page.request.get(`${shuzhi.baseUrl}/api/sysAuth/captcha`);
      ids.push(String(((await answer.json()) as { result: { id: number } }).result.id));
    }
    await openFromTopMenu(page, '平台管理', '缓存管理', /\/platform\/cache$/);
    await expect.poll(() => page.title()).toMatch(/^缓存管理 - /);
    await expect(page.getByTestId('cache-kind').textContent()).resolves.toBe('内存缓存');
    const keyItem = (key: string) => page.locator(`[data-testid="cache-key"][data-key="${key}"]`);
    await keyItem(`captcha:${ids[0]}`).waitFor();
    await expect(
      page
        .getByTestId('cache-key')
        .filter({ hasText: /^sess:\d+$/ })
        .count(),
    ).resolves.toBeGreaterThan(0);

    // Search narrows the list.
    await page.getByTestId('cache-search').fill(ids[0]);
    await expect.poll(() => page.getByTestId('cache-key').count()).toBe(1);
    await keyItem(`captcha:${ids[0]}`).click();
    await expect(page.getByTestId('cache-value-title').textContent()).resolves.toBe(`captcha:${ids[0]}`);
    await expect(page.getByTestId('cache-value-text').textContent()).resolves.toBe('******');
    await expect(page.getByTestId('cache-value-ttl').textContent()).resolves.toMatch(/\d+ (秒|分)/);
    await screenshot(page, 'cache-value-1366');

    await page.getByTestId('cache-delete').click();
    await page.getByTestId('cache-delete-ok').click();
    await page.getByText('已删除缓存键', { exact: true }).waitFor();
    await expect.poll(() => keyItem(`captcha:${ids[0]}`).count()).toBe(0);
    await expect(page.getByTestId('cache-value-title').textContent()).resolves.toBe('缓存值');

    // A session key shows its principal as JSON.
    await page.getByTestId('cache-search').fill('');
    const sess = page
      .getByTestId('cache-key')
      .filter({ hasText: /^sess:\d+$/ })
      .first();
    await sess.click();
    await expect(page.getByTestId('cache-value-text').textContent()).resolves.toContain('"permissions"');

    // Delete by prefix: the group chip, a confirmation with the count, and the key is gone.
    await page.getByTestId('cache-group-captcha:').click();
    await page.getByTestId('cache-delete-prefix').click();
    await expect(page.getByTestId('cache-delete-prefix-content').textContent()).resolves.toBe(
      '将删除以「captcha:」开头的 1 个缓存键。此操作不可撤销。',
    );
    await screenshot(page, 'cache-delete-prefix-1366');
    await page.getByTestId('cache-delete-prefix-ok').click();
    await page.getByText('已删除 1 个缓存键', { exact: true }).waitFor();
    await expect.poll(() => keyItem(`captcha:${ids[1]}`).count()).toBe(0);

    await page.setViewportSize({ width: 1920, height: 1080 });
    await sess.click();
    await screenshot(page, 'cache-1920');
    await page.setViewportSize({ width: 1366, height: 768 });
  });
});
