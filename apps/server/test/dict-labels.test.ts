import type { AllDictList, DictDataItem } from '@shuzhi/contracts/dict';
import type { DictDataRow, DictTypeRow } from '@shuzhi/contracts/dict-admin';
import { DICT_ITEM_LABELS, DICT_TYPE_NAMES, dictItemLabel } from '@shuzhi/contracts/dict-labels';
import type { PageResult } from '@shuzhi/contracts/envelope';
import { LOCALES, type Locale } from '@shuzhi/contracts/i18n';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DICTS } from '../src/db/seeds/data/dicts.ts';
import { authed, body, createTestApp, login, type TestApp } from './helpers.ts';

let t: TestApp;
let admin: string;
let staff: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await login(t.app, 'superadmin')).accessToken;
  staff = (await login(t.app, 'fgwstaff')).accessToken;
});
afterAll(async () => {
  await t?.close();
});

async function get<T>(url: string, language?: string, token = staff): Promise<T> {
  const env = body<T>(
    await authed(t.app, token, { url, headers: language ? { 'accept-language': language } : {} }),
  );
  expect(env.code, `${url} ${JSON.stringify(env)}`).toBe(200);
  return env.result as T;
}

async function post<T>(url: string, payload: unknown, language?: string): Promise<T> {
  const env = body<T>(
    await authed(t.app, admin, {
      method: 'POST',
      url,
      payload: payload as object,
      headers: language ? { 'accept-language': language } : {},
    }),
  );
  expect(env.code, `${url} ${JSON.stringify(env)}`).toBe(200);
  return env.result as T;
}

const allDicts = (language?: string) => get<AllDictList>('/api/sysDictType/allDictList', language);
const version = (language?: string) => get<number>('/api/sysDictType/version', language);
const labels = (items: readonly DictDataItem[] | undefined) => (items ?? []).map((i) => i.label);

async function typeId(code: string): Promise<number> {
  const page = await post<PageResult<DictTypeRow>>('/api/sysDictType/page', { code });
  const row = page.items.find((r) => r.code === code);
  if (!row) throw new Error(`no dict type ${code}`);
  return row.id;
}

describe('the translation table', () => {
  it('has an en and zh-TW label for every seeded item, keyed on the seeded zh-CN text', () => {
    for (const type of DICTS) {
      expect(DICT_TYPE_NAMES[type.code]?.['zh-CN'], type.code).toBe(type.name);
      for (const locale of LOCALES) expect(DICT_TYPE_NAMES[type.code]?.[locale], type.code).toBeTruthy();
      for (const item of type.items) {
        const entry = DICT_ITEM_LABELS[type.code]?.[item.value];
        expect(entry?.['zh-CN'], `${type.code}.${item.value}`).toBe(item.label);
        for (const locale of LOCALES) expect(entry?.[locale], `${type.code}.${item.value}`).toBeTruthy();
      }
    }
  });

  it('has no entries for items that are not seeded', () => {
    const seeded = new Set(DICTS.flatMap((type) => type.items.map((item) => `${type.code}.${item.value}`)));
    const listed = Object.entries(DICT_ITEM_LABELS).flatMap(([code, items]) =>
      Object.keys(items).map((value) => `${code}.${value}`),
    );
    expect(listed.filter((key) => !seeded.has(key))).toEqual([]);
    expect(Object.keys(DICT_TYPE_NAMES).sort()).toEqual(DICTS.map((type) => type.code).sort());
  });

  it('translates only the seeded text', () => {
    expect(dictItemLabel('org_type', 'district', '区', 'en')).toBe('District');
    expect(dictItemLabel('org_type', 'district', '区', 'zh-TW')).toBe('區');
    expect(dictItemLabel('org_type', 'district', '城区', 'en')).toBe('城区');
    expect(dictItemLabel('org_type', 'no_such', '区', 'en')).toBe('区');
    expect(dictItemLabel('custom_type', 'district', '区', 'en')).toBe('区');
  });
});

describe('dictionary labels in the request language', () => {
  it('allDictList and dataList label the built-in items in the caller language', async () => {
    const expected: Record<Locale, string[]> = {
      'zh-CN': ['区', '街道', '社区', '网格', '部门', '企业'],
      en: ['District', 'Street', 'Community', 'Grid', 'Department', 'Enterprise'],
      'zh-TW': ['區', '街道', '社區', '網格', '部門', '企業'],
    };
    expect(labels((await allDicts())?.org_type)).toEqual(expected['zh-CN']);
    for (const locale of LOCALES) {
      expect(labels((await allDicts(locale)).org_type), locale).toEqual(expected[locale]);
      for (const service of ['sysDictType', 'sysDictData']) {
        const items = await get<DictDataItem[]>(`/api/${service}/dataList?Code=org_type`, locale);
        expect(labels(items), `${service} ${locale}`).toEqual(expected[locale]);
      }
    }
    // A browser's full header picks the best supported language.
    expect(labels((await allDicts('en-GB,en;q=0.9,zh;q=0.5')).status)).toEqual(['Enabled', 'Disabled']);
    expect(labels((await allDicts('zh-Hant-TW')).notice_status)).toEqual(
      expect.arrayContaining(['草稿', '已發布', '已撤回']),
    );
    // Every seeded item comes translated.
    const en = await allDicts('en');
    for (const type of DICTS) {
      for (const item of type.items) {
        const shown = en[type.code]?.find((i) => i.value === item.value)?.label;
        expect(shown, `${type.code}.${item.value}`).toBe(DICT_ITEM_LABELS[type.code]?.[item.value]?.en);
      }
    }
  });

  it('keeps one version per language, each stable until a dictionary changes', async () => {
    const before = { zh: await version('zh-CN'), en: await version('en'), tw: await version('zh-TW') };
    expect(new Set(Object.values(before)).size).toBe(3);
    expect(await version('en')).toBe(before.en);
    expect(await version()).toBe(before.zh);
  });

  it('shows a label an admin edited as typed in every language, and the admin pages the stored label', async () => {
    const orgType = await typeId('org_type');
    const page = await post<PageResult<DictDataRow>>(
      '/api/sysDictData/page',
      { dictTypeId: orgType, pageSize: 50 },
      'en',
    );
    // The admin screens edit what is stored, whatever the UI language.
    const street = page.items.find((r) => r.value === 'street');
    expect(street?.label).toBe('街道');
    const listed = await get<DictDataRow[]>(`/api/sysDictData/list?dictTypeId=${orgType}`, 'en', admin);
    expect(listed.find((r) => r.value === 'street')?.label).toBe('街道');

    const versions = { en: await version('en'), tw: await version('zh-TW') };
    await post('/api/sysDictData/update', { id: street?.id, label: '镇街' });
    for (const locale of LOCALES) {
      const shown = (await allDicts(locale)).org_type?.find((i) => i.value === 'street')?.label;
      expect(shown, locale).toBe('镇街');
    }
    expect(await version('en')).not.toBe(versions.en);
    expect(await version('zh-TW')).not.toBe(versions.tw);

    // Set back to the seeded text, it is translated again.
    await post('/api/sysDictData/update', { id: street?.id, label: '街道' });
    expect((await allDicts('en')).org_type?.find((i) => i.value === 'street')?.label).toBe('Street');
    expect(await version('en')).toBe(versions.en);
  });

  it('shows items an admin adds as typed, in a built-in dictionary and in a new one', async () => {
    const orgType = await typeId('org_type');
    await post('/api/sysDictData/add', { dictTypeId: orgType, label: '园区', value: 'park', orderNo: 7 });
    const typeIdNew = await post<number>('/api/sysDictType/add', { code: 'label_probe', name: '标签探针' });
    await post('/api/sysDictData/add', { dictTypeId: typeIdNew, label: '区', value: 'district' });
    for (const locale of LOCALES) {
      const all = await allDicts(locale);
      expect(all.org_type?.at(-1)?.label, locale).toBe('园区');
      expect(labels(all.label_probe), locale).toEqual(['区']);
    }
  });
});
