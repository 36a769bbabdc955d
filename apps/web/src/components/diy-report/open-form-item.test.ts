import type { FormItem } from '@shuzhi/contracts/diy-table';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useTagsStore } from '../../app/tags/tags.store.ts';
import { markFormPasswordVerified } from './form-password.tsx';
import { formItemTarget, openFormItem, readHideList } from './open-form-item.ts';

const post = vi.hoisted(() => vi.fn());
vi.mock('../../platform/http/http.ts', () => ({ http: { post, get: vi.fn() } }));

const AUTH = {
  query: true,
  add: true,
  update: true,
  delete: false,
  audit: false,
  export: false,
  import: false,
  design: false,
};

function item(patch: Partial<FormItem> = {}): FormItem {
  return {
    id: 42,
    title: '企业用工情况月报',
    reportType: 1,
    isEnable: true,
    isShowPwd: false,
    lastUpdateTime: null,
    isTip: false,
    query: null,
    defaultHideDataList: [],
    myAuth: AUTH,
    categoryId: null,
    categoryName: null,
    ownerOrgId: null,
    ownerOrgName: null,
    version: 1,
    hasDraft: false,
    recordCount: 0,
    periodKind: 'none',
    currentPeriod: null,
    ...patch,
  };
}

describe('formItemTarget', () => {
  it('leads type 1 to the record list with id, the extra query and the hidden fields', () => {
    expect(
      formItemTarget(
        item({ query: { year: '2026', kind: 'a b' }, defaultHideDataList: ['remark', 'phone'] }),
      ),
    ).toEqual({
      pathname: '/diyReport/index/formTable',
      query: { id: '42', year: '2026', kind: 'a b', defaultHideDataList: 'remark,phone' },
    });
  });

  it('leaves defaultHideDataList out when it is empty and keeps the id against a query field named id', () => {
    expect(formItemTarget(item({ query: { id: '7', year: '2026' } }))).toEqual({
      pathname: '/diyReport/index/formTable',
      query: { id: '42', year: '2026' },
    });
  });

  it.each([2, 3, 4])('leads type %i to the data load page with the same query', (reportType) => {
    expect(formItemTarget(item({ reportType, query: { year: '2026' }, defaultHideDataList: ['x'] }))).toEqual(
      {
        pathname: '/diyLoad/index/loadTable',
        query: { id: '42', year: '2026', defaultHideDataList: 'x' },
      },
    );
  });

  it('leads type 6 to the screen with the id only', () => {
    expect(
      formItemTarget(item({ reportType: 6, query: { year: '2026' }, defaultHideDataList: ['x'] })),
    ).toEqual({
      pathname: '/diyScreen/loadScreen',
      query: { id: '42' },
    });
  });

  it('leads type 7 to the word page like type 1', () => {
    expect(
      formItemTarget(item({ reportType: 7, query: { year: '2026' }, defaultHideDataList: ['x'] })),
    ).toEqual({
      pathname: '/diyword/index',
      query: { id: '42', year: '2026', defaultHideDataList: 'x' },
    });
  });

  it.each([0, 5, 8, 99])('leads type %i nowhere', (reportType) => {
    expect(formItemTarget(item({ reportType }))).toBeNull();
  });

  it('reads the hidden fields back from the URL', () => {
    expect(readHideList('?id=42&defaultHideDataList=remark,phone')).toEqual(['remark', 'phone']);
    expect(readHideList('?id=42')).toEqual([]);
  });
});

describe('openFormItem', () => {
  beforeEach(() => {
    post.mockReset();
    post.mockResolvedValue(null);
    window.sessionStorage.clear();
    useTagsStore.getState().reset();
  });

  it('navigates to the URL with the query and sets the page title to the item title', async () => {
    const navigate = vi.fn();
    const opened = await openFormItem(
      item({ query: { year: '2026' }, defaultHideDataList: ['remark'] }),
      navigate,
    );
    expect(opened).toBe(true);
    expect(navigate).toHaveBeenCalledWith(
      '/diyReport/index/formTable?id=42&year=2026&defaultHideDataList=remark',
    );
    expect(useTagsStore.getState().titles['/diyReport/index/formTable?id=42']).toBe('企业用工情况月报');
  });

  it('does nothing for another report type', async () => {
    const navigate = vi.fn();
    const setTitle = vi.fn();
    expect(
      await openFormItem(
        item({ reportType: 5, isTip: true, lastUpdateTime: '2026-11-01 08:00:00' }),
        navigate,
        { setTitle },
      ),
    ).toBe(false);
    expect(navigate).not.toHaveBeenCalled();
    expect(setTitle).not.toHaveBeenCalled();
    expect(post).not.toHaveBeenCalled();
  });

  it('does not open a disabled item or one without myAuth.query', async () => {
    const navigate = vi.fn();
    const prompt = vi.fn(async () => true);
    expect(await openFormItem(item({ isEnable: false }), navigate, { prompt })).toBe(false);
    expect(await openFormItem(item({ myAuth: { ...AUTH, query: false } }), navigate, { prompt })).toBe(false);
    expect(
      await openFormItem(
        item({ isEnable: false, isShowPwd: true, isTip: true, lastUpdateTime: '2026-11-01 08:00:00' }),
        navigate,
        {
          prompt,
        },
      ),
    ).toBe(false);
    expect(navigate).not.toHaveBeenCalled();
    expect(prompt).not.toHaveBeenCalled();
    expect(post).not.toHaveBeenCalled();
  });

  it('clears the tip when the item has lastUpdateTime and isTip', async () => {
    const onTipCleared = vi.fn();
    await openFormItem(item({ isTip: true, lastUpdateTime: '2026-11-01 08:00:00' }), vi.fn(), {
      onTipCleared,
    });
    await vi.waitFor(() => expect(onTipCleared).toHaveBeenCalledWith(42));
    expect(post).toHaveBeenCalledWith('/api/diyTable/clearTip', { id: 42 }, { silent: true });
  });

  it('leaves the tip alone without isTip or without lastUpdateTime', async () => {
    await openFormItem(item({ isTip: false, lastUpdateTime: '2026-11-01 08:00:00' }), vi.fn());
    await openFormItem(item({ isTip: true, lastUpdateTime: null }), vi.fn());
    expect(post).not.toHaveBeenCalled();
  });

  it('still opens when clearing the tip fails', async () => {
    const navigate = vi.fn();
    const clearTip = vi.fn(async () => {
      throw new Error('offline');
    });
    expect(
      await openFormItem(item({ isTip: true, lastUpdateTime: '2026-11-01 08:00:00' }), navigate, {
        clearTip,
      }),
    ).toBe(true);
    expect(clearTip).toHaveBeenCalledWith(42);
    expect(navigate).toHaveBeenCalledWith('/diyReport/index/formTable?id=42');
  });

  it('asks for the password first and opens only once it is verified', async () => {
    const navigate = vi.fn();
    const prompt = vi.fn(async () => false);
    const locked = item({ isShowPwd: true, isTip: true, lastUpdateTime: '2026-11-01 08:00:00' });
    expect(await openFormItem(locked, navigate, { prompt })).toBe(false);
    expect(prompt).toHaveBeenCalledWith(42, '企业用工情况月报');
    expect(navigate).not.toHaveBeenCalled();
    expect(post).not.toHaveBeenCalled();

    prompt.mockResolvedValue(true);
    expect(await openFormItem(locked, navigate, { prompt })).toBe(true);
    expect(navigate).toHaveBeenCalledWith('/diyReport/index/formTable?id=42');
    expect(post).toHaveBeenCalledWith('/api/diyTable/clearTip', { id: 42 }, { silent: true });
  });

  it('does not ask again once this session verified the form', async () => {
    markFormPasswordVerified(42);
    const navigate = vi.fn();
    const prompt = vi.fn(async () => false);
    expect(await openFormItem(item({ isShowPwd: true }), navigate, { prompt })).toBe(true);
    expect(prompt).not.toHaveBeenCalled();
  });

  it('keeps a locked form shut without a prompt', async () => {
    const navigate = vi.fn();
    expect(await openFormItem(item({ isShowPwd: true }), navigate)).toBe(false);
    expect(navigate).not.toHaveBeenCalled();
  });
});
