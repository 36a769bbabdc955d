import type { FormDesign } from '@shuzhi/contracts/diy-form';
import type { PeriodRow } from '@shuzhi/contracts/diy-period';
import type { DiyRecord } from '@shuzhi/contracts/diy-table';
import type { PageResult } from '@shuzhi/contracts/envelope';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import { type Browser, pageCall as call, firstSignIn, openBrowser, screenshot } from './support.ts';

const FORM = '社区人口月报';
/** Layout fields hold no value: they are not fields anyone fills. */
const LAYOUT = new Set(['section', 'staticText']);

/** Last month as 吴静 reports it by hand: every figure differs from the seeded months. */
const PERIOD_1 = {
  huji: '3002',
  liudong: '996',
  jingwai: '38',
  elderly: '1190',
  born: '4',
  died: '2',
  movein: '8',
  moveout: '3',
  phone: '13701830088',
  remark: '辖区一处老公房完成加装电梯，部分老人回迁。',
};
/** This month's changes: the figures that truly move from one month to the next. */
const PERIOD_2 = { born: '1', died: '4', movein: '6', moveout: '9' };

/**
 * Issue 16 §7, 为基层减负: a grassroots filler never types the same figure twice. 吴静 (gzlstaff, 贵州路居民委员会)
 * files the seeded 社区人口月报 for last month by hand, then for this month with what the product offers: the
 * stock figures marked 每期沿用 come from last month's record, 统计月份 / 填报单位 / 填报人 from the period and
 * herself, 实有人口合计 / 老年人口占比 / 净增人口 are formulas. The test records every input it types; this month
 * it types only the month's changes (出生, 死亡, 迁入, 迁出). The record is read back from the API: each value
 * it did not type is really there, from the product. The share typed is printed and must stay under 30%.
 *
 * Setup: 贵州路 filed last month in the seed; staff reopen that month if its dates have passed and remove the
 * seeded record, so that 吴静 files it afresh in this run.
 */
describe('fill effort: the second period asks only for what changed', () => {
  let shuzhi: RunningShuzhi;
  let admin: Browser;
  let filler: Browser;
  let formId: number;
  let design: FormDesign;
  let last: PeriodRow;
  let current: PeriodRow;
  let me: { realName: string; orgId: number };

  beforeAll(async () => {
    shuzhi = await launchShuzhi({ sys_captcha: 'false' });
    admin = await openBrowser();
    await firstSignIn(admin.page, 'admin', shuzhi.baseUrl);
    filler = await openBrowser();
    await firstSignIn(filler.page, 'gzlstaff', shuzhi.baseUrl);

    const forms = await call<{ value: number; label: string }[]>(admin.page, 'GET', '/api/diyTable/select');
    const form = forms.find((f) => f.label === FORM);
    if (!form) throw new Error(`the seeded ${FORM} is missing`);
    formId = form.value;
    const detail = await call<{ published: FormDesign | null }>(admin.page, 'GET', `/api/diyTable/${formId}`);
    if (!detail.published) throw new Error(`${FORM} is not published`);
    design = detail.published;
    me = await call<{ realName: string; orgId: number }>(filler.page, 'GET', '/api/sysAuth/userInfo');

    const periods = await call<PeriodRow[]>(filler.page, 'GET', `/api/diyPeriod/list?tableId=${formId}`);
    const started = periods.filter((p) => p.state !== 'upcoming');
    [current, last] = started as [PeriodRow, PeriodRow];
    if (!current || !last) throw new Error(`two periods expected: ${JSON.stringify(periods)}`);
    if (last.state === 'overdue' || last.state === 'closed') {
      const until = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
      await call(admin.page, 'POST', '/api/diyPeriod/reopen', {
        id: last.id,
        comment: '贵州路居委会重新报送上月人口情况',
        until,
      });
    }
    const seeded = await ownRecord(last);
    if (seeded) await call(admin.page, 'DELETE', `/api/diyData/${formId}/${seeded.id}`);
  });
  afterAll(async () => {
    await filler?.close();
    await admin?.close();
    await shuzhi?.stop();
  });

  /** 吴静's live record of a period, read with her own session (null when there is none). */
  async function ownRecord(period: PeriodRow): Promise<DiyRecord | null> {
    const page = await call<PageResult<DiyRecord>>(filler.page, 'POST', `/api/diyData/${formId}/page`, {
      page: 1,
      pageSize: 100,
      periodId: period.id,
    });
    const found = page.items.find((r) => r.createOrgId === me.orgId);
    return found ? call<DiyRecord>(filler.page, 'GET', `/api/diyData/${formId}/${found.id}`) : null;
  }

  /** Opens a new record of the period from the record list (the period picked by the URL). */
  async function newRecord(page: Page, period: PeriodRow): Promise<Locator> {
    await page.goto(`${shuzhi.baseUrl}/diyReport/index/formTable?id=${formId}&periodId=${period.id}`);
    await page.getByTestId('diy-record-add').click();
    const drawer = page.getByTestId('diy-fill');
    await drawer.getByTestId('diy-fill-body').waitFor();
    const banner = drawer.getByTestId('diy-fill-period');
    await banner.getByText(`新记录将填报到“${period.name}”`).waitFor();
    // 每期沿用: the stock figures and the contact number arrive from the month before on their own (the
    // seeded one for last month); typing starts once they are in.
    await banner.getByText(/带入 5 项每期沿用的数据/).waitFor();
    return drawer;
  }

  /** Types into fields of the form, keeping which ones the filler had to type. */
  function typist(drawer: Locator) {
    const typed = new Set<string>();
    const input = (id: string) =>
      drawer.getByTestId(`diy-field-${id}`).locator(id === 'remark' ? 'textarea' : 'input');
    return {
      typed,
      input,
      async type(values: Record<string, string>) {
        for (const [id, value] of Object.entries(values)) {
          await input(id).fill(value);
          typed.add(id);
        }
      },
    };
  }

  async function submit(drawer: Locator): Promise<void> {
    await drawer.getByTestId('diy-fill-submit').click();
    await drawer.waitFor({ state: 'hidden' });
  }

  const valueFields = () => design.fields.filter((f) => !LAYOUT.has(f.type));

  it('last month: 吴静 types the month’s figures herself', async () => {
    const { page } = filler;
    const drawer = await newRecord(page, last);
    const form = typist(drawer);
    await form.type(PERIOD_1);
    await submit(drawer);
    const saved = await ownRecord(last);
    expect(saved?.values).toMatchObject(
      Object.fromEntries(
        Object.entries(PERIOD_1).map(([k, v]) => [k, k === 'phone' || k === 'remark' ? v : Number(v)]),
      ),
    );
    console.log(`fill effort, ${last.name}: typed ${form.typed.size} of ${valueFields().length} fields`);
  });

  it('this month: only the changes are typed; the rest comes from last month, defaults and formulas', async () => {
    const { page } = filler;
    const drawer = await newRecord(page, current);
    const form = typist(drawer);
    // 每期沿用: the stock figures and the contact number arrive from last month's record on their own.
    await drawer
      .getByTestId('diy-fill-period')
      .getByText(`已从“${last.name}”带入 5 项`, { exact: false })
      .waitFor();
    expect(await form.input('huji').inputValue()).toBe(PERIOD_1.huji);
    expect(await form.input('phone').inputValue()).toBe(PERIOD_1.phone);
    await form.type(PERIOD_2);
    await screenshot(page, 'fill-effort-second-period');
    await submit(drawer);

    const saved = await ownRecord(current);
    if (!saved) throw new Error('this month’s record was not saved');
    const v = saved.values;
    const n = (id: string) => Number(v[id]);
    // Typed.
    for (const [id, value] of Object.entries(PERIOD_2)) expect(n(id), id).toBe(Number(value));
    // Carried from last month (每期沿用).
    for (const id of ['huji', 'liudong', 'jingwai', 'elderly'] as const) {
      expect(n(id), id).toBe(Number(PERIOD_1[id]));
    }
    expect(v.phone).toBe(PERIOD_1.phone);
    // Defaults: the period, her unit, herself.
    expect(v.month).toBe(current.key);
    expect(v.unit).toBe(me.orgId);
    expect(v.filler).toBe(me.realName);
    // Formulas, computed by the server.
    const total = n('huji') + n('liudong') + n('jingwai');
    expect(n('total')).toBe(total);
    expect(n('elderrate')).toBeCloseTo((n('elderly') * 100) / total, 2);
    expect(n('net')).toBe(n('born') - n('died') + n('movein') - n('moveout'));

    // The serial number, given on submission.
    expect(v.sn).toMatch(/^RK\d{10}$/);

    // Every field holding a value is accounted for: typed, or filled by the product. 情况说明 describes the
    // month: it is not carried, and she had nothing to say this month.
    const fields = valueFields();
    const left = fields.filter((f) => v[f.id] === null || v[f.id] === undefined || v[f.id] === '');
    expect(left.map((f) => f.id)).toEqual(['remark']);
    const typed = [...form.typed].sort();
    expect(typed).toEqual(['born', 'died', 'movein', 'moveout']);
    const share = typed.length / fields.length;
    console.log(
      `fill effort, ${current.name}: typed ${typed.length} of ${fields.length} fields ` +
        `(${(share * 100).toFixed(1)}%): ${typed.join(', ')}`,
    );
    expect(share).toBeLessThan(0.3);
  });
});
