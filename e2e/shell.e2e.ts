import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, baseUrl, firstSignIn, openBrowser, screenshot } from './support.ts';

describe('the shell on a large screen', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await openBrowser({ width: 1920, height: 1080 });
    await firstSignIn(browser.page, 'njdleader');
  });
  afterAll(async () => {
    await browser.close();
  });

  it('shows the home page with the user, org and profile', async () => {
    const { page } = browser;
    await expect(page.getByTestId('dashboard-greeting').textContent()).resolves.toContain('王海燕');
    await expect(page.getByTestId('dashboard-page').textContent()).resolves.toContain('南京东路街道');
    await expect(page.getByTestId('layout-footer').textContent()).resolves.toContain('021-63211234');
    await screenshot(page, 'dashboard-1920');
  });

  it('opens hash links of printed QR codes and older clients at the same page', async () => {
    const { page } = browser;
    await page.goto(`${baseUrl()}/#/about`);
    await page.waitForURL(/\/about$/);
    await page.locator('[data-testid="tags-view-tab"][data-path="/about"]').waitFor();
  });

  it('closes other tabs from the tab context menu but keeps the affixed home tab', async () => {
    const { page } = browser;
    await page.locator('[data-testid="tags-view-tab"][data-path="/about"]').click({ button: 'right' });
    await page.getByTestId('tags-menu-close-others').click();
    await expect(page.getByTestId('tags-view-tab').count()).resolves.toBe(2);
    await page.locator('[data-testid="tags-view-tab"][data-path="/about"]').click({ button: 'right' });
    await page.getByTestId('tags-menu-close-all').click();
    await page.waitForURL(/\/dashboard$/);
    await expect(page.getByTestId('tags-view-tab').count()).resolves.toBe(1);
  });

  it('switches to the classic side-menu layout', async () => {
    const { page } = browser;
    await page.getByTestId('settings-button').click();
    await page.getByTestId('settings-layout-classic').click();
    await page.getByTestId('side-menu').waitFor();
    await expect(page.getByTestId('layout-shell').getAttribute('data-layout')).resolves.toBe('classic');
    await page.keyboard.press('Escape');
    await screenshot(page, 'dashboard-classic-1920');
  });

  it('answers an unknown address with the not-found page', async () => {
    const { page } = browser;
    await page.goto(`${baseUrl()}/no/such/page`);
    await page.getByTestId('not-found-page').waitFor();
    await page.getByTestId('back-home').click();
    await page.waitForURL(/\/dashboard$/);
  });
});
