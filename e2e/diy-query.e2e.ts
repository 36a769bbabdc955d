import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import {
  type Browser,
  chooseOption,
  clickWhenOpened,
  firstSignIn,
  openBrowser,
  screenshot,
} from './support.ts';

const REPORT = '人口与安全检查（按单位）';

/**
 * 查询报表 (issue 21 §1): built in 表单管理's builder over the two seeded forms 社区人口月报 and 安全生产检查记录
 * (joined on unit and period), with two fields and a computed column; opened at the load table, last month
 * chosen, the rows and the 合计 shown, and the export read back as a workbook with the same figures.
 */
describe('query report', () => {
  let shuzhi: RunningShuzhi;
  let admin: Browser;

  beforeAll(async () => {
    shuzhi = await launchShuzhi({ sys_captcha: 'false' });
    admin = await openBrowser();
    await firstSignIn(admin.page, 'admin', shuzhi.baseUrl);
  });

  afterAll(async () => {
    await admin?.close();
    await shuzhi?.stop();
  });

  it('is built over two forms, shows last month and exports it', async () => {
    const { page } = admin;
    await page.goto(`${shuzhi.baseUrl}/diyTable`);
    await page.getByTestId('query-add').click();
    await page.getByTestId('query-title-input').fill(REPORT);
    const option = (text: string) =>
      page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text }).first();
    await chooseOption(page, page.getByTestId('query-source-0'), option('社区人口月报'), '社区人口');
    await page.getByTestId('query-add-source').click();
    await chooseOption(page, page.getByTestId('query-source-1'), option('安全生产检查记录'), '安全生产');
    await page.getByTestId('query-column').nth(0).getByLabel('列名').fill('填报单位');
    await page.getByTestId('query-add-column').click();
    await chooseOption(page, page.getByTestId('query-column-field-1'), option('户籍人口'), '户籍人口');
    await page.getByTestId('query-add-column').click();
    await chooseOption(page, page.getByTestId('query-column-field-2'), option('来沪人员'), '来沪人员');
    await page.getByTestId('query-add-formula').click();
    await page.getByTestId('query-column').nth(3).getByLabel('列名').fill('人口合计');
    await page.getByTestId('query-column').nth(3).getByLabel('公式').fill('{c2} + {c3}');
    await page.getByTestId('query-add-param').click();
    await page.getByTestId('query-save').click();
    await clickWhenOpened(page.getByTestId('query-add-open'));

    await page.getByTestId('query-page').waitFor();
    // The seeded months: last month has the filings, the current one none yet.
    await chooseOption(
      page,
      page.getByTestId('query-param-p1'),
      page.locator('.ant-select-dropdown:visible .ant-select-item-option').nth(1),
    );
    const total = page.getByTestId('query-total');
    await total.getByText('合计').waitFor();
    const rows = page.getByTestId('query-table').locator('.ant-table-tbody tr.ant-table-row');
    await expect.poll(() => rows.count()).toBeGreaterThan(1);
    await screenshot(page, 'query-report');
    const figures = (await total.locator('td').allInnerTexts()).map((text) => text.trim());

    const download = page.waitForEvent('download');
    await page.getByTestId('query-export').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^人口与安全检查（按单位）_\d+\.xlsx$/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile((await file.path()) as string);
    const sheet = book.worksheets[0] as ExcelJS.Worksheet;
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual([
      '填报单位',
      '户籍人口',
      '来沪人员',
      '人口合计',
    ]);
    expect(sheet.rowCount).toBe((await rows.count()) + 2);
    const last = (sheet.getRow(sheet.rowCount).values as unknown[]).slice(1);
    expect(last[0]).toBe('合计');
    expect(last.slice(1).map((n) => Number(n).toLocaleString('zh-CN'))).toEqual(figures.slice(1));
  });
});
