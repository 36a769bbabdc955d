import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import {
  apiCall,
  type Browser,
  type DeviceOptions,
  fillLogin,
  firstSignIn,
  NEW_PASSWORD,
  openBrowser,
  screenshot,
  tokenOf,
} from './support.ts';

const FORM = '垃圾分类整改登记';
const PHONE = { width: 375, height: 812 };
/** A phone on 南京东路: touch, the mobile viewport, location allowed and set (WGS 84). */
const DEVICE: DeviceOptions = {
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 2,
  permissions: ['geolocation'],
  geolocation: { latitude: 31.2363, longitude: 121.4808, accuracy: 12 },
};

const DESIGN = {
  fields: [
    { id: 'place', type: 'text', label: '点位名称', required: true, span: 12 },
    { id: 'bins', type: 'integer', label: '桶数', span: 6 },
    { id: 'day', type: 'date', label: '检查日期', span: 6 },
    { id: 'spot', type: 'location', label: '现场位置', required: true },
    { id: 'photos', type: 'image', label: '现场照片', maxFiles: 3 },
    {
      id: 'items',
      type: 'subTable',
      label: '问题',
      columns: [
        { id: 'what', type: 'text', label: '问题描述', required: true },
        { id: 'count', type: 'integer', label: '数量' },
      ],
    },
  ],
};

type Values = Record<string, unknown>;

/**
 * Issue 22 §3, filling on a phone (375×812, touch, GPS allowed): a signed-in inspector files a record in the
 * fill drawer — one column, the phone's date picker, the location with its accuracy, a photo taken with the
 * camera input and compressed before upload, problems as stacked cards, a refused submit scrolled to the
 * field — and a stranger fills the same form through a QR link on /scancode, location included.
 */
describe('filling on a phone', () => {
  let shuzhi: RunningShuzhi;
  let staff: Browser;
  let token = '';
  let tableId = 0;

  beforeAll(async () => {
    shuzhi = await launchShuzhi({ sys_captcha: 'false' });
    // The first sign-in's password change on a desktop; the inspector then signs in on the phone.
    const desk = await openBrowser();
    try {
      await firstSignIn(desk.page, 'admin', shuzhi.baseUrl);
    } finally {
      await desk.close();
    }
    staff = await openBrowser(PHONE, DEVICE);
    await fillLogin(staff.page, 'admin', NEW_PASSWORD, shuzhi.baseUrl);
    await staff.page.waitForURL(/\/dashboard$/);
    token = await tokenOf(staff.page);
    tableId = await apiCall<number>(shuzhi.baseUrl, token, 'POST', '/api/diyTable/add', {
      title: FORM,
      fillers: { all: true, orgIds: [], roleIds: [], userIds: [], enterprises: false },
    });
    await apiCall(shuzhi.baseUrl, token, 'PUT', '/api/diyTable/design', {
      id: tableId,
      design: DESIGN,
      publish: true,
    });
  });
  afterAll(async () => {
    await staff?.close();
    await shuzhi?.stop();
  });

  it('files a record from a phone: native pickers, GPS, a compressed photo, cards, errors in view', async () => {
    const { page } = staff;
    await page.goto(`${shuzhi.baseUrl}/diyReport/index/formTable?id=${tableId}`);
    await page.getByTestId('diy-record-add').click();
    const drawer = page.getByTestId('diy-fill');
    await drawer.getByTestId('diy-fill-body').waitFor();
    await expect(drawer.getByTestId('diy-form').getAttribute('data-width')).resolves.toBe('phone');
    // Nothing lays the page out wider than the phone (the drawer would sit off the screen).
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(
      PHONE.width,
    );
    await expect(page.locator('#diy-fill-day').getAttribute('type')).resolves.toBe('date');
    await expect(page.locator('#diy-fill-bins').getAttribute('inputmode')).resolves.toBe('numeric');
    await screenshot(page, 'phone-fill-empty-375');

    await page.locator('#diy-fill-place').fill('南京东路 300 弄');
    await page.locator('#diy-fill-bins').fill('4');
    await page.locator('#diy-fill-day').fill('2026-11-28');
    await page.getByTestId('diy-row-add-items').click();
    await page.getByTestId('diy-row-add-items').click();
    await page.locator('#diy-fill-items-0-what').fill('厨余垃圾混投');
    await page.locator('#diy-fill-items-0-count').fill('2');

    // Submitting without the location and the second problem: the first refused field comes into view.
    await drawer.getByTestId('diy-fill-submit').tap();
    const spotError = drawer.getByTestId('diy-error-diy-fill-spot');
    await spotError.waitFor();
    await expect(spotError.textContent()).resolves.toBe('现场位置不能为空');
    await drawer.getByTestId('diy-error-diy-fill-items-1-what').waitFor();
    await page.waitForFunction(() => {
      const field = document.querySelector('[data-field-path="spot"]');
      const bar = document.querySelector('[data-testid="diy-fill-bar"]');
      if (!field || !bar) return false;
      const box = field.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= bar.getBoundingClientRect().top;
    });
    await screenshot(page, 'phone-fill-errors-375');

    await page.getByTestId('diy-input-diy-fill-spot-locate').tap();
    const value = page.getByTestId('diy-input-diy-fill-spot-value');
    await value.waitFor();
    await expect(value.textContent()).resolves.toContain('31.236300, 121.480800');
    await expect(page.getByTestId('diy-input-diy-fill-spot-accuracy').textContent()).resolves.toBe(
      '精度约 12 米',
    );
    await page.getByTestId('diy-row-remove-items-1').tap();
    await page.getByRole('button', { name: /确\s*定/ }).tap();
    await page.getByTestId('diy-row-card-items-1').waitFor({ state: 'detached' });

    // A camera photo: a 4000×3000 JPEG of noise (several MB), made in this page as a camera would give it.
    const photo = await page.evaluate(async () => {
      const canvas = document.createElement('canvas');
      canvas.width = 4000;
      canvas.height = 3000;
      const context = canvas.getContext('2d') as CanvasRenderingContext2D;
      const data = context.createImageData(4000, 3000);
      for (let i = 0; i < data.data.length; i++) data.data[i] = (i * 2654435761) % 251;
      context.putImageData(data, 0, 0);
      const blob = await new Promise<Blob | null>((done) => canvas.toBlob(done, 'image/jpeg', 0.95));
      const bytes = new Uint8Array(await (blob as Blob).arrayBuffer());
      let text = '';
      for (let i = 0; i < bytes.length; i += 0x8000)
        text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return btoa(text);
    });
    const original = Buffer.from(photo, 'base64');
    expect(original.length).toBeGreaterThan(1_000_000);
    const camera = page.getByTestId('diy-input-diy-fill-photos-camera');
    const input = camera.locator('xpath=ancestor::span[1]//input[@type="file"]');
    await expect(input.getAttribute('capture')).resolves.toBe('environment');
    await input.setInputFiles({ name: 'IMG_20261128_0930.jpg', mimeType: 'image/jpeg', buffer: original });
    await page.getByTestId('diy-image-item').waitFor();
    await page.getByTestId('diy-row-card-items-0').scrollIntoViewIfNeeded();
    await screenshot(page, 'phone-fill-cards-375');

    await drawer.getByTestId('diy-fill-submit').tap();
    await drawer.getByTestId('diy-fill-body').waitFor({ state: 'hidden' });
    await screenshot(page, 'phone-fill-list-375');

    const records = await apiCall<{ items: { id: number; values: Values }[] }>(
      shuzhi.baseUrl,
      token,
      'POST',
      `/api/diyData/${tableId}/page`,
      { page: 1, pageSize: 10 },
    );
    expect(records.items).toHaveLength(1);
    const record = records.items[0] as { id: number; values: Values };
    expect(record.values).toMatchObject({
      place: '南京东路 300 弄',
      bins: 4,
      day: '2026-11-28',
      spot: { lat: 31.2363, lng: 121.4808, accuracy: 12 },
      items: [{ what: '厨余垃圾混投', count: 2 }],
    });
    const files = await apiCall<{ fileName: string; size: number }[]>(
      shuzhi.baseUrl,
      token,
      'GET',
      `/api/sysFile/listByBelong?belongId=${record.id}`,
    );
    expect(files).toHaveLength(1);
    expect(files[0]?.fileName).toBe('IMG_20261128_0930.jpg');
    expect(files[0]?.size).toBeLessThan(original.length / 2);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE.width);
  });

  it('lets a stranger file the same form with the location from a QR link', async () => {
    const link = await apiCall<{ url: string }>(shuzhi.baseUrl, token, 'POST', '/api/sysNoLoginLink/add', {
      title: '整改扫码',
      qrType: 'form',
      tableId,
      mode: 'fillMany',
      days: 1,
    });
    const phone = await openBrowser(PHONE, {
      ...DEVICE,
      geolocation: { latitude: 31.2401, longitude: 121.4852, accuracy: 30 },
    });
    try {
      const { page } = phone;
      await page.goto(new URL(link.url, shuzhi.baseUrl).toString());
      await page.locator('#scancode-place').waitFor();
      await page.locator('#scancode-place').fill('河南中路口');
      await page.getByTestId('diy-row-add-items').tap();
      await page.locator('#scancode-items-0-what').fill('桶满溢');
      await page.getByTestId('diy-input-scancode-spot-locate').tap();
      await page.getByTestId('diy-input-scancode-spot-value').waitFor();
      await expect(page.getByTestId('diy-subtable-items').getAttribute('data-layout')).resolves.toBe('cards');
      await screenshot(page, 'phone-scancode-375');
      await page.getByTestId('scancode-submit').tap();
      await page.getByTestId('scancode-done').waitFor();
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(PHONE.width);
    } finally {
      await phone.close();
    }
    const records = await apiCall<{ items: { values: Values }[] }>(
      shuzhi.baseUrl,
      token,
      'POST',
      `/api/diyData/${tableId}/page`,
      { page: 1, pageSize: 10 },
    );
    expect(records.items.map((r) => r.values.place)).toContain('河南中路口');
    const filed = records.items.find((r) => r.values.place === '河南中路口');
    expect(filed?.values.spot).toMatchObject({ lat: 31.2401, lng: 121.4852, accuracy: 30 });
  });
});
