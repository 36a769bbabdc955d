import type { CockpitLink } from '@shuzhi/contracts/cockpit';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import { apiCall, type Browser, firstSignIn, openBrowser, screenshot, tokenOf } from './support.ts';

const POP = '社区人口月报';
const PANELS = ['progress', 'onTime', 'topForms', 'latest', 'alerts', 'figures', 'map', 'weather'];

/** The page fits its window: nothing scrolls, and the design's box lies inside the window. */
async function fitsWindow(page: Page) {
  return page.evaluate(() => {
    const stage = document.querySelector('[data-testid="cockpit"]')?.getBoundingClientRect();
    const doc = document.documentElement;
    return {
      scrolls: doc.scrollWidth > window.innerWidth || doc.scrollHeight > window.innerHeight,
      inside:
        !!stage &&
        stage.left >= -0.5 &&
        stage.top >= -0.5 &&
        stage.right <= window.innerWidth + 0.5 &&
        stage.bottom <= window.innerHeight + 0.5,
    };
  });
}

/**
 * Moves the page's (installed) clock on by one refresh and waits for the screen's data to come back. The next
 * refresh is timed from the last answer, which comes back on the real clock: when the fake one ran past before
 * it was set, it moves on a second at a time until the refresh has gone out and come back.
 */
async function refreshOnce(page: Page, seconds: number) {
  let answered = false;
  const answer = page
    .waitForResponse((r) => r.url().endsWith('/api/cockpit/data'), { timeout: 20_000 })
    .then(() => {
      answered = true;
    });
  await page.clock.runFor(seconds * 1000);
  await expect
    .poll(
      async () => {
        if (!answered) await page.clock.runFor(1000);
        return answered;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  await answer;
}

/**
 * Issue 20 §4, the cockpit: the admin chooses its form and refresh; `/jsc` at 1920×1080 and 1366×768 shows the
 * panels without scroll bars; a filler submits a record and the screen's figures change at its next refresh;
 * a signed link opens it in a browser that never signed in and a revoked link is refused; 24 simulated hours of
 * refreshes leave the heap within 50 MB of where it started.
 */
describe('the cockpit /jsc', () => {
  let shuzhi: RunningShuzhi;
  let admin: Browser;
  let token = '';
  let formId = 0;

  beforeAll(async () => {
    shuzhi = await launchShuzhi({ sys_captcha: 'false' });
    admin = await openBrowser({ width: 1920, height: 1080 });
    await firstSignIn(admin.page, 'admin', shuzhi.baseUrl);
    token = await tokenOf(admin.page);
    const forms = await apiCall<{ id: number; title: string }[]>(
      shuzhi.baseUrl,
      token,
      'GET',
      '/api/dashboard/form/list',
    );
    formId = forms.find((f) => f.title === POP)?.id ?? 0;
    await apiCall(shuzhi.baseUrl, token, 'POST', '/api/cockpit/config', {
      panels: PANELS,
      formIds: [formId],
      scaleMode: 'fit',
      refreshSeconds: 30,
    });
  });
  afterAll(async () => {
    await admin?.close();
    await shuzhi?.stop();
  });

  it('shows the panels at 1920×1080 and its figures change after a filler submits', async () => {
    const { page } = admin;
    // The screen's refresh timer runs on the page's clock, which the tests move on instead of waiting it out.
    await page.clock.install();
    await page.goto(`${shuzhi.baseUrl}/jsc`);
    const progress = page.getByTestId('cockpit-progress');
    await progress.waitFor();
    await page.getByTestId('cockpit-map-chart').locator('canvas').waitFor();
    await expect
      .poll(() => page.getByTestId('cockpit-weather-none').textContent())
      .toContain('未配置天气服务');
    expect(await fitsWindow(page)).toEqual({ scrolls: false, inside: true });
    const before = (await progress.textContent()) ?? '';
    expect(before).toContain('本期报送 0');

    const filler = await openBrowser();
    try {
      await firstSignIn(filler.page, 'gzlstaff', shuzhi.baseUrl);
      const fillerToken = await tokenOf(filler.page);
      const me = await apiCall<{ orgId: number }>(
        shuzhi.baseUrl,
        fillerToken,
        'GET',
        '/api/sysAuth/userInfo',
      );
      const month = new Date().toLocaleDateString('sv-SE', { timeZone: 'Asia/Shanghai' }).slice(0, 7);
      await apiCall(shuzhi.baseUrl, fillerToken, 'POST', `/api/diyData/${formId}/add`, {
        values: { month, unit: me.orgId, filler: '王芳', huji: 1200, liudong: 300, elderly: 400 },
        submit: true,
      });
    } finally {
      await filler.close();
    }
    // The screen asks again by itself at its 30 s refresh.
    await refreshOnce(page, 30);
    await expect.poll(() => progress.textContent()).toContain('本期报送 1');
    await expect.poll(() => page.getByTestId('cockpit-latest').textContent()).toContain(POP);
    await screenshot(page, 'cockpit-1920');
  });

  it('letterboxes the same design at 1366×768 and scales it up at 3840×2160', async () => {
    await admin.page.setViewportSize({ width: 1366, height: 768 });
    await admin.page.getByTestId('cockpit-progress').waitFor();
    // The stage is scaled on the window's resize event, on the next render.
    await expect.poll(() => fitsWindow(admin.page)).toEqual({ scrolls: false, inside: true });
    await screenshot(admin.page, 'cockpit-1366');
    await admin.page.setViewportSize({ width: 3840, height: 2160 });
    await admin.page.getByTestId('cockpit-progress').waitFor();
    await expect.poll(() => fitsWindow(admin.page)).toEqual({ scrolls: false, inside: true });
    await screenshot(admin.page, 'cockpit-3840');
    await admin.page.setViewportSize({ width: 1920, height: 1080 });
  });

  it('opens through a signed link without a login, and refuses it once revoked', async () => {
    const link = await apiCall<CockpitLink>(shuzhi.baseUrl, token, 'POST', '/api/cockpit/link', { days: 1 });
    const stranger = await openBrowser();
    try {
      const { page } = stranger;
      await page.goto(`${shuzhi.baseUrl}${link.url}`);
      await expect.poll(() => page.getByTestId('cockpit-progress').textContent()).toContain('本期报送 1');
      expect(new URL(page.url()).pathname).toBe('/jsc');
      expect(
        await page.evaluate(() => Object.keys(window.localStorage).some((k) => k.endsWith('access-token'))),
      ).toBe(false);
      await screenshot(page, 'cockpit-link-1366');
      await apiCall(shuzhi.baseUrl, token, 'POST', '/api/cockpit/link/revoke', { id: link.id });
      await page.reload();
      await expect.poll(() => page.getByTestId('cockpit-ending').textContent()).toContain('驾驶舱链接已撤销');
    } finally {
      await stranger.close();
    }
  });

  it('runs 24 simulated hours of refreshes without growing the heap by 50 MB', async () => {
    const refresh = 300;
    await apiCall(shuzhi.baseUrl, token, 'POST', '/api/cockpit/config', {
      panels: PANELS,
      formIds: [formId],
      scaleMode: 'fit',
      refreshSeconds: refresh,
    });
    const { context, page } = admin;
    await page.goto(`${shuzhi.baseUrl}/jsc`);
    await page.getByTestId('cockpit-map-chart').locator('canvas').waitFor();
    const cdp = await context.newCDPSession(page);
    const heap = async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      return (await cdp.send('Runtime.getHeapUsage')).usedSize;
    };
    const start = await heap();
    const rounds = (24 * 3600) / refresh;
    for (let i = 0; i < rounds; i += 1) await refreshOnce(page, refresh);
    await page.getByTestId('cockpit-progress').waitFor();
    const growth = (await heap()) - start;
    console.log(
      `cockpit heap: ${(start / 1e6).toFixed(1)} MB, +${(growth / 1e6).toFixed(2)} MB after ${rounds} refreshes`,
    );
    expect(growth).toBeLessThan(50 * 1024 * 1024);
    await cdp.detach();
  });
});
