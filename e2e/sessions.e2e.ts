import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import {
  type Browser,
  clickWhenOpened,
  fillLogin,
  firstSignIn,
  NEW_PASSWORD,
  openBrowser,
  openFromTopMenu,
  screenshot,
} from './support.ts';

const table = (browser: Browser) => browser.page.getByTestId('online-user-table');
const rowOf = (browser: Browser, account: string) =>
  table(browser).locator('tbody tr[data-row-key]', { hasText: account });

/** Its own server: the admin and a district leader sign in for the first time. */
describe('online users: an admin forces a user offline; the user locks and unlocks the screen', () => {
  let shuzhi: RunningShuzhi;
  let admin: Browser;
  let leader: Browser;
  beforeAll(async () => {
    shuzhi = await launchShuzhi({ sys_captcha: 'false' });
    admin = await openBrowser();
    leader = await openBrowser();
    await firstSignIn(admin.page, 'admin', shuzhi.baseUrl);
    await firstSignIn(leader.page, 'hpleader', shuzhi.baseUrl);
  });
  afterAll(async () => {
    await admin?.close();
    await leader?.close();
    await shuzhi?.stop();
  });

  it('lists the connected leader and forces them off: their browser is at /login within seconds', async () => {
    const { page } = admin;
    await openFromTopMenu(page, '系统管理', '在线用户', /\/system\/onlineUser$/);
    await expect.poll(() => page.title()).toMatch(/^在线用户 - /);
    // The leader's session, connected over realtime; the admin's own is marked and cannot be forced off.
    await expect.poll(() => rowOf(admin, 'hpleader').textContent(), { timeout: 10_000 }).toContain('在线');
    await expect.poll(() => rowOf(admin, 'admin').first().textContent()).toContain('当前会话');
    await expect(page.getByTestId('online-user-force-admin').first().isDisabled()).resolves.toBe(true);
    await screenshot(page, 'online-users-1366');

    await page.getByTestId('online-user-force-hpleader').first().click();
    await clickWhenOpened(page.getByTestId('online-user-force-ok'));
    const forcedAt = Date.now();
    await leader.page.waitForURL(/\/login/, { timeout: 5_000 });
    expect(Date.now() - forcedAt).toBeLessThan(5_000);
    await expect
      .poll(() => leader.page.locator('.ant-message').textContent())
      .toContain('您已被管理员强制下线');
    await screenshot(leader.page, 'forced-offline-login-1366');
    // The admin's list drops the session by itself (realtime refresh).
    await expect.poll(() => rowOf(admin, 'hpleader').count(), { timeout: 10_000 }).toBe(0);
  });

  it('shows the leader again, live, when they sign back in', async () => {
    await fillLogin(leader.page, 'hpleader', NEW_PASSWORD, shuzhi.baseUrl);
    await leader.page.waitForURL(/\/dashboard$/);
    await expect.poll(() => rowOf(admin, 'hpleader').textContent(), { timeout: 10_000 }).toContain('在线');
  });

  it('locks the screen from the user menu, stays locked on reload, unlocks with the password', async () => {
    const { page } = leader;
    // The automatic lock is set in the settings drawer (off by default, 30 minutes).
    await page.getByTestId('settings-button').click();
    await page.getByTestId('settings-lock-screen').click();
    await expect(page.getByTestId('settings-lock-minutes').inputValue()).resolves.toBe('30');
    await screenshot(page, 'lock-screen-settings-1366');
    await page.keyboard.press('Escape');
    await page.getByTestId('settings-drawer').waitFor({ state: 'hidden' });

    await page.getByTestId('user-menu').click();
    await clickWhenOpened(page.getByTestId('user-menu-lock'));
    const lock = page.getByTestId('lock-screen');
    await lock.waitFor();
    await expect(page.getByTestId('lock-screen-name').textContent()).resolves.toBeTruthy();
    await screenshot(page, 'lock-screen-1366');

    await page.reload();
    await lock.waitFor();

    await page.getByTestId('lock-screen-password').fill('not-my-password');
    await page.getByTestId('lock-screen-unlock').click();
    await page.getByTestId('lock-screen-error').waitFor();
    await expect(page.getByTestId('lock-screen-error').textContent()).resolves.toContain('密码不正确');
    await screenshot(page, 'lock-screen-wrong-1366');

    await page.getByTestId('lock-screen-password').fill(NEW_PASSWORD);
    await page.getByTestId('lock-screen-unlock').click();
    await lock.waitFor({ state: 'hidden' });
    await page.getByTestId('dashboard-greeting').waitFor();
    await screenshot(page, 'lock-screen-unlocked-1366');
  });
});
