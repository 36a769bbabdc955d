import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DictTag } from '../../components/dict/dict-tag.tsx';
import { useSessionStore } from '../session/session.store.ts';
import { useThemeStore } from '../theme/theme.store.ts';
import { DICT_KEYS, DictSync, dictApi, refreshDicts } from './dict.store.ts';

afterEach(() => {
  vi.restoreAllMocks();
  useSessionStore.setState({ userInfo: null });
  useThemeStore.setState({ globalI18n: 'zh-cn' });
});

const district = (label: string) => ({
  org_type: [
    {
      id: 1,
      dictTypeId: 1,
      label,
      value: 'district',
      tagType: null,
      styleSetting: null,
      classSetting: null,
      extData: null,
      orderNo: 1,
      status: 1,
      remark: null,
    },
  ],
});

describe('dictionary cache', () => {
  it('loads once after sign-in and again only when the server version moves', async () => {
    useSessionStore.setState({ userInfo: { id: 1 } as never });
    const versions = [1, 1, 2];
    const version = vi.spyOn(dictApi, 'version').mockImplementation(async () => versions.shift() ?? 2);
    const all = vi.spyOn(dictApi, 'allDictList').mockResolvedValue({});
    const client = new QueryClient();
    render(
      <QueryClientProvider client={client}>
        <DictSync />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(all).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(version).toHaveBeenCalledTimes(1));

    await act(() => client.refetchQueries({ queryKey: DICT_KEYS.version }));
    expect(all).toHaveBeenCalledTimes(1);

    await act(() => client.refetchQueries({ queryKey: DICT_KEYS.version }));
    await waitFor(() => expect(all).toHaveBeenCalledTimes(2));

    await act(() => refreshDicts(client));
    await waitFor(() => expect(all).toHaveBeenCalledTimes(3));
  });

  it('keeps the labels of each language apart, without refetching on a language switch back', async () => {
    useSessionStore.setState({ userInfo: { id: 1 } as never });
    useThemeStore.setState({ globalI18n: 'zh-cn' });
    // The server answers in the request language; each language has its own version stamp.
    const language = () => useThemeStore.getState().globalI18n;
    const all = vi
      .spyOn(dictApi, 'allDictList')
      .mockImplementation(async () => district(language() === 'en' ? 'District' : '区'));
    const version = vi
      .spyOn(dictApi, 'version')
      .mockImplementation(async () => (language() === 'en' ? 200 : 100));
    const client = new QueryClient();
    const view = render(
      <QueryClientProvider client={client}>
        <DictSync />
        <DictTag code="org_type" value="district" data-testid="tag" />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(view.getByTestId('tag').textContent).toBe('区'));

    act(() => useThemeStore.setState({ globalI18n: 'en' }));
    await waitFor(() => expect(view.getByTestId('tag').textContent).toBe('District'));
    await waitFor(() => expect(version).toHaveBeenCalledTimes(2));

    act(() => useThemeStore.setState({ globalI18n: 'zh-cn' }));
    await waitFor(() => expect(view.getByTestId('tag').textContent).toBe('区'));
    await waitFor(() => expect(version).toHaveBeenCalledTimes(3));
    // A different stamp in another language is not a change: nothing was fetched again.
    expect(all).toHaveBeenCalledTimes(2);
  });

  it('asks nothing before sign-in', async () => {
    const all = vi.spyOn(dictApi, 'allDictList').mockResolvedValue({});
    const version = vi.spyOn(dictApi, 'version').mockResolvedValue(1);
    render(
      <QueryClientProvider client={new QueryClient()}>
        <DictSync />
      </QueryClientProvider>,
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(all).not.toHaveBeenCalled();
    expect(version).not.toHaveBeenCalled();
  });
});
