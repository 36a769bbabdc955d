import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import { firstSignIn, NEW_PASSWORD, openBrowser, screenshot } from './support.ts';

const ADMIN_PHONE = '13816520071';

/**
 * Its own server, started with the `http` SMS sender pointed at a fake gateway in this process (the test
 * reads the codes there). The admin first changes the default password, so later sign-ins land on the
 * dashboard instead of the forced password change.
 */
describe('mobile and scan sign-in', () => {
  let shuzhi: RunningShuzhi;
  let gateway: Server;
  const codes: { phone: string; code: string }[] = [];

  beforeAll(async () => {
    gateway = createServer((req, res) => {
      let data = '';
      req.on('data', (chunk) => {
        data += chunk;
      });
      req.on('end', () => {
        const json = JSON.parse(data) as Record<string, string>;
        if (req.url === '/sms') {
          codes.push(json as { phone: string; code: string });
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
          return;
        }
        // The identity provider of automatic login: two known credentials, everything else refused.
        const answer =
          json.code === 'acc-admin' ? { account: 'admin' } : json.code === 'ent-1' ? { usi: json.usi } : null;
        res
          .writeHead(answer ? 200 : 401, { 'content-type': 'application/json' })
          .end(JSON.stringify(answer ?? {}));
      });
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    const fakeUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
    const env: Record<string, string> = {
      SMS_PROVIDER: 'http',
      SMS_HTTP_URL: `${fakeUrl}/sms`,
      AUTO_LOGIN_PROVIDER_URL: `${fakeUrl}/idp/{type}`,
    };
    const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
    Object.assign(process.env, env);
    try {
      // The enterprise user has changed the default password already, so it lands on its portal at once.
      shuzhi = await launchShuzhi({ sys_captcha: 'false' }, [
        "update sys_user set is_def_pwd = 0 where account = 'qyfiller'",
      ]);
    } finally {
      // The child took its environment at spawn; nothing else in this process should see these.
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
    const first = await openBrowser();
    try {
      await firstSignIn(first.page, 'admin', shuzhi.baseUrl);
    } finally {
      await first.close();
    }
  });
  afterAll(async () => {
    await shuzhi?.stop();
    gateway?.closeAllConnections();
    await new Promise((resolve) => gateway?.close(resolve));
  });

  it('signs in with a mobile number and the SMS code', async () => {
    const browser = await openBrowser();
    try {
      const { page } = browser;
      await page.goto(`${shuzhi.baseUrl}/login`);
      await page.getByRole('tab', { name: '手机号登录' }).click();
      await page.getByTestId('phone-number').fill('1381652');
      await page.getByTestId('phone-send-code').click();
      await expect.poll(() => page.getByText('请输入正确的手机号').count()).toBe(1);

      await page.getByTestId('phone-number').fill(ADMIN_PHONE);
      await page.getByTestId('phone-send-code').click();
      await expect.poll(() => codes.filter((c) => c.phone === ADMIN_PHONE).length).toBe(1);
      await expect.poll(() => page.getByTestId('phone-send-code').textContent()).toMatch(/\d+秒后重发/);
      await expect(page.getByTestId('phone-send-code').isDisabled()).resolves.toBe(true);
      const code = codes.at(-1)?.code ?? '';
      expect(code).toMatch(/^\d{6}$/);
      await page.getByTestId('phone-code').fill(code);
      await screenshot(page, 'login-phone-1366');
      await page.getByTestId('phone-submit').click();
      await page.waitForURL(/\/dashboard$/);
      await page.getByTestId('dashboard-greeting').waitFor();
    } finally {
      await browser.close();
    }
  });

  it('signs in by scan: a phone that signs in first confirms, the desktop lands on the dashboard', async () => {
    const desktop = await openBrowser();
    const phone = await openBrowser();
    try {
      await desktop.page.goto(`${shuzhi.baseUrl}/login`);
      await desktop.page.getByRole('tab', { name: '扫码登录' }).click();
      const qr = desktop.page.getByTestId('scan-qrcode');
      await expect.poll(() => qr.getAttribute('data-url')).toMatch(/\/scanLogin\?id=/);
      const url = (await qr.getAttribute('data-url')) ?? '';
      expect(url.startsWith(shuzhi.baseUrl)).toBe(true);
      await screenshot(desktop.page, 'login-scan-waiting-1366');

      // The phone is not signed in: /login, then back to the scan page.
      await phone.page.goto(url);
      await phone.page.waitForURL(/\/login\?redirect=/);
      await phone.page.getByTestId('login-account').fill('admin');
      await phone.page.getByTestId('login-password').fill(NEW_PASSWORD);
      await phone.page.getByTestId('login-submit').click();
      await phone.page.waitForURL(/\/scanLogin\?id=/);
      await expect
        .poll(() => phone.page.getByTestId('scan-confirm-page').getAttribute('data-phase'))
        .toBe('ask');
      await expect(phone.page.getByTestId('scan-confirm-page').textContent()).resolves.toContain(
        '系统管理员',
      );
      await screenshot(phone.page, 'scan-confirm-phone-1366');

      // The desktop shows who scanned.
      await expect
        .poll(() => desktop.page.getByTestId('scan-panel').textContent(), { timeout: 10_000 })
        .toContain('系统管理员 已扫码');
      await screenshot(desktop.page, 'login-scan-scanned-1366');

      await phone.page.getByTestId('scan-confirm-ok').click();
      await expect
        .poll(() => phone.page.getByTestId('scan-confirm-page').getAttribute('data-phase'))
        .toBe('confirmed');
      await screenshot(phone.page, 'scan-confirmed-phone-1366');
      await desktop.page.waitForURL(/\/dashboard$/, { timeout: 15_000 });
      await desktop.page.getByTestId('dashboard-greeting').waitFor();
      await screenshot(desktop.page, 'login-scan-dashboard-1366');

      // The ticket is spent: opening it again says so.
      await phone.page.goto(url);
      await expect
        .poll(() => phone.page.getByTestId('scan-confirm-page').getAttribute('data-phase'))
        .toBe('expired');
    } finally {
      await phone.close();
      await desktop.close();
    }
  });

  it('signs in automatically by URL parameter, and falls back to /login when refused', async () => {
    const browser = await openBrowser();
    try {
      const { page } = browser;
      await page.goto(`${shuzhi.baseUrl}/dashboard?code=acc-admin`);
      await page.waitForURL(/\/dashboard$/);
      await page.getByTestId('dashboard-greeting').waitFor();

      // Type 9 with the enterprise's code: another user, an enterprise account, on its portal (issue 16 §4).
      await page.goto(`${shuzhi.baseUrl}/login?code=ent-1&type=9&usi=91310101MA1FP7K316`);
      await page.waitForURL(/\/enterprise$/);
      await expect.poll(() => page.evaluate(() => document.body.textContent ?? '')).toContain('马晓东');
      await screenshot(page, 'auto-login-enterprise-1366');
      // Reopening /login in this session goes back to the enterprise portal, not the dashboard (SPEC §2).
      await page.goto(`${shuzhi.baseUrl}/login`);
      await page.waitForURL(/\/enterprise$/);

      await page.goto(`${shuzhi.baseUrl}/dashboard?code=refused`);
      await page.waitForURL(/\/login$/);
      await page.getByText('自动登录失败，请使用账号登录').waitFor();
      await page.getByTestId('login-form').waitFor();
      await screenshot(page, 'auto-login-refused-1366');
    } finally {
      await browser.close();
    }
  });
});
