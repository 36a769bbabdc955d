import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '../session/session.store.ts';
import { DICT_KEYS, DictSync, dictApi, refreshDicts } from './dict.store.ts';

afterEach(() => {
  vi.restoreAllMocks();
  useSessionStore.setState({ userInfo: null });
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
