import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import { type Browser, pageCall as call, firstSignIn, openBrowser, screenshot, settled } from './support.ts';

type FormRow = { id: number; title: string };

const HAN = /\p{Script=Han}/u;
const FORMS = ['企业基本情况登记表', '社区人口月报', '安全生产检查记录'] as const;

/** Calls the API with the signed-in user's own token, as the page itself would. */

/**
 * The texts of the interface chrome inside `scope`: table headers, buttons, tabs, form labels, empty
 * states, titles of drawers and dialogs, pagination. Data (form titles, names, field labels) is not chrome
 * and is left out by choosing these elements; `data` removes data values that chrome texts may embed.
 */
const CHROME = [
  '.ant-table-thead th',
  'button',
  '.ant-tabs-tab',
  '.ant-dropdown-menu-item',
  '.ant-form-item-label',
  '.ant-descriptions-item-label',
  '.ant-empty-description',
  '.ant-drawer-title',
  '.ant-modal-title',
  '.ant-pagination',
  '.ant-segmented-item-label',
  '.ant-radio-button-wrapper',
  'input[placeholder]',
].join(', ');

async function chromeTexts(
  scope: Locator,
  data: readonly string[] = [],
  selector = CHROME,
): Promise<string[]> {
  const texts = await scope
    .locator(selector)
    .evaluateAll((nodes) =>
      nodes
        .filter((node) => (node as HTMLElement).offsetParent !== null)
        .map((node) => (node instanceof HTMLInputElement ? node.placeholder : (node.textContent ?? ''))),
    );
  return texts.map((text) => data.reduce((rest, value) => rest.split(value).join(''), text).trim());
}

async function expectNoHan(
  scope: Locator,
  where: string,
  data: readonly string[] = [],
  selector = CHROME,
): Promise<void> {
  const texts = await chromeTexts(scope, data, selector);
  expect(texts.length, `${where}: no chrome found`).toBeGreaterThan(0);
  expect(
    texts.filter((text) => HAN.test(text)),
    `${where}: untranslated chrome`,
  ).toEqual([]);
}
/**
 * The report-form pages in English and Traditional Chinese (issues 5 and 6): the admin switches the
 * language in the top bar and walks 表单管理, 表单分类, the designer, 报表填报, the record list with its fill and
 * view drawers, 报表审核 and 回收站. Screenshots at 1366×768 for a person to look at; in English no Han
 * character may appear in the chrome of these pages (the seeded data stays Chinese).
 */
describe('report forms in English and Traditional Chinese', () => {
  let shuzhi: RunningShuzhi;
  let browser: Browser;
  let page: Page;
  const ids = new Map<string, number>();

  beforeAll(async () => {
    shuzhi = await launchShuzhi({ sys_captcha: 'false' });
    browser = await openBrowser();
    page = browser.page;
    await firstSignIn(page, 'admin', shuzhi.baseUrl);
    const forms = await call<{ items: FormRow[] }>(page, 'GET', '/api/diyTable/page?page=1&pageSize=50');
    for (const title of FORMS) {
      const form = forms.items.find((row) => row.title === title);
      if (!form) throw new Error(`seeded form ${title} is missing`);
      ids.set(title, form.id);
    }
  });
  afterAll(async () => {
    await browser?.close();
    await shuzhi?.stop();
  });

  async function switchLanguage(code: 'en' | 'zh-tw'): Promise<void> {
    await page.getByTestId('language-switch').click();
    await page.getByTestId(`language-option-${code}`).click();
    await page.mouse.move(1, 700);
  }
  const go = async (path: string, ready: string) => {
    await page.goto(`${shuzhi.baseUrl}${path}`);
    await page.getByTestId(ready).first().waitFor();
    await page
      .locator('.ant-spin-spinning')
      .first()
      .waitFor({ state: 'hidden' })
      .catch(() => undefined);
    await settled(page);
  };
  const drawer = () => page.locator('.ant-drawer-content-wrapper:visible').last();
  const closeDrawer = async () => {
    await drawer().locator('.ant-drawer-close').click();
    await page.locator('.ant-drawer-content-wrapper:visible').first().waitFor({ state: 'hidden' });
  };
  const closeModal = async () => {
    await page.locator('.ant-modal-wrap:visible .ant-modal-close').last().click();
    await page.locator('.ant-modal-wrap:visible').first().waitFor({ state: 'hidden' });
  };

  for (const language of ['en', 'zh-tw'] as const) {
    const english = language === 'en';
    const check = async (scope: Locator, where: string, data: readonly string[] = [], selector = CHROME) => {
      if (english) await expectNoHan(scope, where, data, selector);
    };

    it(`${language}: 表单管理 with its settings drawer and 表单分类`, async () => {
      await switchLanguage(language);
      await go('/diyTable', 'form-admin-table');
      await screenshot(page, `diy-locales-${language}-table`);
      await check(page.getByTestId('form-admin-page'), 'form admin page', FORMS);
      const versions = await page.getByTestId('form-version').allTextContents();
      if (english) expect(versions.filter((text) => HAN.test(text))).toEqual([]);

      await page.getByTestId('form-add').click();
      await page.getByTestId('form-settings').waitFor();
      await screenshot(page, `diy-locales-${language}-table-settings`);
      await check(drawer(), 'form settings drawer');
      await closeDrawer();

      const row = page.getByTestId('form-admin-table').locator('tr', { hasText: FORMS[0] });
      await row.getByTestId('form-more').click();
      await page.locator('.ant-dropdown:visible').waitFor();
      await screenshot(page, `diy-locales-${language}-table-more`);
      await check(page.locator('.ant-dropdown:visible'), 'more menu');
      await page.keyboard.press('Escape');
      await page.mouse.move(1, 700);

      await go('/diyTable/classify', 'classify-table');
      await screenshot(page, `diy-locales-${language}-classify`);
      await check(page.getByTestId('classify-page'), 'classify page');
      await page.getByTestId('classify-add').click();
      await page.getByTestId('classify-field-name').waitFor();
      await screenshot(page, `diy-locales-${language}-classify-modal`);
      await check(page.locator('.ant-modal-wrap:visible'), 'classify modal');
      await closeModal();
    });

    it(`${language}: the designer`, async () => {
      await go(`/diyTable/design?id=${ids.get(FORMS[0])}`, 'designer');
      await screenshot(page, `diy-locales-${language}-designer`);
      await check(page.getByTestId('designer'), 'designer', FORMS);
      const firstField = page.locator('[data-testid^="designer-field-"]').first();
      await firstField.click();
      await screenshot(page, `diy-locales-${language}-designer-field`);
      await check(page.getByTestId('designer-right'), 'designer property panel');
      await page.getByTestId('designer-preview').click();
      await screenshot(page, `diy-locales-${language}-designer-preview`);
      await page.keyboard.press('Escape');
      await settled(page);
    });

    it(`${language}: 报表填报 and the record list with its drawers`, async () => {
      await go('/diyReport', 'form-item-grid');
      await screenshot(page, `diy-locales-${language}-report`);
      await check(page.getByTestId('diy-report-page'), 'report page', FORMS);
      if (english) {
        const chrome = [
          await page.getByTestId('diy-report-total').textContent(),
          ...(await page.getByTestId('form-item-count').allTextContents()),
        ];
        expect(chrome.filter((text) => HAN.test(text ?? ''))).toEqual([]);
      }

      // 安全生产检查记录 has no periods: its list shows every record, and each language deletes one below.
      const id = ids.get(FORMS[2]);
      await go(`/diyReport/index/formTable?id=${id}`, 'diy-record-table');
      await screenshot(page, `diy-locales-${language}-records`);
      // The table headers past the fixed ones are the form's field labels (data).
      await check(
        page.getByTestId('diy-form-table'),
        'record list',
        [],
        'button, .ant-pagination, .ant-select-selection-placeholder, input[placeholder], label',
      );

      await page.getByTestId('diy-record-filter-toggle').click();
      await screenshot(page, `diy-locales-${language}-records-filter`);
      await page.getByTestId('diy-record-filter-toggle').click();

      await page.getByTestId('diy-record-add').click();
      await page.getByTestId('diy-fill').waitFor();
      await screenshot(page, `diy-locales-${language}-fill`);
      await check(page.getByTestId('diy-fill'), 'fill drawer buttons', [], 'button');
      await page.getByTestId('diy-fill-close').click();
      await page.getByTestId('diy-fill').waitFor({ state: 'hidden' });

      await page.getByTestId('diy-record-view-btn').first().click();
      await page.getByTestId('diy-record-view').waitFor();
      await settled(page);
      await check(page.getByTestId('diy-record-meta'), 'record meta', [], '.ant-descriptions-item-label');
      await screenshot(page, `diy-locales-${language}-view`);
      await page.getByTestId('diy-record-history-tab').click();
      await screenshot(page, `diy-locales-${language}-view-history`);
      await check(page.getByTestId('diy-record-view'), 'record view tabs', [], '.ant-tabs-tab');
      await check(page.getByTestId('diy-record-view'), 'history headers', [], '.ant-table-thead th');
      await closeDrawer();

      // One record goes to the recycle bin, so that the bin has a row to show below.
      const before = await page.getByTestId('diy-record-table').locator('tbody tr.ant-table-row').count();
      await page.getByTestId('diy-record-delete').first().click();
      const confirm = page.locator('.ant-popover:visible');
      await confirm.getByTestId('diy-record-delete-ok').waitFor();
      await screenshot(page, `diy-locales-${language}-records-delete`);
      await check(
        confirm,
        'delete confirmation',
        [],
        '.ant-popconfirm-title, .ant-popconfirm-description, button',
      );
      await confirm.getByTestId('diy-record-delete-ok').click();
      await expect
        .poll(() => page.getByTestId('diy-record-table').locator('tbody tr.ant-table-row').count())
        .toBe(before - 1);
    });

    it(`${language}: 报表审核 and 回收站`, async () => {
      await go('/diyReport/audit', 'audit-table');
      await screenshot(page, `diy-locales-${language}-audit`);
      await check(page.getByTestId('audit-page'), 'audit page', FORMS);
      const review = page.getByTestId('audit-review').first();
      if (await review.count()) {
        await review.click();
        await page.getByTestId('audit-drawer-actions').waitFor();
        await screenshot(page, `diy-locales-${language}-audit-drawer`);
        await check(page.getByTestId('audit-drawer-actions'), 'audit drawer actions');
        await page.getByTestId('audit-return').click();
        await page.locator('.ant-modal:visible').waitFor();
        await screenshot(page, `diy-locales-${language}-audit-return`);
        await check(page.locator('.ant-modal-wrap:visible'), 'return dialog');
        await closeModal();
        await closeDrawer();
      }

      await go('/diyReport/recycle', 'recycle-table');
      await page.getByTestId('recycle-restore').first().waitFor();
      await screenshot(page, `diy-locales-${language}-recycle`);
      await check(page.getByTestId('recycle-page'), 'recycle page', FORMS);
      await page.getByTestId('recycle-purge').first().click();
      await page.locator('.ant-modal-wrap:visible').waitFor();
      await screenshot(page, `diy-locales-${language}-recycle-purge`);
      await check(
        page.locator('.ant-modal-wrap:visible'),
        'purge dialog',
        [],
        '.ant-modal-confirm-title, .ant-modal-title, button',
      );
      // A confirmation without a close icon: its first button is Cancel.
      await page.locator('.ant-modal-wrap:visible .ant-modal-confirm-btns button').first().click();
      await page.locator('.ant-modal-wrap:visible').first().waitFor({ state: 'hidden' });
      await page.getByTestId('recycle-kind-tabs').locator('.ant-tabs-tab').last().click();
      await screenshot(page, `diy-locales-${language}-recycle-forms`);
      await check(page.getByTestId('recycle-page'), 'recycle page (forms)', FORMS);
    });
  }
});
