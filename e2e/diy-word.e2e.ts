import { afterAll, beforeAll, describe, it } from 'vitest';
import { makeDocx } from './fixtures/office.ts';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import {
  type Browser,
  chooseOption,
  clickWhenOpened,
  firstSignIn,
  openBrowser,
  screenshot,
} from './support.ts';

const ROLLUP = '社区人口月报汇总';
const NAME = '人口月报简报';

/**
 * Issue 21 §3 and §6, Word documents: the admin uploads a .docx template for the seeded roll-up on 文书报告 (a
 * template naming no field is refused first, with the name), generates the bulletin for the newest period and
 * previews it in the file preview dialog.
 */
describe('Word documents: upload a template, generate a bulletin, preview it', () => {
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

  it('refuses a template naming no field, then takes a good one', async () => {
    const { page } = browser;
    await page.goto(`${shuzhi.baseUrl}/diyword/index`);
    await page.getByTestId('word-upload').click();
    const form = page.getByTestId('word-upload-form');
    await chooseOption(
      page,
      form.getByTestId('word-upload-source'),
      page.getByTitle(`${ROLLUP}（汇总表）`),
      ROLLUP,
    );
    await form.getByTestId('word-upload-name').fill(NAME);
    const dialog = page.locator('.ant-modal').filter({ has: form });
    await dialog.locator('input[type=file]').setInputFiles({
      name: '坏模板.docx',
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      buffer: makeDocx('简报', ['{nosuch}']),
    });
    await clickWhenOpened(dialog.getByRole('button', { name: /^(确\s?定|OK)$/ }));
    await page
      .getByTestId('word-upload-error')
      .getByText(/nosuch/)
      .waitFor();
    // The placeholder help of the chosen source is under the form.
    await page.getByTestId('word-help-table').getByText('{m1_change}', { exact: true }).waitFor();
    await screenshot(page, 'diy-word-upload-refused-1366');
    await dialog.locator('input[type=file]').setInputFiles({
      name: '简报模板.docx',
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      buffer: makeDocx('社区人口月报简报', [
        '统计周期：{$period}',
        '户籍人口合计：{m1}，上期：{m1_last}',
        '{#rows}{name}：{m1}；{/rows}',
      ]),
    });
    await dialog.getByRole('button', { name: /^(确\s?定|OK)$/ }).click();
    await page.getByTestId('word-table').getByText(NAME).waitFor();
    await screenshot(page, 'diy-word-list-1366');
  });

  it('generates the bulletin and previews it', async () => {
    const { page } = browser;
    const row = page.getByTestId('word-table').locator('tbody tr.ant-table-row').filter({ hasText: NAME });
    await row.getByTestId('word-generate').click();
    const dialog = page.locator('.ant-modal').filter({ has: page.getByTestId('word-generate-mode') });
    await clickWhenOpened(dialog.getByRole('button', { name: /^(生\s?成|Generate)$/ }));
    const last = page.getByTestId('word-last-output');
    await last.getByText(/人口月报简报-.*\.docx/).waitFor();
    await last.getByTestId('word-output-preview').click();
    await page.getByText('社区人口月报简报').waitFor();
    await page.getByText(/户籍人口合计：/).waitFor();
    await screenshot(page, 'diy-word-preview-1366');
  });
});
