import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Browser,
  baseUrl,
  DEFAULT_PASSWORD,
  fillLogin,
  NEW_PASSWORD,
  openBrowser,
  openFromTopMenu,
  screenshot,
} from './support.ts';

describe('a district leader signs in for the first time', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser.close();
  });

  it('is sent from /dashboard to /login while signed out', async () => {
    const { page } = browser;
    await page.goto(`${baseUrl()}/dashboard`);
    await page.waitForURL(/\/login/);
    await expect(page.getByTestId('login-system-name').textContent()).resolves.toContain('黄浦数智报表平台');
    await expect(page.title()).resolves.toContain('黄浦数智报表平台');
    await screenshot(page, 'login-1366');
  });

  it('sees the catalogue message for a wrong password and stays on the login page', async () => {
    const { page } = browser;
    await fillLogin(page, 'hpleader', 'not-the-password');
    await page.getByText('密码不正确').first().waitFor();
    expect(page.url()).toContain('/login');
  });

  it('must change the default password, then lands on the dashboard', async () => {
    const { page } = browser;
    await fillLogin(page, 'hpleader', DEFAULT_PASSWORD);
    const dialog = page.locator('.ant-modal-confirm');
    await dialog.waitFor();
    await expect(dialog.textContent()).resolves.toContain('友情提示');
    await expect(dialog.textContent()).resolves.toContain('您的密码为初始密码，请立即修改密码?');
    expect(await dialog.locator('button').count()).toBe(1);
    await page.keyboard.press('Escape');
    await expect(dialog.isVisible()).resolves.toBe(true);
    await screenshot(page, 'forced-password-dialog');

    await page.getByTestId('force-password-ok').click();
    await page.waitForURL(/\/system\/userCenter\?isPassword=true/);
    await page.getByTestId('password-form').waitFor();
    await page.getByTestId('password-old').fill(DEFAULT_PASSWORD);
    await page.getByTestId('password-new').fill(NEW_PASSWORD);
    await page.getByTestId('password-confirm').fill(NEW_PASSWORD);
    await expect(page.getByTestId('password-strength').getAttribute('data-strength')).resolves.toBe('strong');
    await page.getByTestId('password-submit').click();
    await page.waitForURL(/\/dashboard$/);
    const greeting = await page.getByTestId('dashboard-greeting').textContent();
    expect(greeting).toContain('陈建国');
    await expect(page.title()).resolves.toMatch(/ - 黄浦数智报表平台$/);
    await screenshot(page, 'dashboard-1366');
  });

  it('keeps the session across a reload', async () => {
    const { page } = browser;
    await page.reload();
    await page.getByTestId('dashboard-greeting').waitFor();
    expect(page.url()).toMatch(/\/dashboard$/);
  });

  it('opens a menu page in a new tab of the tags view', async () => {
    const { page } = browser;
    const before = await page.getByTestId('tags-view-tab').count();
    await openFromTopMenu(page, '帮助', '关于', /\/about$/);
    await expect.poll(() => page.getByTestId('tags-view-tab').count()).toBe(before + 1);
    await expect(page.locator('[data-testid="tags-view-tab"][data-path="/about"]').count()).resolves.toBe(1);
    await expect(page.title()).resolves.toMatch(/^关于系统 - 黄浦数智报表平台$/);
  });

  it('switches the interface to English and back to Traditional Chinese', async () => {
    const { page } = browser;
    await page.getByTestId('language-switch').click();
    await page.getByTestId('language-option-en').click();
    await page.getByTestId('tags-view').getByText('Home').waitFor();
    await expect(page.title()).resolves.toContain('Shuzhi Huangpu Reporting Platform');
    await page.reload();
    await page.getByTestId('tags-view').getByText('Home').waitFor();
    await page.getByTestId('language-switch').click();
    await page.getByTestId('language-option-zh-tw').click();
    await page.getByTestId('tags-view').getByText('首頁').waitFor();
    await page.getByTestId('language-switch').click();
    await page.getByTestId('language-option-zh-cn').click();
    await page.getByTestId('tags-view').getByText('首页').waitFor();
  });

  it('changes the primary colour and keeps it across a reload', async () => {
    const { page } = browser;
    // antd 6 publishes its theme as CSS variables on the app root.
    const primaryOf = () =>
      page.evaluate(() => {
        const root = document.querySelector('.ant-app');
        return root
          ? getComputedStyle(root).getPropertyValue('--ant-color-primary').trim().toLowerCase()
          : '';
      });
    const before = await primaryOf();
    await page.getByTestId('settings-button').click();
    await page.getByTestId('settings-drawer').waitFor();
    await page.getByTestId('settings-primary-preset-f5222d').click();
    await expect.poll(primaryOf).not.toBe(before);
    const after = await primaryOf();
    expect(after).toBe('#f5222d');
    await page.keyboard.press('Escape');
    await page.reload();
    await page.getByTestId('layout-shell').waitFor();
    await expect.poll(primaryOf).toBe(after);
  });

  it('logs out, and the old session no longer opens the dashboard', async () => {
    const { page } = browser;
    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-menu-logout').click();
    await page.getByTestId('logout-confirm-ok').click();
    await page.waitForURL(/\/login/);
    await page.goto(`${baseUrl()}/dashboard`);
    await page.waitForURL(/\/login/);
  });
});
