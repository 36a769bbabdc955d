import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import { type Browser, fillLogin, firstSignIn, NEW_PASSWORD, openBrowser, screenshot } from './support.ts';

/** A dialog zooms in: act on its contents only once they stopped moving (a busy machine animates slowly). */
async function stableBox(locator: Locator) {
  let box = await locator.boundingBox();
  for (let i = 0; i < 20; i++) {
    await new Promise((resolve) => setTimeout(resolve, 150));
    const next = await locator.boundingBox();
    if (box && next && next.x === box.x && next.y === box.y && next.width === box.width) return next;
    box = next;
  }
  if (!box) throw new Error('not visible');
  return box;
}

const OP_PASSWORD = 'Op#Huangpu26';
const CHANGED_PASSWORD = 'Huangpu#2027y';

/** Issue 3 §4, with its own server: it changes the admin's avatar, signature and passwords. */
describe('the user centre: avatar with crop, signature, operation password, password change', () => {
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

  it('uploads a picture, crops it, and the header shows the new avatar', async () => {
    const { page } = browser;
    await page.goto(`${shuzhi.baseUrl}/system/userCenter`);
    await page.getByTestId('profile-form').waitFor();
    await screenshot(page, 'user-center-profile-1366');

    // A 640×360 picture made by the browser itself, so the crop has something to cut.
    const dataUrl = await page.evaluate(() => {
      const canvas = document.createElement('canvas');
      canvas.width = 640;
      canvas.height = 360;
      const context = canvas.getContext('2d') as CanvasRenderingContext2D;
      const gradient = context.createLinearGradient(0, 0, 640, 360);
      gradient.addColorStop(0, '#1677ff');
      gradient.addColorStop(1, '#52c41a');
      context.fillStyle = gradient;
      context.fillRect(0, 0, 640, 360);
      context.fillStyle = '#fff';
      context.font = 'bold 120px sans-serif';
      context.fillText('黄浦', 200, 230);
      return canvas.toDataURL('image/png');
    });
    const buffer = Buffer.from(dataUrl.split(',')[1], 'base64');
    await page
      .getByTestId('user-profile-card')
      .locator('input[type=file]')
      .setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer });

    const area = page.getByTestId('avatar-crop-area');
    await area.waitFor();
    await expect.poll(() => area.locator('img').count()).toBeGreaterThan(1);
    // Zoom in with the wheel and drag the picture a little.
    await area.hover();
    await page.mouse.wheel(0, -300);
    const handle = page.getByRole('dialog').getByRole('slider');
    await expect.poll(async () => Number(await handle.getAttribute('aria-valuenow'))).toBeGreaterThan(1);
    const box = await stableBox(area);
    await page.mouse.move(box.x + 140, box.y + 140);
    await page.mouse.down();
    await page.mouse.move(box.x + 100, box.y + 120, { steps: 5 });
    await page.mouse.up();
    await screenshot(page, 'user-center-crop-1366');
    await page.getByTestId('avatar-crop-ok').click();
    await area.waitFor({ state: 'hidden' });

    const header = page.getByTestId('header-avatar').locator('img');
    await expect.poll(() => header.getAttribute('src'), { timeout: 10_000 }).toMatch(/^blob:/);
    // The stored avatar is the 256×256 crop.
    const size = await header.evaluate((img: HTMLImageElement) =>
      img.complete ? `${img.naturalWidth}x${img.naturalHeight}` : '',
    );
    expect(size).toBe('256x256');
    await expect
      .poll(() => page.getByTestId('user-center-avatar').locator('img').getAttribute('src'))
      .toMatch(/^blob:/);
    await screenshot(page, 'user-center-avatar-done-1366');
  });

  it('writes a signature on the pad and saves the profile', async () => {
    const { page } = browser;
    await page.getByTestId('signature-draw').click();
    const pad = page.getByTestId('signature-pad');
    await pad.waitFor();
    const box = await stableBox(pad);
    await page.mouse.move(box.x + 40, box.y + 100);
    await page.mouse.down();
    for (let i = 1; i <= 12; i++)
      await page.mouse.move(box.x + 40 + i * 25, box.y + 100 + (i % 2 ? -40 : 30));
    await page.mouse.up();
    await page.getByTestId('signature-pad-ok').click();
    await page.getByTestId('signature-image').waitFor({ timeout: 10_000 });

    await page.getByTestId('profile-phone').fill('1391234');
    await page.getByTestId('profile-submit').click();
    await expect.poll(() => page.getByTestId('profile-form').textContent()).toContain('请输入正确的手机号码');
    await page.getByTestId('profile-phone').fill('13912345678');
    await page.getByTestId('profile-nickName').fill('黄浦管理员');
    await page.getByTestId('profile-submit').click();
    await expect.poll(() => page.getByTestId('user-profile-card').textContent()).toContain('黄浦管理员');
    await screenshot(page, 'user-center-signature-1366');
  });

  it('sets an operation password, and the standalone menu page shows it set', async () => {
    const { page } = browser;
    await page.getByTestId('user-center-tab-op-password').click();
    await expect.poll(() => page.url()).toContain('tab=opPassword');
    await expect.poll(() => page.getByTestId('op-password-status').getAttribute('data-set')).toBe('false');
    await page.getByTestId('op-login-password').fill(NEW_PASSWORD);
    await page.getByTestId('op-new-password').fill(OP_PASSWORD);
    await page.getByTestId('op-confirm-password').fill(OP_PASSWORD);
    await screenshot(page, 'user-center-op-password-1366');
    await page.getByTestId('op-password-submit').click();
    await expect.poll(() => page.getByTestId('op-password-status').getAttribute('data-set')).toBe('true');

    await page.goto(`${shuzhi.baseUrl}/system/user/opPassword`);
    await page.getByTestId('op-password-page').waitFor();
    await expect.poll(() => page.getByTestId('op-password-status').getAttribute('data-set')).toBe('true');
    await screenshot(page, 'op-password-page-1366');
  });

  it('changes the password; the new one signs in', async () => {
    const { page } = browser;
    await page.goto(`${shuzhi.baseUrl}/system/userCenter?isPassword=true`);
    await page.getByTestId('password-form').waitFor();
    await page.getByTestId('password-old').fill(NEW_PASSWORD);
    await page.getByTestId('password-new').fill(CHANGED_PASSWORD);
    await expect
      .poll(() => page.getByTestId('password-strength').getAttribute('data-strength'))
      .toBe('strong');
    await page.getByTestId('password-confirm').fill(CHANGED_PASSWORD);
    await page.getByTestId('password-submit').click();
    await page.waitForURL(/\/dashboard$/);

    await page.context().clearCookies();
    await page.evaluate(() => window.localStorage.clear());
    await fillLogin(page, 'admin', CHANGED_PASSWORD, shuzhi.baseUrl);
    await page.waitForURL(/\/dashboard$/);
    // The avatar survives the new session.
    await expect
      .poll(() => page.getByTestId('header-avatar').locator('img').getAttribute('src'), { timeout: 10_000 })
      .toMatch(/^blob:/);
  });
});
