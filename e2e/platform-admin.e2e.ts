import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import { type Browser, firstSignIn, openBrowser, openFromTopMenu, screenshot } from './support.ts';

/** Opens a page of the 平台管理 directory from the top menu. */
const openPlatformMenu = (page: Page, title: string, url: RegExp) =>
  openFromTopMenu(page, '平台管理', title, url);

/** antd's Watermark draws its mark as a background image layer at the configured z-index. */
function watermarkLayers(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      Array.from(document.querySelectorAll<HTMLElement>('div')).filter(
        (el) => el.style.backgroundImage.startsWith('url(') && el.style.zIndex === '9999',
      ).length,
  );
}

/**
 * Its own server: this flow changes the system title, the footer and the watermark for everybody, which the
 * other E2E files (sharing one server) assert on.
 */
describe('the super admin runs config, system info and dictionaries', () => {
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

  it('finds sys_watermark on 参数配置, turns it on and sees the watermark after a reload', async () => {
    const { page } = browser;
    expect(await watermarkLayers(page)).toBe(0);
    await openPlatformMenu(page, '参数配置', /\/platform\/config$/);
    await page.getByTestId('config-table').locator('tbody tr[data-row-key]').first().waitFor();
    await expect(page.title()).resolves.toMatch(/^参数配置 - /);

    await page.getByTestId('config-search-code').fill('sys_watermark');
    await page.getByTestId('config-search-code').press('Enter');
    await expect.poll(() => page.getByTestId('config-total').textContent()).toBe('共 1 条');
    const row = page.getByTestId('config-table').locator('tbody tr[data-row-key]');
    await expect(row.count()).resolves.toBe(1);
    await expect(row.textContent()).resolves.toContain('sys_watermark');
    // Built-in rows keep their delete button disabled.
    await expect(row.getByTestId('config-delete').isDisabled()).resolves.toBe(true);
    await screenshot(page, 'config-1366');

    await row.getByTestId('config-edit').click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await expect(dialog.getByTestId('config-field-code').isDisabled()).resolves.toBe(true);
    await dialog.getByTestId('config-field-value').fill('true');
    await dialog.getByTestId('config-field-value').press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => row.textContent()).toContain('true');
    // Applied at once: the shell refetches the watermark settings after the save, no restart, no reload.
    await expect.poll(() => watermarkLayers(page)).toBeGreaterThan(0);
    await screenshot(page, 'config-watermark-on-1366');

    await page.reload();
    await page.getByTestId('layout-shell').waitFor();
    await expect.poll(() => watermarkLayers(page)).toBeGreaterThan(0);
  });

  it('changes the title and copyright on 系统信息 and sees the top bar and footer follow', async () => {
    const { page } = browser;
    await openPlatformMenu(page, '系统信息', /\/platform\/sysInfo$/);
    const form = page.getByTestId('sys-info-form');
    await form.waitFor();
    await page.getByTestId('sys-info-title').fill('黄浦区数据报送平台');
    await page.getByTestId('sys-info-copyright').fill('© 2026 黄浦区数据局');
    // The preview follows the form as it is typed.
    await expect
      .poll(() => page.getByTestId('sys-info-preview-title').textContent())
      .toBe('黄浦区数据报送平台');
    await expect(page.getByTestId('sys-info-preview-footer').textContent()).resolves.toContain(
      '© 2026 黄浦区数据局',
    );
    await page.getByTestId('sys-info-save').click();
    await expect.poll(() => page.getByTestId('layout-system-name').textContent()).toBe('黄浦区数据报送平台');
    await expect.poll(() => page.getByTestId('layout-footer').textContent()).toContain('© 2026 黄浦区数据局');
    await expect.poll(() => page.title()).toBe('系统信息 - 黄浦区数据报送平台');
    await screenshot(page, 'sys-info-1366');

    // The sign-in page of a new visitor carries the new title and copyright too.
    const visitor = await openBrowser();
    try {
      await visitor.page.goto(`${shuzhi.baseUrl}/login`);
      await visitor.page.getByTestId('login-page').waitFor();
      await expect.poll(() => visitor.page.title()).toMatch(/ - 黄浦区数据报送平台$/);
      await expect
        .poll(() => visitor.page.getByTestId('login-footer').textContent())
        .toContain('© 2026 黄浦区数据局');
      await screenshot(visitor.page, 'sys-info-login-1366');
    } finally {
      await visitor.close();
    }
  });

  it('adds an item to 参数分组 on 字典管理 and picks it in the config form', async () => {
    const { page } = browser;
    await openPlatformMenu(page, '字典管理', /\/platform\/dict$/);
    await page.getByTestId('dict-type-search-code').fill('config_group');
    await page.getByTestId('dict-type-search-code').press('Enter');
    await expect.poll(() => page.getByTestId('dict-type-total').textContent()).toBe('共 1 条');
    await page.getByTestId('dict-type-table').locator('tbody tr[data-row-key]').first().click();
    await expect.poll(() => page.getByTestId('dict-data-type').textContent()).toContain('config_group');
    const seeded = Number((await page.getByTestId('dict-data-total').textContent())?.replace(/\D/g, ''));
    expect(seeded).toBeGreaterThanOrEqual(4);

    await page.getByTestId('dict-data-add').click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByTestId('dict-data-field-label').fill('报表');
    await dialog.getByTestId('dict-data-field-value').fill('Report');
    await dialog.getByTestId('dict-data-form-submit').click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => page.getByTestId('dict-data-total').textContent()).toBe(`共 ${seeded + 1} 条`);
    await expect(page.getByTestId('dict-data-table').textContent()).resolves.toContain('Report');
    await screenshot(page, 'dict-1366');

    // The dictionary cache was refreshed: the group select of the config form offers the new item.
    await page.goto(`${shuzhi.baseUrl}/platform/config`);
    await page.getByTestId('config-table').locator('tbody tr[data-row-key]').first().waitFor();
    await page.getByTestId('config-add').click();
    const form = page.getByRole('dialog');
    await form.waitFor();
    await form.getByTestId('config-field-name').fill('报表周期');
    await form.getByTestId('config-field-code').fill('report_cycle');
    await form.getByTestId('config-field-value').fill('monthly');
    await form.getByTestId('config-field-group').click();
    const option = page.locator(
      '.ant-select-dropdown:visible [data-testid="dict-option"][data-value="Report"]',
    );
    await expect(option.textContent()).resolves.toContain('报表');
    await screenshot(page, 'dict-pick-in-config-1366');
    // Picked: the select shows it, and the saved row carries it as a tag in the list. The dropdown may be
    // re-rendered while the refreshed dictionary arrives; a click lost to that is made again.
    const group = form.getByTestId('config-field-group');
    await expect
      .poll(async () => {
        const text = (await group.textContent()) ?? '';
        if (text.includes('报表')) return text;
        if (!(await option.isVisible())) await group.click();
        await option.click({ timeout: 2_000 }).catch(() => undefined);
        return (await group.textContent()) ?? '';
      })
      .toContain('报表');
    await form.getByTestId('config-form-submit').click();
    await form.waitFor({ state: 'hidden' });
    await page.getByTestId('config-search-code').fill('report_cycle');
    await page.getByTestId('config-search-code').press('Enter');
    await expect.poll(() => page.getByTestId('config-total').textContent()).toBe('共 1 条');
    const row = page.getByTestId('config-table').locator('tbody tr[data-row-key]');
    await expect.poll(() => row.locator('.ant-tag').first().textContent()).toBe('报表');
    await screenshot(page, 'config-picked-group-1366');
  });

  it('shows the seeded dictionary labels in English, and an admin-added one as typed', async () => {
    const { page } = browser;
    await page.getByTestId('language-switch').click();
    await page.getByTestId('language-option-en').click();
    await page.getByTestId('tags-view').getByText('Home').waitFor();
    try {
      // Org types on 机构管理 (DictTag in the list, DictSelect in the search bar).
      await page.goto(`${shuzhi.baseUrl}/system/org`);
      const orgTags = page.getByTestId('org-table').locator('tbody .ant-tag');
      await orgTags.first().waitFor();
      await expect
        .poll(() => orgTags.allTextContents())
        .toEqual(expect.arrayContaining(['District', 'Street']));
      expect((await orgTags.allTextContents()).filter((text) => /[\u4e00-\u9fff]/.test(text))).toEqual([]);
      await page.getByTestId('org-search-type').click();
      const typeOptions = page.locator('.ant-select-dropdown:visible [data-testid="dict-option"]');
      await expect
        .poll(() => typeOptions.allTextContents())
        .toEqual(['District', 'Street', 'Community', 'Grid', 'Department', 'Enterprise']);
      await screenshot(page, 'dict-en-org-1366');
      await page.keyboard.press('Escape');

      // Gender on the user form.
      await page.goto(`${shuzhi.baseUrl}/system/user`);
      await page.getByTestId('user-add').click();
      await page.getByTestId('user-field-sex').click();
      const sexOptions = page.locator('.ant-select-dropdown:visible [data-testid="dict-option"]');
      await expect.poll(() => sexOptions.allTextContents()).toEqual(['Male', 'Female', 'Other']);
      await screenshot(page, 'dict-en-user-1366');

      // Config groups: the seeded ones translated, the one added above as typed.
      await page.goto(`${shuzhi.baseUrl}/platform/config`);
      await page.getByTestId('config-table').locator('tbody tr[data-row-key]').first().waitFor();
      await page.getByTestId('config-add').click();
      await page.getByRole('dialog').getByTestId('config-field-group').click();
      const groupOptions = page.locator('.ant-select-dropdown:visible [data-testid="dict-option"]');
      await expect
        .poll(() => groupOptions.allTextContents())
        .toEqual(expect.arrayContaining(['Default', 'Sign-in and sessions', 'Security', 'Site', '报表']));
      await screenshot(page, 'dict-en-config-1366');

      // The dictionary screen: the translated name and preview beside the stored label.
      await page.goto(`${shuzhi.baseUrl}/platform/dict`);
      await page.getByTestId('dict-type-search-code').fill('config_group');
      await page.getByTestId('dict-type-search-code').press('Enter');
      await expect.poll(() => page.getByTestId('dict-type-total').textContent()).toContain('1');
      await expect
        .poll(() => page.getByTestId('dict-type-name').first().textContent())
        .toBe('Parameter groups');
      await page.getByTestId('dict-type-table').locator('tbody tr[data-row-key]').first().click();
      await expect
        .poll(() => page.getByTestId('dict-data-preview').allTextContents())
        .toEqual(expect.arrayContaining(['Site', '报表']));
      await expect(page.getByTestId('dict-data-table').textContent()).resolves.toContain('站点');
      await screenshot(page, 'dict-en-dict-1366');
    } finally {
      await page.keyboard.press('Escape');
      await page.getByTestId('language-switch').click();
      await page.getByTestId('language-option-zh-cn').click();
      await page.getByTestId('tags-view').getByText('首页').waitFor();
    }
  });
});
