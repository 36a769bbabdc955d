import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import { type Browser, DEFAULT_PASSWORD, firstSignIn, openBrowser } from './support.ts';

/**
 * Its own server: watermark and copy-paste blocking switched on, and the self-only role stripped of every
 * menu, so its user has nothing to open.
 */
describe('security settings of the shell', () => {
  let shuzhi: RunningShuzhi;
  let browser: Browser;
  beforeAll(async () => {
    shuzhi = await launchShuzhi({ sys_captcha: 'false', sys_watermark: 'true', sys_paste_copy: 'true' }, [
      "delete from sys_role_menu where role_id = (select id from sys_role where code = 'sys_self')",
    ]);
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await shuzhi?.stop();
  });

  it('turns away a user without any menu and signs them out', async () => {
    const { page } = browser;
    await page.goto(`${shuzhi.baseUrl}/login`);
    await page.getByTestId('login-account').fill('scjgclerk');
    await page.getByTestId('login-password').fill(DEFAULT_PASSWORD);
    await page.getByTestId('login-submit').click();
    await page.getByText('抱歉，您没有登录权限').first().waitFor();
    expect(page.url()).toContain('/login');
    await page.goto(`${shuzhi.baseUrl}/dashboard`);
    await page.waitForURL(/\/login/);
  });

  it('draws the watermark over the pages of a signed-in user', async () => {
    const { page } = browser;
    await firstSignIn(page, 'gzlstaff', shuzhi.baseUrl);
    const marked = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>('div')).some(
        (el) => el.style.zIndex === '9999' && el.style.backgroundImage.startsWith('url("data:image'),
      ),
    );
    expect(marked).toBe(true);
  });

  it('blocks copy and paste and says so', async () => {
    const { page } = browser;
    const prevented = await page.evaluate(() => {
      const copy = new Event('copy', { bubbles: true, cancelable: true });
      const paste = new Event('paste', { bubbles: true, cancelable: true });
      document.body.dispatchEvent(copy);
      document.body.dispatchEvent(paste);
      return [copy.defaultPrevented, paste.defaultPrevented];
    });
    expect(prevented).toEqual([true, true]);
    await page.getByText('系统已禁止复制粘贴').first().waitFor();
  });
});
