import type { TaskDetail } from '@shuzhi/contracts/diy-task';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import {
  apiCall,
  type Browser,
  firstSignIn,
  openBrowser,
  openFromTopMenu,
  screenshot,
  tokenOf,
} from './support.ts';

const FORM = '社区人口月报';
const COMMUNITY = '贵州路居民委员会';
const OTHER = '福州路居民委员会';

/** A time `days` from now in the product's zone (Asia/Shanghai), as the task form takes it. */
function daysAhead(days: number): string {
  const shanghai = new Date(Date.now() + 8 * 3_600_000 + days * 86_400_000);
  return `${shanghai.toISOString().slice(0, 10)} 18:00`;
}

/**
 * In the page: the centre of the point the trend's canvas shows on the on-time rate line at 50% (the line's blue,
 * on the height of 50% of the rate axis: grid top 36, bottom 40), in page coordinates, once it is drawn at its full
 * size (7 px; it grows in after the chart's sweep); null until then.
 */
function lonePoint(card: Element): { x: number; y: number } | null {
  const canvas = card.querySelector('canvas');
  const ctx = canvas?.getContext('2d');
  if (!canvas || !ctx) return null;
  const box = canvas.getBoundingClientRect();
  const scale = canvas.width / box.width;
  const y = Math.round((36 + (box.height - 76) / 2) * scale);
  const row = ctx.getImageData(0, y, canvas.width, 1).data;
  const blue: number[] = [];
  for (let x = 0; x < canvas.width; x++) {
    const [r, g, b] = [row[x * 4], row[x * 4 + 1], row[x * 4 + 2]] as [number, number, number];
    // #1677ff, the line's colour (anti-aliased edges come close to it).
    if (b > 200 && r < 90 && g > 80 && g < 170) blue.push(x);
  }
  if (blue.length === 0) return null;
  const [left, right] = [blue[0] as number, blue.at(-1) as number];
  if (right - left < 6 * scale) return null;
  return { x: box.left + (left + right) / 2 / scale, y: box.top + y / scale };
}

/**
 * Issue 20 §3, efficiency analysis: the district hands 社区人口月报 to two communities; 吴静 (贵州路) files and
 * submits; 系统管理员 opens 报表中心 › 效率分析 and sees the on-time rate of half, 贵州路 first in the ranking at
 * 100%; the level filter (街道) empties the page; 王海燕 (the street's leader) sees her two communities only.
 */
describe('效率分析: the figures of a task as the units filed it', () => {
  let shuzhi: RunningShuzhi;
  let district: Browser;
  const call = <T>(token: string, method: string, path: string, body?: unknown) =>
    apiCall<T>(shuzhi.baseUrl, token, method, path, body);

  beforeAll(async () => {
    shuzhi = await launchShuzhi({ sys_captcha: 'false' });
    district = await openBrowser();
    const community = await openBrowser();
    try {
      await firstSignIn(district.page, 'admin', shuzhi.baseUrl);
      await firstSignIn(community.page, 'gzlstaff', shuzhi.baseUrl);
      const admin = await tokenOf(district.page);
      const staff = await tokenOf(community.page);
      const forms = await call<{ id: number; title: string }[]>(admin, 'GET', '/api/diyTable/list');
      const formId = forms.find((f) => f.title === FORM)?.id as number;
      const orgs = await call<{ id: number; name: string }[]>(
        admin,
        'GET',
        '/api/sysOrg/list?Type=community',
      );
      const org = (name: string) => orgs.find((o) => o.name === name)?.id as number;
      const taskId = await call<number>(admin, 'POST', '/api/diyTask/add', {
        title: '效率分析演示任务',
        forms: [{ tableId: formId }],
        dueTime: daysAhead(5),
        receivers: { orgIds: [org(COMMUNITY), org(OTHER)] },
      });
      const task = await call<TaskDetail>(admin, 'GET', `/api/diyTask/detail?id=${taskId}`);
      const periodId = task.forms[0]?.periodId as number;
      const periods = await call<{ id: number; key: string }[]>(
        staff,
        'GET',
        `/api/diyPeriod/list?tableId=${formId}`,
      );
      await call<number>(staff, 'POST', `/api/diyData/${formId}/add`, {
        periodId,
        values: {
          month: periods.find((p) => p.id === periodId)?.key,
          unit: org(COMMUNITY),
          filler: '吴静',
          huji: 3001,
          liudong: 998,
          elderly: 1190,
        },
        submit: true,
      });
    } finally {
      await community.close();
    }
  });
  afterAll(async () => {
    await district?.close();
    await shuzhi?.stop();
  });

  it('shows the on-time rate and the ranking, filtered by level', async () => {
    const { page } = district;
    await openFromTopMenu(page, '报表中心', '效率分析', /\/dataBoard\/index/);
    const rate = page.getByTestId('efficiency-kpi-onTimeRate');
    await rate.getByText('50.0%').waitFor();
    expect(await rate.textContent()).toContain('应报 2 项，已报 1 项');
    const rows = page.getByTestId('efficiency-ranking').locator('tbody tr.ant-table-row');
    await rows.first().getByText(COMMUNITY).waitFor();
    expect(await rows.count()).toBe(2);
    expect(await rows.first().textContent()).toContain('100.0%');
    await screenshot(page, 'efficiency-board');
    await page.getByTestId('efficiency-ranking').scrollIntoViewIfNeeded();
    await screenshot(page, 'efficiency-ranking');
    await page.getByTestId('efficiency-trend').scrollIntoViewIfNeeded();
    // The task's month is the only one with figures: a lone point, drawn by its symbol only (no line to a
    // neighbour). Wait until the canvas shows it (the symbol grows in after the chart's sweep), then its tooltip.
    const point = await page.waitForFunction(
      lonePoint,
      await page.getByTestId('efficiency-trend').elementHandle(),
    );
    const { x, y } = (await point.jsonValue()) as { x: number; y: number };
    await screenshot(page, 'efficiency-trend');
    await page.mouse.move(x, y);
    await page
      .getByTestId('efficiency-trend')
      .getByText(/按时率\s*50/)
      .first()
      .waitFor();

    await page.getByTestId('efficiency-level').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '街道' }).click();
    await page.getByTestId('efficiency-empty').waitFor();
  });

  it('a street leader sees the units of her street only', async () => {
    const street = await openBrowser();
    try {
      await firstSignIn(street.page, 'njdleader', shuzhi.baseUrl);
      await street.page.goto(`${shuzhi.baseUrl}/dataBoard/index`);
      const rows = street.page.getByTestId('efficiency-ranking').locator('tbody tr.ant-table-row');
      await rows.first().waitFor();
      expect(await rows.count()).toBe(2);
      expect(await street.page.getByTestId('efficiency-counts').textContent()).toContain('单位数：2');
    } finally {
      await street.close();
    }
  });
});
