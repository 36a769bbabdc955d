import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, baseUrl, firstSignIn, openBrowser, screenshot, settled } from './support.ts';

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

describe('the shell in English at 1366', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await openBrowser();
    await firstSignIn(browser.page, 'fgwleader');
    // Half past noon today in the browser's time zone (Shanghai), the band the Chinese greeting calls 中午;
    // the home page is loaded again under it.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());
    await browser.page.clock.setFixedTime(new Date(`${today}T12:30:00+08:00`));
    await browser.page.goto(`${baseUrl()}/dashboard`);
    await browser.page.getByTestId('language-switch').click();
    await browser.page.getByTestId('language-option-en').click();
    await browser.page.getByTestId('dashboard-greeting').getByText('Good', { exact: false }).waitFor();
  });
  afterAll(async () => {
    await browser.close();
  });

  it('greets as English speakers do, shows the whole system title, and writes English colons', async () => {
    const { page } = browser;
    await expect(page.getByTestId('dashboard-greeting').textContent()).resolves.toBe(
      'Good afternoon, 刘志强',
    );
    const title = page.getByTestId('layout-system-name');
    await expect(title.textContent()).resolves.toBe('Shuzhi Huangpu Reporting Platform');
    await settled(page);
    await expect(
      title.evaluate((el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight + 2),
    ).resolves.toBe(true);
    // "Account: fgwleader": the colon sits on the word, as in English, not spaced like a full-width one.
    const label = page.locator('.ant-descriptions-item-label', { hasText: 'Account' }).first();
    const colon = await label.evaluate((el) => {
      const after = getComputedStyle(el, '::after');
      return { content: after.content, before: after.marginLeft };
    });
    expect(colon).toEqual({ content: '":"', before: '0px' });
    await screenshot(page, 'dashboard-en-1366');
  });
});

/**
 * Issue 16 §5: the home page of a staff member lists the forms to file this period. 孙浩 (gridstaff) fills
 * 社区人口月报, whose current month holds his seeded draft: the card shows the form, the month, its due date and
 * 草稿, and its button opens the form's fill page. At 1366×768 the card fits without a horizontal scroll.
 */
describe('the home page’s forms to file this period at 1366', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await openBrowser();
    await firstSignIn(browser.page, 'gridstaff');
  });
  afterAll(async () => {
    await browser.close();
  });

  it('shows the form with its period, due date and the own draft, and opens its fill page', async () => {
    const { page } = browser;
    const card = page.getByTestId('my-filings');
    const row = card.getByTestId('my-filing').filter({ hasText: '社区人口月报' });
    await row.waitFor();
    await expect(row.getByTestId('my-filing-period').textContent()).resolves.toMatch(/^\d{4}年\d{1,2}月$/);
    await expect(row.getByTestId('my-filing-due').textContent()).resolves.toMatch(
      /^\d{4}-\d{2}-\d{2}(剩 \d+ 天|今天截止|已过 \d+ 天)$/,
    );
    await expect(row.getByTestId('diy-record-status').textContent()).resolves.toBe('草稿');
    await settled(page);
    await expect(
      card.evaluate((el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().right <= 1366),
    ).resolves.toBe(true);
    await screenshot(page, 'dashboard-filings-1366');
    await row.getByTestId('my-filing-open').click();
    await page.waitForURL(/\/diyReport\/index\/formTable\?id=\d+/);
    await expect.poll(() => page.title()).toMatch(/^社区人口月报 - /);
  });
});
