import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import { type Browser, firstSignIn, openBrowser, openFromTopMenu, screenshot } from './support.ts';

const rows = (browser: Browser) => browser.page.getByTestId('region-table').locator('tbody tr[data-row-key]');

/** Its own server: it adds a local region. */
describe('the super admin browses the regions, adds a local community and finds it', () => {
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

  it("opens 行政区划 at the profile's district, drills into a street and adds a community", async () => {
    const { page } = browser;
    await openFromTopMenu(page, '平台管理', '行政区划', /\/platform\/region$/);
    await expect.poll(() => page.title()).toMatch(/^行政区划 - /);
    // The tree opens down to the district; the right side lists its streets.
    await expect.poll(() => page.getByTestId('region-selected').textContent()).toContain('县级');
    await expect.poll(() => rows(browser).count()).toBeGreaterThan(3);
    await screenshot(page, 'regions-district-1366');

    const street = rows(browser).first();
    const streetCode = (await street.getAttribute('data-row-key')) ?? '';
    expect(streetCode).toMatch(/^\d{9}$/);
    const streetName = ((await street.locator('td').first().textContent()) ?? '').trim();
    await street.locator('td').first().click();
    await expect.poll(() => page.getByTestId('region-selected').textContent()).toContain(streetName);
    await expect.poll(() => page.getByTestId('region-selected').textContent()).toContain('乡级');
    // Its communities (villages of the profile's province come with the first start).
    await expect.poll(() => rows(browser).count()).toBeGreaterThan(0);

    await page.getByTestId('region-add').click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByTestId('region-field-name').fill('新天地试点社区');
    await dialog.getByTestId('region-field-code').fill(`${streetCode}901`);
    await dialog.getByTestId('region-form-submit').click();
    await dialog.waitFor({ state: 'hidden' });
    await expect
      .poll(() => page.getByTestId('region-table').textContent(), { timeout: 10_000 })
      .toContain('新天地试点社区');
    await expect(page.getByTestId('region-local-tag').count()).resolves.toBeGreaterThan(0);
    await screenshot(page, 'regions-local-added-1366');
  });

  it('finds the new community through the cascader search, with its full path', async () => {
    const { page } = browser;
    const cascader = page.getByTestId('region-locate');
    await cascader.click();
    await cascader.locator('input').fill('新天地');
    const option = page.locator('.ant-cascader-menu-item', { hasText: '新天地试点社区' }).first();
    await option.waitFor({ timeout: 10_000 });
    await expect(option.textContent()).resolves.toContain('上海市');
    await screenshot(page, 'regions-search-1366');
    await option.click();
    await expect.poll(() => page.getByTestId('region-selected').textContent()).toContain('新天地试点社区');
    await expect.poll(() => page.getByTestId('region-selected').textContent()).toContain('村级');
  });
});
