import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import { apiCall, type Browser, firstSignIn, openBrowser, screenshot, tokenOf } from './support.ts';

const TITLE = '企业基本情况登记表';
const MARK = '（导入）';
const BAD_STAFF = '一百八十六';

/** Enterprises 张伟 files before the export (all required values given). */
const FILED = ['上海外滩数据服务有限公司', '上海豫园文创发展有限公司', '上海南京东路商贸有限公司'];
const ENTERPRISE = {
  regdate: '2026-11-02',
  kind: 'llc',
  industry: 'it',
  scale: '1',
  founded: '2018-06-12',
  area: '310101',
  address: '上海市黄浦区南京东路 299 号',
  capital: 2000,
  revenue: 18650.5,
  scope: '软件开发；信息系统集成服务。',
  legal: '陈立新',
  legalid: '310101197805123013',
  contact: '张伟',
  mobile: '13917261234',
  email: 'office@hpszkj.example.com',
};

type FormItem = { id: number; title: string; myAuth: { import: boolean } };

/** Column numbers (1-based) by header text, read from the header rows of a ledger or template. */
function headerColumns(sheet: ExcelJS.Worksheet, rows: number): Map<string, number> {
  const found = new Map<string, number>();
  for (let r = 1; r <= rows; r++) {
    sheet.getRow(r).eachCell((cell, col) => {
      const text = String(cell.value ?? '')
        .replace(/^\*|\*$/g, '')
        .trim();
      if (text && !found.has(text)) found.set(text, col);
    });
  }
  return found;
}

const text = (cell: ExcelJS.Cell) => {
  const value = cell.value;
  if (value && typeof value === 'object' && 'richText' in value)
    return value.richText.map((p) => p.text).join('');
  return value === null || value === undefined ? '' : String(value);
};

const noteText = (cell: ExcelJS.Cell) => {
  const note = cell.note;
  if (!note) return '';
  if (typeof note === 'string') return note;
  return (note.texts ?? []).map((p) => p.text).join('');
};

/**
 * Its own server, the seeded 企业基本情况登记表 (enterprise register; 统一社会信用代码 unique in the form).
 * 张伟 (fgwstaff: a filler of the district, a viewer of the form, data scope his own org) has filed three
 * enterprises through the API. He exports the ledger through the UI; the test turns its rows into new
 * enterprises (new names and credit codes) and writes a text into 从业人数 of one row. He uploads it through
 * the wizard, sees one bad row, downloads the error workbook — the bad cell is marked with the reason —
 * confirms, and finds the valid rows in the list.
 */
describe('导入: export a ledger and import it back with one corrupted row', () => {
  let shuzhi: RunningShuzhi;
  let filler: Browser;
  let tableId = 0;
  let work = '';
  let ledgerPath = '';
  let importPath = '';
  let badName = '';
  let badRowNumber = 0;
  let goodNames: string[] = [];
  let listedBefore = 0;
  const call = <T>(token: string, method: string, path: string, body?: unknown) =>
    apiCall<T>(shuzhi.baseUrl, token, method, path, body);

  const rows = (page: Page) => page.getByTestId('diy-record-table').locator('tbody tr.ant-table-row');
  const total = async (page: Page) =>
    Number(((await page.getByTestId('diy-record-total').textContent()) ?? '').replace(/\D/g, ''));

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'shuzhi-import-'));
    shuzhi = await launchShuzhi({ sys_captcha: 'false' });
    filler = await openBrowser();
    await firstSignIn(filler.page, 'fgwstaff', shuzhi.baseUrl);
    const token = await tokenOf(filler.page);
    const items = await call<FormItem[]>(
      token,
      'GET',
      `/api/diyTable/tableList?keyword=${encodeURIComponent(TITLE)}`,
    );
    const item = items.find((i) => i.title === TITLE);
    if (!item) throw new Error(`${TITLE} is not offered to fgwstaff`);
    expect(item.myAuth.import).toBe(true);
    tableId = item.id;
    for (const [i, name] of FILED.entries()) {
      await call(token, 'POST', `/api/diyData/${tableId}/add`, {
        values: {
          ...ENTERPRISE,
          name,
          uscc: `91310101MA1HPD${String(1000 + i)}`,
          staff: 40 + i,
        },
        submit: true,
      });
    }
  });
  afterAll(async () => {
    await filler?.close();
    await shuzhi?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('exports the ledger through the record list', async () => {
    const { page } = filler;
    await page.goto(`${shuzhi.baseUrl}/diyReport/index/formTable?id=${tableId}`);
    await page.getByTestId('diy-record-table').waitFor();
    await expect.poll(() => rows(page).count()).toBe(FILED.length);
    listedBefore = await total(page);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('diy-record-export').click(),
    ]);
    ledgerPath = join(work, 'ledger.xlsx');
    await download.saveAs(ledgerPath);
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
  });

  it('turns the ledger into new enterprises with one corrupted cell', async () => {
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(ledgerPath);
    const sheet = book.worksheets[0];
    // Sections group the columns: the field labels sit on the last header row.
    let headerRows = 1;
    for (let r = 1; r <= 3; r++) {
      sheet.getRow(r).eachCell((cell) => {
        if (text(cell) === '企业名称') headerRows = r;
      });
    }
    const col = headerColumns(sheet, headerRows);
    for (const label of ['企业名称', '统一社会信用代码', '从业人数', '联系人']) {
      expect(col.has(label), `ledger column ${label}`).toBe(true);
    }
    const name = col.get('企业名称') as number;
    const uscc = col.get('统一社会信用代码') as number;
    const staff = col.get('从业人数') as number;
    const contact = col.get('联系人') as number;

    const dataRows = sheet.actualRowCount - headerRows;
    expect(dataRows).toBe(FILED.length);
    const names: string[] = [];
    for (let i = 0; i < dataRows; i++) {
      const row = sheet.getRow(headerRows + 1 + i);
      const renamed = `${text(row.getCell(name))}${MARK}`;
      row.getCell(name).value = renamed;
      // New codes, so that no row repeats a filed enterprise ([0-9A-HJ-NPQRTUWXY]{18}).
      row.getCell(uscc).value = `91310101MA1HPE${String(1000 + i)}`;
      expect(text(row.getCell(contact))).toBe('张伟');
      names.push(renamed);
    }
    // The last row gets a text in the integer column.
    badRowNumber = headerRows + dataRows;
    const badRow = sheet.getRow(badRowNumber);
    badRow.getCell(staff).value = BAD_STAFF;
    badName = names[names.length - 1];
    goodNames = names.slice(0, -1);
    importPath = join(work, `${TITLE}_导入.xlsx`);
    await book.xlsx.writeFile(importPath);
  });

  it('uploads the workbook through the wizard and sees the one bad row', async () => {
    const { page } = filler;
    await page.getByTestId('diy-record-import').click();
    const modal = page.getByTestId('diy-import-modal');
    await modal.getByTestId('diy-import-drop').waitFor();
    await expect(modal.getByTestId('diy-import-start').isDisabled()).resolves.toBe(true);
    await page.mouse.move(1, 700);
    await screenshot(page, 'diy-import-upload-1366');

    // The template: the form's importable fields as headers (no serial number, no system columns).
    const [template] = await Promise.all([
      page.waitForEvent('download'),
      modal.getByTestId('diy-import-template').click(),
    ]);
    const templatePath = join(work, 'template.xlsx');
    await template.saveAs(templatePath);
    const templateBook = new ExcelJS.Workbook();
    await templateBook.xlsx.readFile(templatePath);
    const templateHeaders = headerColumns(templateBook.worksheets[0], 2);
    for (const label of ['企业名称', '统一社会信用代码', '从业人数'])
      expect(templateHeaders.has(label)).toBe(true);
    for (const label of ['登记编号', '编号', '状态']) expect(templateHeaders.has(label)).toBe(false);

    await modal.locator('input[type=file]').setInputFiles(importPath);
    await expect(modal.getByTestId('diy-import-file').textContent()).resolves.toContain(`${TITLE}_导入.xlsx`);
    // Keyboard: the start button is reached and pressed without the mouse.
    await modal.getByTestId('diy-import-start').focus();
    await page.keyboard.press('Enter');

    await modal.getByTestId('diy-import-error-table').waitFor({ timeout: 60_000 });
    const count = async (id: string) =>
      Number(
        ((await modal.getByTestId(id).locator('.ant-statistic-content-value').textContent()) ?? '').replace(
          /\D/g,
          '',
        ),
      );
    await expect(count('diy-import-valid')).resolves.toBe(goodNames.length);
    await expect(count('diy-import-invalid')).resolves.toBe(1);
    await expect(count('diy-import-duplicates')).resolves.toBe(0);
    const errors = modal.getByTestId('diy-import-error-table').locator('tbody tr.ant-table-row');
    await expect(errors.count()).resolves.toBe(1);
    const cells = await errors.first().locator('td').allTextContents();
    expect(cells.slice(0, 2)).toEqual([String(badRowNumber), '从业人数']);
    await expect(modal.getByTestId('diy-import-confirm').textContent()).resolves.toContain(
      `确认导入 ${goodNames.length} 条`,
    );
    await page.mouse.move(1, 700);
    await screenshot(page, 'diy-import-result-1366');
    // The wizard holds at 1366×768: its footer is on screen.
    const box = await modal.getByTestId('diy-import-confirm').boundingBox();
    expect(box && box.y + box.height <= 768).toBe(true);
  });

  it('downloads the error workbook with the bad cell marked and the reason', async () => {
    const { page } = filler;
    const modal = page.getByTestId('diy-import-modal');
    const reason = (
      (await modal
        .getByTestId('diy-import-error-table')
        .locator('tbody tr.ant-table-row td')
        .nth(2)
        .textContent()) ?? ''
    ).trim();
    expect(reason.length).toBeGreaterThan(0);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      modal.getByTestId('diy-import-errors').click(),
    ]);
    const errorsPath = join(work, 'errors.xlsx');
    await download.saveAs(errorsPath);

    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(errorsPath);
    const sheet = book.worksheets[0];
    let headerRows = 1;
    for (let r = 1; r <= 3; r++) {
      sheet.getRow(r).eachCell((cell) => {
        if (text(cell) === '企业名称') headerRows = r;
      });
    }
    const col = headerColumns(sheet, headerRows);
    const name = col.get('企业名称');
    const staff = col.get('从业人数');
    const why = col.get('错误原因');
    expect(name && staff && why).toBeTruthy();
    // Only the bad row, as uploaded.
    const bad: ExcelJS.Row[] = [];
    for (let r = headerRows + 1; r <= sheet.actualRowCount; r++) {
      const row = sheet.getRow(r);
      if (text(row.getCell(name as number))) bad.push(row);
    }
    expect(bad.map((row) => text(row.getCell(name as number)))).toEqual([badName]);
    const cell = bad[0].getCell(staff as number);
    expect(text(cell)).toBe(BAD_STAFF);
    expect(noteText(cell)).toContain(reason);
    const fill = cell.fill as ExcelJS.FillPattern | undefined;
    expect(fill?.type).toBe('pattern');
    expect(String(fill?.fgColor?.argb ?? '')).toMatch(/^(FF)?F[0-9A-F]{5}$/i);
    expect(text(bad[0].getCell(why as number))).toContain(reason);
  });

  it('confirms: the valid rows are filed and listed', async () => {
    const { page } = filler;
    const modal = page.getByTestId('diy-import-modal');
    await modal.getByTestId('diy-import-confirm').click();
    await page.getByTestId('diy-import-confirm-ok').click();
    await expect
      .poll(
        () =>
          modal
            .getByTestId('diy-import-inserted')
            .textContent()
            .catch(() => ''),
        { timeout: 60_000 },
      )
      .toBe(`已导入 ${goodNames.length} 条记录`);
    await page.mouse.move(1, 700);
    await screenshot(page, 'diy-import-done-1366');
    await modal.getByTestId('diy-import-close').click();
    await modal.waitFor({ state: 'hidden' });
    // The closed dialog gives the focus back to 导入, a moment after it is hidden; a key pressed in between
    // would go to whichever element held the focus then.
    await expect
      .poll(() =>
        page.evaluate(() => document.activeElement?.closest('[data-testid="diy-record-import"]') !== null),
      )
      .toBe(true);

    await expect.poll(() => total(page)).toBe(listedBefore + goodNames.length);
    const keyword = page.getByTestId('diy-record-keyword').locator('input');
    await keyword.fill(MARK);
    const searched = page.waitForResponse(
      (r) => r.url().includes(`/api/diyData/${tableId}/`) && (r.request().postData() ?? '').includes(MARK),
    );
    await keyword.press('Enter');
    expect((await searched).ok()).toBe(true);
    await expect.poll(() => rows(page).count()).toBe(goodNames.length);
    const listed = await rows(page).allTextContents();
    for (const good of goodNames) expect(listed.some((row) => row.includes(good))).toBe(true);
    expect(listed.some((row) => row.includes(badName))).toBe(false);
    // Submitted on import (the form is reviewed): waiting for review.
    for (const row of listed) expect(row).toContain('待审核');
  });
});
