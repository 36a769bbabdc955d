import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import {
  type Browser,
  chooseOption,
  firstSignIn,
  openBrowser,
  openFromTopMenu,
  screenshot,
  settled,
} from './support.ts';

const CATEGORY = '应急演练';
const CHILD = '防汛演练专项';
const TITLE = '防汛演练情况登记表';
const RENAMED = '防汛演练情况登记表（2027）';
const COPY = `${RENAMED}（副本）`;

/** Picks a node of an open TreeSelect by its text. */
async function pickTreeNode(page: Page, select: Locator, text: string): Promise<void> {
  await select.click();
  await page.keyboard.type(text);
  await page
    .locator('.ant-select-dropdown:visible .ant-select-tree-node-content-wrapper', { hasText: text })
    .first()
    .click();
}

/** The row of a category, by its exact name. */
function categoryRow(page: Page, name: string): Locator {
  return page
    .getByTestId('classify-table')
    .locator('tr', { has: page.getByTestId('classify-name').getByText(name, { exact: true }) });
}

/** Lets toasts, confirmations and pop-overs go before a screenshot. */
async function settle(page: Page): Promise<void> {
  await page.mouse.move(10, 700);
  await page
    .locator('.ant-message-notice, .ant-modal-confirm, .ant-popover:visible')
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => undefined);
  await settled(page);
}

async function bothSizes(page: Page, name: string): Promise<void> {
  await settle(page);
  await screenshot(page, `${name}-1366`);
  await page.setViewportSize({ width: 1920, height: 1080 });
  await screenshot(page, `${name}-1920`);
  await page.setViewportSize({ width: 1366, height: 768 });
  await settled(page);
}

/**
 * 表单分类 and 表单管理 as the tenant admin: a category with a sub-category (a category that still holds one is
 * refused), a form with a password and a filler, its settings edited, copied, and the copy deleted.
 */
describe('form administration', () => {
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

  it('adds a category and a sub-category; the parent cannot be deleted while it holds one', async () => {
    const { page } = admin;
    await openFromTopMenu(page, '报表中心', '表单分类', /\/diyTable\/classify$/);
    await page.getByTestId('classify-table').waitFor();
    await page.getByTestId('classify-add').click();
    const modal = page.getByTestId('classify-modal');
    const name = modal.getByTestId('classify-field-name');
    await name.fill(CATEGORY);
    await modal.getByTestId('classify-form-submit').click();
    await name.waitFor({ state: 'hidden' });
    const parent = categoryRow(page, CATEGORY);
    await parent.waitFor();

    await parent.getByTestId('classify-add-child').click();
    await name.waitFor();
    await expect.poll(() => modal.textContent()).toContain(CATEGORY);
    await name.fill(CHILD);
    await modal.getByTestId('classify-form-submit').click();
    await name.waitFor({ state: 'hidden' });
    const child = categoryRow(page, CHILD);
    await child.waitFor();

    await parent.getByTestId('classify-delete').click();
    await page.locator('.ant-popover:visible').getByTestId('classify-delete-ok').click();
    await page.locator('.ant-message').getByText('分类下仍有表单或子分类，不能删除').waitFor();
    await expect(parent.count()).resolves.toBe(1);
    await page.mouse.move(10, 700);
    await bothSizes(page, 'diy-classify');
  });

  it('adds a form with a category, a password and a filler, and leaves the designer for later', async () => {
    const { page } = admin;
    await openFromTopMenu(page, '报表中心', '表单管理', /\/diyTable$/);
    await page.getByTestId('form-admin-table').waitFor();
    await page.getByTestId('form-add').click();
    const drawer = page.getByTestId('form-settings');
    await drawer.getByTestId('form-field-title').fill(TITLE);
    await pickTreeNode(page, drawer.getByTestId('form-field-category'), CHILD);

    await chooseOption(
      page,
      drawer.getByTestId('form-field-fillers-users'),
      page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '张伟' }).first(),
      '张伟',
    );
    await page.keyboard.press('Escape');

    await drawer.getByTestId('form-password-set').click();
    const password = drawer.getByTestId('form-field-password');
    await password.fill('12345');
    await drawer.getByTestId('form-settings-save').click();
    await drawer.getByText('密码长度6~12个字符').waitFor();
    await password.fill('Aq123456');
    await page.mouse.move(10, 700);
    await screenshot(page, 'diy-table-settings-1366');

    await drawer.getByTestId('form-settings-save').click();
    await page.getByText(`现在去设计“${TITLE}”的字段吗？`).waitFor();
    await page.getByTestId('form-design-later').click();
    await drawer.waitFor({ state: 'hidden' });

    const row = page.getByTestId('form-admin-table').locator('tr', { hasText: TITLE });
    await row.waitFor();
    await row.getByTestId('form-lock').waitFor();
    await expect(row.getByTestId('form-version').textContent()).resolves.toBe('未发布');
    await expect(row.textContent()).resolves.toContain(CHILD);
    await bothSizes(page, 'diy-table-list');
    // At 1366 px every column shows: the status switch is not hidden under the fixed actions column.
    const status = await row.getByTestId('crud-status-switch').boundingBox();
    const actions = await page
      .getByTestId('form-admin-table')
      .locator('th', { hasText: '操作' })
      .boundingBox();
    expect(status && actions && status.x + status.width <= actions.x).toBe(true);
  });

  it('edits the settings: keeps the password and the filler, renames it, turns review off', async () => {
    const { page } = admin;
    const row = page.getByTestId('form-admin-table').locator('tr', { hasText: TITLE });
    await row.getByTestId('form-edit').click();
    const drawer = page.getByTestId('form-settings');
    const title = drawer.getByTestId('form-field-title');
    await expect.poll(() => title.inputValue()).toBe(TITLE);
    await drawer.getByTestId('form-password-state').waitFor();
    await expect(drawer.getByTestId('form-field-fillers-users').textContent()).resolves.toContain('张伟');
    await title.fill(RENAMED);
    await drawer.getByTestId('form-field-needs-review').click();
    await page.mouse.move(10, 700);
    await bothSizes(page, 'diy-table-edit');
    await drawer.getByTestId('form-settings-save').click();
    await drawer.waitFor({ state: 'hidden' });
    const renamed = page.getByTestId('form-admin-table').locator('tr', { hasText: RENAMED });
    await renamed.getByText('无需审核').waitFor();
    await renamed.getByTestId('form-lock').waitFor();
  });

  it('copies the form (design only) and deletes the copy to the recycle bin', async () => {
    const { page } = admin;
    const table = page.getByTestId('form-admin-table');
    await table.locator('tr', { hasText: RENAMED }).first().getByTestId('form-more').click();
    await page.locator('.ant-dropdown:visible').getByTestId('form-clone-action').click();
    const modal = page.getByTestId('form-clone');
    await expect.poll(() => modal.getByTestId('form-clone-title').inputValue()).toBe(COPY);
    await screenshot(page, 'diy-table-clone-1366');
    await page.getByTestId('form-clone-ok').click();
    await modal.getByTestId('form-clone-title').waitFor({ state: 'hidden' });
    const copy = table.locator('tr', { hasText: COPY });
    await copy.waitFor();
    // The copy keeps the category; the form password is not copied.
    await expect(copy.textContent()).resolves.toContain(CHILD);
    await expect(copy.getByTestId('form-lock').count()).resolves.toBe(0);

    await copy.getByTestId('form-more').click();
    await page.locator('.ant-dropdown:visible').getByTestId('form-delete').click();
    await page.getByText(`“${COPY}”将移入回收站，可在回收站中恢复。确定删除吗？`).waitFor();
    await page.getByTestId('form-delete-ok').click();
    await copy.waitFor({ state: 'detached' });
    await expect(table.locator('tr', { hasText: RENAMED }).count()).resolves.toBe(1);
  });

  it('deletes the empty sub-category; the one holding the form is refused', async () => {
    const { page } = admin;
    await openFromTopMenu(page, '报表中心', '表单分类', /\/diyTable\/classify$/);
    const child = categoryRow(page, CHILD);
    await expect.poll(() => child.getByTestId('classify-form-count').textContent()).toBe('1');
    await child.getByTestId('classify-delete').click();
    await page.locator('.ant-popover:visible').getByTestId('classify-delete-ok').click();
    await page.locator('.ant-message').getByText('分类下仍有表单或子分类，不能删除').waitFor();

    await child.getByTestId('classify-add-child').click();
    const modal = page.getByTestId('classify-modal');
    const name = modal.getByTestId('classify-field-name');
    await name.fill('临时分类');
    await modal.getByTestId('classify-form-submit').click();
    await name.waitFor({ state: 'hidden' });
    const temporary = categoryRow(page, '临时分类');
    await temporary.getByTestId('classify-delete').click();
    await page.locator('.ant-popover:visible').getByTestId('classify-delete-ok').click();
    await temporary.waitFor({ state: 'detached' });
    await expect(child.count()).resolves.toBe(1);
  });
});
