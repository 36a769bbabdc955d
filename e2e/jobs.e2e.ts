import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import { type Browser, firstSignIn, openBrowser, openFromTopMenu, screenshot } from './support.ts';

const jobRow = (page: Page, jobId: string) => page.getByTestId(`job-row-${jobId}`);
const jobState = (page: Page, jobId: string) =>
  page.getByTestId(`job-state-${jobId}`).getAttribute('data-state');

/** What the server holds, asked with the signed-in user's own token (as the page itself would). */
function jobIdsOnServer(page: Page, jobId: string): Promise<string[]> {
  return page.evaluate(async (id) => {
    const token = window.localStorage.getItem(`${window.location.host}:access-token`);
    const response = await fetch(`/api/sysJob/pageJobDetail?page=1&pageSize=20&jobId=${id}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const body = (await response.json()) as { result: { items: { jobId: string }[] } };
    return body.result.items.map((item) => item.jobId);
  }, jobId);
}

/** Picks an item of a row's 更多 menu. */
async function moreAction(page: Page, jobId: string, label: string): Promise<void> {
  await page.getByTestId(`job-more-${jobId}`).click();
  await page.locator('.ant-dropdown:visible .ant-dropdown-menu-item').filter({ hasText: label }).click();
}

/** The page itself does not scroll: only the embedded board does (SPEC §9 layouts). */
const pageScrolls = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollHeight > window.innerHeight + 1);

/**
 * Its own server: the super admin runs the built-in log retention now, adds an HTTP job (a bad cron first),
 * pauses and starts it, and opens the job board the API serves at /schedule.
 */
describe('the super admin schedules jobs', () => {
  let shuzhi: RunningShuzhi;
  let browser: Browser;
  beforeAll(async () => {
    shuzhi = await launchShuzhi({ sys_captcha: 'false' });
    browser = await openBrowser();
    await firstSignIn(browser.page, 'superadmin', shuzhi.baseUrl);
  });
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail')
      await screenshot(browser.page, 'jobs-failed').catch(() => undefined);
  });
  afterAll(async () => {
    await browser?.close();
    await shuzhi?.stop();
  });

  it('runs the built-in log retention now and sees its record succeed with a duration', async () => {
    const { page } = browser;
    await openFromTopMenu(page, '平台管理', '任务调度', /\/platform\/job$/);
    await expect.poll(() => page.title()).toMatch(/^任务调度 - /);
    await jobRow(page, 'logRetention').waitFor();
    for (const id of ['onlineUserCleanup', 'noticePublish', 'jobRecordRetention'])
      await jobRow(page, id).waitFor();
    await expect.poll(() => jobState(page, 'logRetention')).toBe('scheduled');

    await jobRow(page, 'logRetention').locator('.ant-table-row-expand-icon').click();
    const triggers = page.getByTestId('job-triggers-logRetention');
    await expect.poll(() => triggers.textContent()).toContain('0 0 3 * * *');
    await page.mouse.move(1, 700);
    await screenshot(page, 'jobs-list-1366');

    await page.getByTestId('job-run-logRetention').click();
    const detail = page.getByTestId('record-detail');
    await detail.getByTestId('record-detail-result').waitFor({ timeout: 20_000 });
    await expect
      .poll(() => detail.getByTestId('record-status').getAttribute('data-status'), { timeout: 30_000 })
      .toBe('succeeded');
    await expect
      .poll(() => detail.getByTestId('record-detail-elapsed').textContent())
      .toMatch(/^\d+(\.\d)? (毫秒|秒)$/);
    await expect(detail.textContent()).resolves.toContain('logRetention');
    // The drawer slides in from the right; the picture is taken once it is in place.
    const panel = page.locator('.ant-drawer-content-wrapper').filter({ hasText: '运行结果' });
    await expect
      .poll(async () => {
        const box = await panel.boundingBox();
        return box ? Math.round(box.x + box.width) : -1;
      })
      .toBe(1366);
    await screenshot(page, 'jobs-record-1366');
    await detail.locator('.ant-drawer-close').click();
    await detail.waitFor({ state: 'hidden' });

    // The records tab is filtered to the job and lists the run.
    const records = page.getByTestId('job-records');
    await expect.poll(() => page.getByTestId('record-search-job').inputValue()).toBe('logRetention');
    const first = records.locator('tbody tr[data-row-key]').first();
    await expect.poll(() => first.getByTestId('record-status').getAttribute('data-status')).toBe('succeeded');
    await expect(first.getByTestId('record-elapsed').textContent()).resolves.toMatch(/(毫秒|秒)$/);
    await page.mouse.move(1, 700);
    await screenshot(page, 'jobs-records-1366');
  });

  it('adds an HTTP job: a bad cron is refused with the reason and nothing is saved; fixed, it saves', async () => {
    const { page } = browser;
    await page.getByRole('tab', { name: /作业与触发器/ }).click();
    await page.getByTestId('job-add').click();
    const drawer = page.getByTestId('job-drawer');
    await drawer.getByTestId('job-field-id').fill('pushStats');
    await drawer.getByTestId('job-field-group').fill('ops');
    await drawer.getByTestId('job-field-description').fill('推送统计到数据中心');
    await drawer.getByTestId('job-field-url').fill(`${shuzhi.baseUrl}/health`);
    await drawer.getByTestId('job-header-add').click();
    await drawer.getByTestId('job-header-key').fill('X-Source');
    await drawer.getByTestId('job-header-value').fill('shuzhi');
    await drawer.getByTestId('job-field-body').fill('{"district": "黄浦区"}');

    await drawer.getByTestId('trigger-field-cron').fill('0 0 25 * * *');
    const fieldError = drawer.locator('.ant-form-item-explain-error').filter({ hasText: 'Cron 表达式无效' });
    await fieldError.waitFor();
    const reason = ((await fieldError.textContent()) ?? '').trim();
    // The parser's reason follows the prefix: hour 25 does not exist.
    expect(reason).toMatch(/^Cron 表达式无效：.*25/);
    await drawer.getByTestId('job-save').click();
    await expect.poll(() => fieldError.textContent()).toBe(reason);
    await expect(drawer.getByTestId('cron-check-valid').count()).resolves.toBe(0);
    await fieldError.scrollIntoViewIfNeeded();
    await screenshot(page, 'jobs-bad-cron-1366');
    await expect(drawer.isVisible()).resolves.toBe(true);
    await expect(jobIdsOnServer(page, 'pushStats')).resolves.toEqual([]);

    await drawer.getByTestId('trigger-field-cron').fill('0 */5 * * * *');
    const valid = drawer.getByTestId('cron-check-valid');
    await valid.waitFor();
    await expect(valid.locator('li').count()).resolves.toBe(5);
    await valid.scrollIntoViewIfNeeded();
    await screenshot(page, 'jobs-cron-ok-1366');
    await drawer.getByTestId('job-save').click();
    await drawer.waitFor({ state: 'hidden' });
    await jobRow(page, 'pushStats').waitFor();
    await expect.poll(() => jobState(page, 'pushStats')).toBe('scheduled');
    await expect(jobIdsOnServer(page, 'pushStats')).resolves.toEqual(['pushStats']);
  });

  it('pauses the new job and starts it again', async () => {
    const { page } = browser;
    await moreAction(page, 'pushStats', '暂停作业');
    await expect.poll(() => jobState(page, 'pushStats')).toBe('paused');
    await jobRow(page, 'pushStats').locator('.ant-table-row-expand-icon').click();
    const triggers = page.getByTestId('job-triggers-pushStats');
    await expect.poll(() => triggers.getByTestId('trigger-status').textContent()).toBe('暂停');
    await page.mouse.move(1, 700);
    await screenshot(page, 'jobs-paused-1366');

    await moreAction(page, 'pushStats', '启动作业');
    await expect.poll(() => jobState(page, 'pushStats')).toBe('scheduled');
    await expect.poll(() => triggers.getByTestId('trigger-status').textContent()).toBe('运行');
    await expect.poll(() => triggers.textContent()).toContain('0 */5 * * * *');
  });

  it('lists this server process in the cluster, as the scheduler leader', async () => {
    const { page } = browser;
    await page.getByRole('tab', { name: /集群节点/ }).click();
    const cluster = page.getByTestId('job-cluster');
    const self = cluster.locator('tbody tr', { has: page.getByTestId('cluster-self') });
    await self.waitFor();
    await expect(self.textContent()).resolves.toContain('在线');
    await expect.poll(() => self.getByTestId('cluster-leader').count(), { timeout: 30_000 }).toBe(1);
    // The tab's ink bar slides under the picked tab; the picture waits for it.
    const inkUnderTab = () =>
      page.evaluate(
        () =>
          new Promise<boolean>((resolve) => {
            const ink = document.querySelector('[data-testid="job-page"] .ant-tabs-ink-bar');
            const tab = document.querySelector('[data-testid="job-page"] .ant-tabs-tab-active');
            const before = ink?.getBoundingClientRect();
            requestAnimationFrame(() =>
              requestAnimationFrame(() => {
                const after = ink?.getBoundingClientRect();
                const box = tab?.getBoundingClientRect();
                if (!before || !after || !box) return resolve(false);
                const middle = after.x + after.width / 2;
                resolve(after.x === before.x && middle > box.left && middle < box.right);
              }),
            );
          }),
      );
    await expect.poll(inkUnderTab).toBe(true);
    await screenshot(page, 'jobs-cluster-1366');
    await page.getByRole('tab', { name: /作业与触发器/ }).click();
  });

  it('opens 任务看板, the board the API serves, listing the jobs', async () => {
    const { page } = browser;
    await page.getByTestId('job-open-dashboard').click();
    await page.waitForURL(/\/platform\/job\/dashboard$/);
    await expect.poll(() => page.title()).toMatch(/^任务看板 - /);
    const frame = page.getByTestId('iframe-page');
    await expect(frame.getAttribute('src')).resolves.toBe('/schedule');
    const board = page.frameLocator('[data-testid="iframe-page"]');
    await expect.poll(() => board.locator('body').textContent(), { timeout: 20_000 }).toContain('pushStats');
    await expect(board.locator('body').textContent()).resolves.toContain('logRetention');
    await expect(pageScrolls(page)).resolves.toBe(false);
    await screenshot(page, 'jobs-dashboard-1366');

    await page.setViewportSize({ width: 1920, height: 1080 });
    await expect.poll(() => pageScrolls(page)).toBe(false);
    await expect.poll(async () => (await frame.boundingBox())?.height ?? 0).toBeGreaterThan(700);
    await screenshot(page, 'jobs-dashboard-1920');

    await page.goBack();
    await page.waitForURL(/\/platform\/job$/);
    await jobRow(page, 'pushStats').waitFor();
    await page.mouse.move(1, 1000);
    await screenshot(page, 'jobs-list-1920');
  });
});
