import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDocx, makePdf, makeXlsx } from './fixtures/office.ts';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import {
  type Browser,
  fillLogin,
  firstSignIn,
  NEW_PASSWORD,
  openBrowser,
  openFromTopMenu,
  screenshot,
} from './support.ts';

const PDF_NAME = '2026年统计报告.pdf';
const XLSX_NAME = '区县统计.xlsx';
const DOCX_NAME = '工作说明.docx';
const TXT_NAME = '说明.txt';

/** Its own server: it uploads files. Issue 4 §5 and SPEC §2 (file preview dialog). */
describe('an admin manages files and previews pdf, xlsx and docx', () => {
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

  const row = (page: Page, name: string) => page.getByTestId('file-table').locator('tr', { hasText: name });
  const dialog = (page: Page) => page.locator('.ant-modal', { hasText: '文件预览' });

  /** The dialog zooms in: screenshots and measurements wait until its size holds still. */
  async function settled(page: Page) {
    let last = -1;
    await expect
      .poll(async () => {
        const width = (await dialog(page).boundingBox())?.width ?? 0;
        const still = width > 0 && width === last;
        last = width;
        return still;
      })
      .toBe(true);
  }
  async function openPreview(page: Page, name: string) {
    await row(page, name).getByTestId('file-preview-open').click();
    await settled(page);
  }
  async function closePreview(page: Page) {
    await page.getByTestId('file-preview-close').click();
    await dialog(page).waitFor({ state: 'hidden' });
  }

  it('uploads a pdf, an xlsx, a docx and a txt by the upload dialog', async () => {
    const { page } = browser;
    await openFromTopMenu(page, '平台管理', '文件管理', /\/platform\/file$/);
    await page.getByTestId('file-table').waitFor();
    await page.mouse.move(700, 700);
    await page.getByTestId('file-upload-open').click();
    const upload = page.getByRole('dialog');
    await upload.getByText('点击或将文件拖到此区域上传').waitFor();
    await upload.getByText(/支持扩展名：pdf, doc/).waitFor();
    await upload.locator('input[type=file]').setInputFiles([
      {
        name: PDF_NAME,
        mimeType: 'application/pdf',
        buffer: makePdf(['Shuzhi file preview', 'Huangpu District statistics 2026']),
      },
      {
        name: XLSX_NAME,
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        buffer: await makeXlsx(
          {
            汇总: [
              ['区县', '上报单位', '数量'],
              ['黄浦区', '南京东路街道', 4821],
              ['黄浦区', '外滩街道', 3190],
            ],
            明细: [['明细表', '第二页']],
          },
          '2026年区县统计汇总',
        ),
      },
      {
        name: DOCX_NAME,
        mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        buffer: makeDocx('数智平台工作说明', ['本文件用于验证文档预览。', '第二段：文件管理与预览。']),
      },
      { name: TXT_NAME, mimeType: 'text/plain', buffer: Buffer.from('纯文本说明\n') },
    ]);
    await expect
      .poll(() => upload.locator('.ant-upload-list-item-done').count(), { timeout: 20_000 })
      .toBe(4);
    await screenshot(page, 'files-upload-1366');
    await page.getByTestId('file-upload-done').click();
    await upload.waitFor({ state: 'hidden' });
    for (const name of [PDF_NAME, XLSX_NAME, DOCX_NAME, TXT_NAME]) await row(page, name).waitFor();
    await expect(row(page, XLSX_NAME).textContent()).resolves.toContain('系统管理员');
    await screenshot(page, 'files-page-1366');
  });

  it('refuses a disallowed type before sending and a disguised exe with the server’s message', async () => {
    const { page } = browser;
    await page.getByTestId('file-upload-open').click();
    const upload = page.getByRole('dialog');
    const input = upload.locator('input[type=file]');
    await input.setInputFiles({
      name: 'setup.exe',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from('MZ'),
    });
    await page.locator('.ant-message-notice', { hasText: '“setup.exe”的类型不允许' }).waitFor();
    await input.setInputFiles({
      name: '伪装报告.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.concat([Buffer.from('MZ\x90\x00'), Buffer.alloc(64)]),
    });
    await page
      .locator('.ant-message-notice', { hasText: '“伪装报告.pdf”上传失败：文件内容与扩展名“.pdf”不符' })
      .waitFor();
    await upload.locator('.ant-upload-list-item-error').waitFor();
    await screenshot(page, 'files-upload-refused-1366');
    await page.getByTestId('file-upload-done').click();
    await upload.waitFor({ state: 'hidden' });
    await expect(row(page, '伪装报告.pdf').count()).resolves.toBe(0);
  });

  it('previews the pdf in a frame, 80% wide, with full screen', async () => {
    const { page } = browser;
    await openPreview(page, PDF_NAME);
    const frame = page.getByTestId('file-preview-pdf');
    await frame.waitFor();
    await expect(frame.getAttribute('src')).resolves.toMatch(/^blob:/);
    const box = await dialog(page).boundingBox();
    expect(Math.round(((box?.width ?? 0) / 1366) * 100)).toBe(80);
    const body = await page.locator('.ant-modal-body').boundingBox();
    expect(Math.round(body?.height ?? 0)).toBe(Math.round(768 * 0.6));
    await screenshot(page, 'files-preview-pdf-1366');
    await page.getByTestId('file-preview-fullscreen').click();
    await expect.poll(async () => (await dialog(page).boundingBox())?.width).toBe(1366);
    await screenshot(page, 'files-preview-pdf-fullscreen-1366');
    await page.getByTestId('file-preview-fullscreen').click();
    await closePreview(page);
  });

  it('previews the xlsx as sheets with a grid', async () => {
    const { page } = browser;
    await openPreview(page, XLSX_NAME);
    const grid = page.getByTestId('file-preview-sheet-grid');
    await grid.waitFor();
    await expect(grid.textContent()).resolves.toContain('南京东路街道');
    await expect(grid.locator('td', { hasText: '2026年区县统计汇总' }).getAttribute('colspan')).resolves.toBe(
      '3',
    );
    await expect(grid.locator('thead th').nth(1).textContent()).resolves.toBe('A');
    await screenshot(page, 'files-preview-xlsx-1366');
    await page.getByTestId('file-preview-sheet-tabs').getByText('明细', { exact: true }).click();
    await expect.poll(() => grid.textContent()).toContain('第二页');
    await closePreview(page);
  });

  it('previews the docx as a document', async () => {
    const { page } = browser;
    await openPreview(page, DOCX_NAME);
    const document = page.getByTestId('file-preview-document');
    await expect
      .poll(() => document.textContent(), { timeout: 20_000 })
      .toContain('本文件用于验证文档预览。');
    await screenshot(page, 'files-preview-docx-1366');
    await closePreview(page);
  });

  it('downloads under the original name, from the row and from the dialog', async () => {
    const { page } = browser;
    const [fromRow] = await Promise.all([
      page.waitForEvent('download'),
      row(page, PDF_NAME).getByTestId('file-download').click(),
    ]);
    expect(fromRow.suggestedFilename()).toBe(PDF_NAME);
    await openPreview(page, XLSX_NAME);
    await page.getByTestId('file-preview-sheet-grid').waitFor();
    const [fromDialog] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('file-preview-download').click(),
    ]);
    expect(fromDialog.suggestedFilename()).toBe(XLSX_NAME);
    await closePreview(page);
  });

  it('offers to download a type without preview (提示 · 确定下载 / 关闭)', async () => {
    const { page } = browser;
    await row(page, TXT_NAME).getByTestId('file-preview-open').click();
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.getByText('该文件不支持预览，确定下载此文件').waitFor();
    await expect(confirm.locator('.ant-modal-confirm-title').textContent()).resolves.toBe('提示');
    await expect(page.getByTestId('file-preview-confirm-close').textContent()).resolves.toMatch(/^关\s*闭$/);
    await screenshot(page, 'files-preview-unsupported-1366');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('file-preview-confirm-download').click(),
    ]);
    expect(download.suggestedFilename()).toBe(TXT_NAME);
    await confirm.waitFor({ state: 'hidden' });
  });

  it('renames a file, keeping its extension, and deletes one', async () => {
    const { page } = browser;
    await row(page, TXT_NAME).getByTestId('file-edit').click();
    const form = page.getByRole('dialog');
    await form.getByTestId('file-field-name').fill('说明（终稿）');
    await form.getByTestId('file-form-submit').click();
    await form.waitFor({ state: 'hidden' });
    await row(page, '说明（终稿）.txt').waitFor();
    await row(page, '说明（终稿）.txt').getByTestId('file-delete').click();
    await page.getByTestId('file-delete-ok').click();
    await expect.poll(() => row(page, '说明（终稿）.txt').count(), { timeout: 10_000 }).toBe(0);
  });

  it('looks right at 1920×1080', async () => {
    const wide = await openBrowser({ width: 1920, height: 1080 });
    try {
      const { page } = wide;
      await fillLogin(page, 'admin', NEW_PASSWORD, shuzhi.baseUrl);
      await page.waitForURL(/\/dashboard$/);
      await openFromTopMenu(page, '平台管理', '文件管理', /\/platform\/file$/);
      await row(page, DOCX_NAME).waitFor();
      await page.mouse.move(900, 1000);
      await screenshot(page, 'files-page-1920');
      await openPreview(page, PDF_NAME);
      await page.getByTestId('file-preview-pdf').waitFor();
      await screenshot(page, 'files-preview-pdf-1920');
      await closePreview(page);
      await openPreview(page, XLSX_NAME);
      await page.getByTestId('file-preview-sheet-grid').waitFor();
      await screenshot(page, 'files-preview-xlsx-1920');
      await closePreview(page);
      await openPreview(page, DOCX_NAME);
      await expect
        .poll(() => page.getByTestId('file-preview-document').textContent(), { timeout: 20_000 })
        .toContain('本文件用于验证文档预览。');
      await screenshot(page, 'files-preview-docx-1920');
      await closePreview(page);
    } finally {
      await wide.close();
    }
  });
});
