import { createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import {
  type Browser,
  firstSignIn,
  NEW_PASSWORD,
  openBrowser,
  openFromTopMenu,
  screenshot,
} from './support.ts';

type Envelope<T> = { code: number | string; result: T | null; message: string };

/** A signed GET per REFERENCE "Open access", the way an integrating system makes it. */
async function signedGet<T>(base: string, path: string, accessKey: string, secret: string) {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = randomBytes(16).toString('hex');
  const sign = createHmac('sha256', secret)
    .update(`GET&${path}&${accessKey}&${timestamp}&${nonce}`)
    .digest('base64');
  const response = await fetch(`${base}${path}`, { headers: { accessKey, timestamp, nonce, sign } });
  return (await response.json()) as Envelope<T>;
}

/** Its own server: the admin's first sign-in changes the password, and a key is created. */
describe('an admin creates an access key and an integration signs in with it', () => {
  let shuzhi: RunningShuzhi;
  let browser: Browser;
  beforeAll(async () => {
    shuzhi = await launchShuzhi({ sys_captcha: 'false' });
    browser = await openBrowser();
    await firstSignIn(browser.page, 'admin', shuzhi.baseUrl);
  });
  afterAll(async () => {
    await browser?.close();
    await shuzhi?.stop();
  });

  it('creates a key bound to a user, sees the secret once, and a signed fetch gets a token', async () => {
    const { page } = browser;
    await openFromTopMenu(page, '系统管理', '开放接口', /\/system\/openAccess$/);
    await expect.poll(() => page.title()).toMatch(/^开放接口 - /);
    await page.getByTestId('open-access-table').waitFor();

    await page.getByTestId('open-access-add').click();
    // The modal's test id sits on its (zero-sized) root: the dialog is found by role.
    const dialog = page.getByRole('dialog', { name: '新增开放接口' });
    await dialog.waitFor();
    const picker = dialog.getByTestId('open-access-field-user');
    await picker.click();
    await picker.locator('input').fill('fgwstaff');
    const option = page.locator('.ant-select-item-option', { hasText: 'fgwstaff' }).first();
    await option.waitFor({ timeout: 10_000 });
    await option.click();
    await dialog.getByTestId('open-access-field-remark').fill('报表数据同步');
    await dialog.getByTestId('open-access-form-submit').click();

    const secretModal = page.getByRole('dialog', { name: '请保存密钥' });
    await secretModal.getByTestId('open-access-new-secret').waitFor();
    const accessKey = ((await secretModal.getByTestId('open-access-new-key').textContent()) ?? '').trim();
    const secret = ((await secretModal.getByTestId('open-access-new-secret').textContent()) ?? '').trim();
    expect(accessKey).toMatch(/^[\w-]{20,}$/);
    expect(secret).toMatch(/^[\w-]{43,}$/);
    await expect(secretModal.textContent()).resolves.toContain('只显示这一次');
    // The add form closes underneath; the screenshot waits for both animations.
    await dialog.waitFor({ state: 'hidden' });
    await screenshot(page, 'open-access-secret-1366');
    await secretModal.getByTestId('open-access-secret-done').click();
    await secretModal.waitFor({ state: 'hidden' });

    // The list shows the key and its user, never the secret.
    const table = page.getByTestId('open-access-table');
    await expect.poll(() => table.textContent(), { timeout: 10_000 }).toContain(accessKey);
    await expect(table.textContent()).resolves.toContain('张伟（fgwstaff）');
    await expect(page.content()).resolves.not.toContain(secret);
    await screenshot(page, 'open-access-list-1366');

    // An integrating system, with nothing but the key and the secret.
    const token = await signedGet<{ accessToken: string }>(
      shuzhi.baseUrl,
      '/api/auth/token',
      accessKey,
      secret,
    );
    expect(token.code).toBe(200);
    const info = await fetch(`${shuzhi.baseUrl}/api/sysAuth/userInfo`, {
      headers: { authorization: `Bearer ${token.result?.accessToken}` },
    });
    const user = (await info.json()) as Envelope<{ account: string }>;
    expect(user.result?.account).toBe('fgwstaff');

    // A replay of the same kind of call with a wrong secret is refused.
    const refused = await signedGet(shuzhi.baseUrl, '/api/auth/token', accessKey, 'not-the-secret');
    expect(refused.code).toBe('D1021');
  });

  it('opens the API docs only after an administrator signs in to the swagger gate', async () => {
    const { page } = browser;
    await page.goto(`${shuzhi.baseUrl}/swagger`);
    await page.locator('form[action="/swagger/submitUrl"]').waitFor();
    await expect(page.textContent('h1')).resolves.toBe('接口文档登录');
    await screenshot(page, 'swagger-gate-form-1366');
    const json = await fetch(`${shuzhi.baseUrl}/swagger/json`);
    expect(json.status).toBe(401);

    await page.fill('#UserName', 'admin');
    await page.fill('#Password', 'wrong-password');
    await page.click('button[type=submit]');
    await page.locator('[role=alert]').waitFor();
    await expect(page.textContent('[role=alert]')).resolves.toContain('密码不正确');

    await page.fill('#Password', NEW_PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL(/\/swagger\/$/);
    await page.locator('.swagger-ui .info').waitFor({ timeout: 15_000 });
    await screenshot(page, 'swagger-docs-1366');
  });
});
