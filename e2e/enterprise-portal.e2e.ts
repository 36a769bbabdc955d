import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import {
  type Browser,
  clickWhenOpened,
  DEFAULT_PASSWORD,
  NEW_PASSWORD,
  openBrowser,
  screenshot,
  settled,
} from './support.ts';

const FORM = '企业基本情况登记表';
const CATEGORY = '企业填报';
const ENTERPRISE = '上海黄浦数智科技有限公司';

/**
 * Issue 6 §5, the enterprise portal: 马晓东 (qyfiller, an enterprise user) signs in with the ordinary account form
 * (the forced password change first) and lands on /enterprise, his menu's 企业门户, also when he opens / or
 * /dashboard (issue 16 §4); he finds the seeded 企业基本情况登记表 through its category and
 * through the search, favourites it and sees it in the favourites row, opens its detail and goes to fill it.
 * The portal is also looked at in the no-header mode and at 1920×1080.
 */
describe('企业门户: an enterprise finds, favourites and fills a report', () => {
  let shuzhi: RunningShuzhi;
  let browser: Browser;
  let page: Page;
  let formId = '';

  beforeAll(async () => {
    shuzhi = await launchShuzhi({ sys_captcha: 'false' });
    browser = await openBrowser();
    page = browser.page;
  });
  afterAll(async () => {
    await browser?.close();
    await shuzhi?.stop();
  });

  const toast = (text: string) =>
    page.locator('.ant-message-notice').filter({ hasText: text }).first().waitFor();
  const settle = async () => {
    await page.mouse.move(1, 760);
    await settled(page);
  };

  it('signs in with the account form and lands on the portal: welcome, counts, categories', async () => {
    await page.goto(`${shuzhi.baseUrl}/login`);
    await page.getByTestId('login-account').fill('qyfiller');
    await page.getByTestId('login-password').fill(DEFAULT_PASSWORD);
    await page.getByTestId('login-submit').click();
    await clickWhenOpened(page.getByTestId('force-password-ok'));
    await page.waitForURL(/\/system\/userCenter\?isPassword=true/);
    await page.getByTestId('password-old').fill(DEFAULT_PASSWORD);
    await page.getByTestId('password-new').fill(NEW_PASSWORD);
    await page.getByTestId('password-confirm').fill(NEW_PASSWORD);
    await page.getByTestId('password-submit').click();
    // An enterprise account's home is its portal, whatever way it signed in (issue 16 §4).
    await page.waitForURL(/\/enterprise$/);

    const welcome = page.getByTestId('enterprise-welcome');
    await welcome.waitFor();
    await expect(welcome.textContent()).resolves.toContain(`您好，${ENTERPRISE}`);
    // The seed gives the enterprise one form; its latest record decides its state.
    const counts = await page.getByTestId('count-value').allTextContents();
    expect(counts.map(Number).reduce((a, b) => a + b, 0)).toBe(1);
    await page
      .getByTestId('enterprise-categories')
      .getByTestId('category-tile')
      .filter({ hasText: CATEGORY })
      .waitFor();
    await expect(page.getByTestId('enterprise-favourites').textContent()).resolves.toContain(
      '还没有收藏的表单',
    );
    await expect.poll(() => page.title()).toMatch(/^企业门户 - /);
    await settle();
    await screenshot(page, 'enterprise-home-1366');
  });

  it('has the portal in the menu and as the pinned tab; /, /dashboard and /login lead there', async () => {
    const menu = page.getByTestId('top-menu');
    await menu.getByText('企业门户', { exact: true }).waitFor();
    await menu.getByText('报表中心', { exact: true }).waitFor();
    await expect(menu.getByText('首页', { exact: true }).count()).resolves.toBe(0);
    await page.locator('[data-testid="tags-view-tab"][data-path="/enterprise"]').waitFor();
    await expect(page.locator('[data-testid="tags-view-tab"][data-path="/dashboard"]').count()).resolves.toBe(
      0,
    );

    await page.goto(`${shuzhi.baseUrl}/dashboard`);
    await page.waitForURL(/\/enterprise$/);
    await page.getByTestId('enterprise-welcome').waitFor();
    await page.goto(`${shuzhi.baseUrl}/`);
    await page.waitForURL(/\/enterprise$/);
    await page.getByTestId('enterprise-welcome').waitFor();
    await page.goto(`${shuzhi.baseUrl}/login`);
    await page.waitForURL(/\/enterprise$/);
  });

  it('finds the form by its category, from the home page and from 报表分类', async () => {
    await page
      .getByTestId('enterprise-categories')
      .getByTestId('category-tile')
      .filter({ hasText: CATEGORY })
      .click();
    await page.waitForURL(/\/enterprise\/reportList\?category=\d+$/);
    const row = page.locator('[data-testid="report-list-table"] tbody tr').filter({ hasText: FORM });
    await row.waitFor();
    await expect(row.getByTestId('report-state').textContent()).resolves.toMatch(
      /未填报|草稿|待审核|已退回|已通过/,
    );
    await expect(row.textContent()).resolves.toContain('2');

    await page.getByTestId('enterprise-nav').getByText('报表分类').click();
    await page.waitForURL(/\/enterprise\/reportClassify$/);
    const tile = page.getByTestId('classify-grid').getByTestId('category-tile').filter({ hasText: CATEGORY });
    await expect(tile.getByTestId('category-count').textContent()).resolves.toBe('1 张表单');
    await settle();
    await screenshot(page, 'enterprise-classify-1366');
    await tile.click();
    await page.waitForURL(/\/enterprise\/reportList\?category=\d+$/);
    await row.waitFor();
    await settle();
    await screenshot(page, 'enterprise-list-1366');
  });

  it('finds the form by search and favourites it; the favourites row shows it', async () => {
    await page.getByTestId('enterprise-nav').getByText('搜索表单').click();
    await page.waitForURL(/\/enterprise\/search$/);
    const input = page.getByTestId('search-input').locator('input');
    await input.fill('不存在的表单');
    await input.press('Enter');
    await page.getByText('没有符合条件的表单').waitFor();
    await input.fill('基本情况');
    await input.press('Enter');
    await expect.poll(() => page.getByTestId('search-count').textContent()).toBe('找到 1 张表单');
    const result = page.getByTestId('search-result').filter({ hasText: FORM });
    await result.getByTestId('collect-star').click();
    await toast('已收藏');
    await expect.poll(() => result.getByTestId('collect-star').getAttribute('data-collected')).toBe('1');
    await settle();
    await screenshot(page, 'enterprise-search-1366');

    await page.getByTestId('enterprise-nav').getByText('首页').click();
    await page.waitForURL(/\/enterprise$/);
    await page.getByTestId('favourite-card').filter({ hasText: FORM }).waitFor();
  });

  it('opens the detail from the favourites row and goes to fill the form', async () => {
    await page.getByTestId('favourite-card').filter({ hasText: FORM }).click();
    await page.waitForURL(/\/enterprise\/detail\?id=\d+$/);
    formId = new URL(page.url()).searchParams.get('id') ?? '';
    await expect(page.getByTestId('detail-title').textContent()).resolves.toBe(FORM);
    const detail = page.getByTestId('enterprise-detail');
    await expect(detail.textContent()).resolves.toContain('区市场监督管理局');
    await expect(page.getByTestId('detail-collect').getAttribute('data-collected')).resolves.toBe('1');
    await settle();
    await screenshot(page, 'enterprise-detail-1366');
    await page.getByTestId('detail-fill').click();
    await page.waitForURL(new RegExp(`/diyReport/index/formTable\\?id=${formId}`));
  });

  it('works without the header (openType=iframenoheader) and at 1920×1080', async () => {
    await page.goto(`${shuzhi.baseUrl}/enterprise/reportClassify?openType=iframenoheader`);
    await page.getByTestId('classify-grid').waitFor();
    await page
      .getByTestId('classify-grid')
      .getByTestId('category-tile')
      .filter({ hasText: CATEGORY })
      .click();
    await page.waitForURL(/\/enterprise\/reportList\?openType=iframenoheader&category=\d+$/);
    await page.locator('[data-testid="report-list-table"] tbody tr').filter({ hasText: FORM }).waitFor();
    await settle();
    await screenshot(page, 'enterprise-list-noheader-1366');

    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto(`${shuzhi.baseUrl}/enterprise`);
    await page.getByTestId('favourite-card').filter({ hasText: FORM }).waitFor();
    await settle();
    await screenshot(page, 'enterprise-home-1920');
    await page.goto(`${shuzhi.baseUrl}/enterprise/reportList`);
    await page.locator('[data-testid="report-list-table"] tbody tr').filter({ hasText: FORM }).waitFor();
    await settle();
    await screenshot(page, 'enterprise-list-1920');
    await page.goto(`${shuzhi.baseUrl}/enterprise/detail?id=${formId}`);
    await page.getByTestId('detail-title').waitFor();
    await settle();
    await screenshot(page, 'enterprise-detail-1920');
  });

  it('lands on the portal through the enterprise login (type 9) as well', async () => {
    // A fresh browser, last: a second sign-in may end the first session (单设备登录).
    const again = await openBrowser();
    try {
      await again.page.goto(`${shuzhi.baseUrl}/login?type=9`);
      await again.page.getByTestId('login-account').fill('qyfiller');
      await again.page.getByTestId('login-password').fill(NEW_PASSWORD);
      await again.page.getByTestId('login-submit').click();
      await again.page.waitForURL(/\/enterprise$/);
      await again.page.getByTestId('enterprise-welcome').waitFor();
    } finally {
      await again.close();
    }
  });
});
