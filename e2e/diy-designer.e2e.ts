import { FIELD_TYPES, type FormDesign } from '@shuzhi/contracts/diy-form';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import {
  apiCall,
  type Browser,
  clickWhenOpened,
  firstSignIn,
  openBrowser,
  screenshot,
  settled,
  tokenOf,
} from './support.ts';

const TITLE = '辖区企业安全生产情况登记表';

/** Drags with real pointer moves (dnd-kit starts a drag after a few pixels of movement). */
async function drag(page: Page, source: Locator, target: Locator, at: 'center' | 'bottom' = 'center') {
  await source.scrollIntoViewIfNeeded();
  await target.scrollIntoViewIfNeeded();
  const from = await source.boundingBox();
  const to = await target.boundingBox();
  if (!from || !to) throw new Error('drag: element not visible');
  const x0 = from.x + from.width / 2;
  const y0 = from.y + from.height / 2;
  const x1 = to.x + to.width / 2;
  const y1 = at === 'bottom' ? to.y + to.height - 8 : to.y + to.height / 2;
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  await page.mouse.move(x0 + 12, y0 + 6, { steps: 4 });
  await page.mouse.move(x1, y1, { steps: 16 });
  await page.mouse.move(x1 + 1, y1 + 1, { steps: 2 });
  await page.mouse.up();
}

/**
 * Drags until `landed` shows. On a loaded machine the browser can miss a synthetic pointer step, and dnd-kit then
 * drops nothing; a person would simply drag again.
 */
async function dragUntil(page: Page, source: Locator, target: Locator, landed: Locator): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await drag(page, source, target);
    try {
      await landed.waitFor({ timeout: 5_000 });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

/**
 * Its own server. The admin creates an empty form through the API, opens `/diyTable/design?id=…` and builds it
 * with every field type: some dragged from the palette with the mouse (a column dropped into a sub-table
 * too), the rest added by click; reorders by dragging; sets a formula and a show-when rule; previews at phone
 * width; is warned when leaving with unsaved changes; publishes; reloads and finds it published.
 */
describe('表单设计: building a form in the designer', () => {
  let shuzhi: RunningShuzhi;
  let admin: Browser;
  let formId = 0;
  let token = '';
  const call = <T>(method: string, path: string, body?: unknown) =>
    apiCall<T>(shuzhi.baseUrl, token, method, path, body);

  beforeAll(async () => {
    shuzhi = await launchShuzhi({ sys_captcha: 'false' });
    admin = await openBrowser();
    await firstSignIn(admin.page, 'admin', shuzhi.baseUrl);
    token = await tokenOf(admin.page);
    formId = await call<number>('POST', '/api/diyTable/add', {
      title: TITLE,
      fillers: { all: true, orgIds: [], roleIds: [], userIds: [], enterprises: false },
    });
  });
  afterAll(async () => {
    await admin?.close();
    await shuzhi?.stop();
  });

  it('builds a form with every field type by dragging and clicking', async () => {
    const { page } = admin;
    await page.goto(`${shuzhi.baseUrl}/diyTable/design?id=${formId}`);
    await page.getByTestId('designer').waitFor();
    await expect(page.getByTestId('designer-state').textContent()).resolves.toBe('未发布');
    await screenshot(page, 'diy-designer-empty-1366');

    const palette = (type: string) => page.getByTestId(`designer-palette-${type}`);
    const field = (id: string) => page.getByTestId(`designer-field-${id}`);

    // Dragged with the mouse: onto the empty canvas, then onto a field (it lands before that field).
    await drag(page, palette('text'), page.getByTestId('designer-canvas'));
    await field('text1').waitFor();
    await drag(page, palette('money'), field('text1'));
    await field('money1')
      .waitFor({ timeout: 5_000 })
      .catch(async (error) => {
        await screenshot(page, 'diy-designer-drag-failed');
        throw error;
      });
    await drag(page, palette('select'), field('text1'));
    await field('select1').waitFor();
    const order = () =>
      page
        .getByTestId('designer-canvas')
        .locator('[data-testid^="designer-field-"]')
        .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-testid')?.slice(15)));
    await expect.poll(order).toEqual(['money1', 'select1', 'text1']);
    // Reorder: 单行文本 dragged onto 金额 moves to the front.
    await drag(page, field('text1'), field('money1'));
    await expect.poll(order).toEqual(['text1', 'money1', 'select1']);

    // Every other type by click (each lands after the selected, newest field).
    const dragged = new Set(['text', 'money', 'select']);
    for (const type of FIELD_TYPES) {
      if (dragged.has(type)) continue;
      await palette(type).click();
      await field(`${type.toLowerCase()}1`).waitFor();
    }
    // A column dragged into the sub-table, and another added from its settings.
    await field('subtable1').click();
    await dragUntil(
      page,
      palette('integer'),
      page.getByTestId('designer-columns-subtable1'),
      field('subtable1.integer2'),
    );
    await page.getByTestId('designer-prop-label').fill('从业人数');

    // The empty formula is a problem until it is written.
    await expect(page.getByTestId('designer-problems').textContent()).resolves.toMatch(/个问题/);
    await field('formula1').click();
    await page.getByTestId('designer-prop-label').fill('安全投入合计');
    await page.getByTestId('designer-formula-ref-money1').click();
    await page.getByTestId('designer-formula-input').press('End');
    await page.getByTestId('designer-formula-input').pressSequentially(' * 2 + ');
    await page.getByTestId('designer-formula-ref-subtable1.integer2').click();
    await expect(page.getByTestId('designer-formula-input').inputValue()).resolves.toBe(
      '{money1} * 2 + {subtable1.integer2}',
    );
    await page.getByTestId('designer-formula-status').getByText('公式正确').waitFor();
    await page.getByTestId('designer-problems').waitFor({ state: 'detached' });

    // 多行文本 shows only when 下拉单选 is 选项2.
    await field('textarea1').click();
    await page.getByTestId('designer-showwhen-add').click();
    await page.getByTestId('designer-showwhen-field-0').click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '下拉单选' })
      .click();
    await page.getByTestId('designer-showwhen-value-0').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '选项2' }).click();
    await expect(field('textarea1').locator('.anticon-eye-invisible').count()).resolves.toBe(1);

    // Half width for 单行文本 via the span presets; the label of 金额.
    await field('text1').click();
    await page.getByTestId('designer-prop-label').fill('企业名称');
    await page.getByTestId('designer-prop-required').click();
    await field('money1').click();
    await page.getByTestId('designer-prop-label').fill('安全生产投入');
    await page.getByTestId('designer-prop-span').getByText('1/2').click();

    // Form settings: record numbers.
    await page.getByTestId('designer-canvas-scroll').click({ position: { x: 4, y: 4 } });
    await page.getByTestId('designer-form-panel').waitFor();
    await page.getByTestId('designer-form-numbering').click();
    await page.getByTestId('designer-form-prefix').fill('AQ');
    await expect(page.getByTestId('designer-form-sample').textContent()).resolves.toMatch(/AQ\d{8}0001/);

    await field('formula1').click();
    await page.mouse.move(5, 760);
    await screenshot(page, 'diy-designer-1366');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await screenshot(page, 'diy-designer-1920');
    await page.setViewportSize({ width: 1366, height: 768 });
  });

  it('previews at phone width', async () => {
    const { page } = admin;
    await page.getByTestId('designer-preview').click();
    const modal = page.getByTestId('designer-preview-modal');
    await modal.getByTestId('diy-design-preview').waitFor();
    await modal.getByTestId('diy-preview-width').getByText('手机').click();
    await modal.getByTestId('diy-field-text1').waitFor();
    // Show-when: 多行文本 is hidden until 下拉单选 is 选项2.
    await expect(modal.getByTestId('diy-field-textarea1').count()).resolves.toBe(0);
    await screenshot(page, 'diy-designer-preview-phone');
    await page.getByTestId('designer-preview-close').click();
    await modal.waitFor({ state: 'hidden' });
  });

  it('warns before leaving with unsaved changes, then publishes and stays published after a reload', async () => {
    const { page } = admin;
    // The browser's Back button asks as well, and staying keeps the page and its changes.
    await page.goBack();
    await clickWhenOpened(page.locator('.ant-modal-confirm').getByRole('button', { name: '继续编辑' }));
    await page.getByTestId('designer-leave-ok').waitFor({ state: 'detached' });
    expect(page.url()).toContain('/diyTable/design');
    await expect(page.getByTestId('designer-dirty').textContent()).resolves.not.toContain('已保存');

    await page.getByTestId('designer-back').click();
    await clickWhenOpened(page.locator('.ant-modal-confirm').getByRole('button', { name: '继续编辑' }));
    await page.getByTestId('designer-leave-ok').waitFor({ state: 'detached' });
    expect(page.url()).toContain('/diyTable/design');

    await page.getByTestId('designer-publish').click();
    await page.getByTestId('designer-publish-ok').click();
    // The state tag, not the passing toast (under load it can be gone before it is looked for).
    await expect.poll(() => page.getByTestId('designer-state').textContent()).toBe('已发布');
    await expect.poll(() => page.getByTestId('designer-dirty').textContent()).toContain('已保存');

    await page.reload();
    await page.getByTestId('designer').waitFor();
    await expect(page.getByTestId('designer-version').textContent()).resolves.toBe('V1');
    await expect(page.getByTestId('designer-state').textContent()).resolves.toBe('已发布');
    await page.getByTestId('designer-field-formula1').waitFor();

    const stored = await call<{ published: FormDesign; versions: unknown[] }>(
      'GET',
      `/api/diyTable/${formId}`,
    );
    expect(stored.versions.length).toBe(1);
    const types = new Set(
      stored.published.fields.flatMap((f) => [f.type, ...(f.columns ?? []).map((c) => c.type)]),
    );
    expect([...types].sort()).toEqual([...FIELD_TYPES].sort());
    const formula = stored.published.fields.find((f) => f.id === 'formula1');
    expect(formula?.formula).toBe('{money1} * 2 + {subtable1.integer2}');
    expect(stored.published.fields.find((f) => f.id === 'textarea1')?.showWhen?.rules[0]).toMatchObject({
      field: 'select1',
      op: 'eq',
      value: '2',
    });
    expect(stored.published.numbering?.prefix).toBe('AQ');

    await page.getByTestId('designer-versions').click();
    await page.getByTestId('designer-version-view-1').click();
    const versionView = page.getByTestId('designer-preview-modal');
    await versionView.getByText('V1 设计（只读）').waitFor();
    await versionView.getByTestId('diy-field-formula1').waitFor();
    await screenshot(page, 'diy-designer-version-1366');
  });

  it('keeps inputs usable and labels whole in a four-column row at 1366', async () => {
    const { page } = admin;
    const forms = await call<{ value: number; label: string }[]>('GET', '/api/diyTable/select');
    const population = forms.find((f) => f.label === '社区人口月报');
    if (!population) throw new Error('the seeded 社区人口月报 is missing');
    await page.goto(`${shuzhi.baseUrl}/diyTable/design?id=${population.value}`);
    const born = page.getByTestId('designer-field-born');
    await born.waitFor();
    await born.scrollIntoViewIfNeeded();
    await settled(page);
    // 出生, 死亡, 迁入, 迁出 share one row: each input keeps a usable width under its label.
    for (const id of ['born', 'died', 'movein', 'moveout']) {
      const card = page.getByTestId(`designer-field-${id}`);
      const input = await card.locator('[class*="mockInput"]').boundingBox();
      expect(input?.width ?? 0, id).toBeGreaterThanOrEqual(120);
    }
    // A three-column label is shown whole, not cut: 老年人口占比（%）.
    const label = page.getByTestId('designer-field-elderrate').locator('[class*="labelText"]');
    await expect(label.textContent()).resolves.toBe('老年人口占比（%）');
    await expect(label.evaluate((el) => el.scrollWidth <= el.clientWidth)).resolves.toBe(true);
    await screenshot(page, 'diy-designer-four-columns-1366');
  });
});
