import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatBytes, formatDuration, usageStatus } from '../../platform/format/format.ts';
import { i18n } from '../../platform/i18n/i18n.ts';
import { DeleteByPrefixButton } from './cache.page.tsx';
import { deletablePrefix, filterKeys, groupOf, keyGroups } from './cache-keys.ts';

const api = vi.hoisted(() => ({
  keyList: vi.fn(async (prefix?: string) => ({
    kind: 'memory' as const,
    keys: ['sess:1', 'sess:2', 'sess:3'].filter((k) => !prefix || k.startsWith(prefix)),
    truncated: false,
  })),
  value: vi.fn(),
  remove: vi.fn(),
  removeByPrefix: vi.fn(async () => 3),
}));
vi.mock('./cache.api.ts', () => ({ cacheApi: api }));

function wrap(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  return (
    <QueryClientProvider client={client}>
      <App>{children}</App>
    </QueryClientProvider>
  );
}

afterEach(() => {
  vi.clearAllMocks();
});

describe('cache keys', () => {
  const keys = ['sess:1', 'sess:2', 'captcha:ab', 'sess-revoked:9', 'plain'];

  it('groups keys by their namespace, the largest group first', () => {
    expect(groupOf('sess:1')).toBe('sess:');
    expect(groupOf('plain')).toBe('plain');
    expect(keyGroups(keys)).toEqual([
      { prefix: 'sess:', count: 2 },
      { prefix: 'captcha:', count: 1 },
      { prefix: 'plain', count: 1 },
      { prefix: 'sess-revoked:', count: 1 },
    ]);
  });

  it('filters by group and by search text, case-insensitively', () => {
    expect(filterKeys(keys, '', 'sess:')).toEqual(['sess:1', 'sess:2']);
    expect(filterKeys(keys, ' AB ', null)).toEqual(['captcha:ab']);
    expect(filterKeys(keys, '9', 'sess:')).toEqual([]);
  });

  it('deletes by the chosen group, else by a search text of at least two characters', () => {
    expect(deletablePrefix('', 'sess:')).toBe('sess:');
    expect(deletablePrefix('ca', null)).toBe('ca');
    expect(deletablePrefix(' c ', null)).toBeNull();
    expect(deletablePrefix('', null)).toBeNull();
  });
});

describe('formatting', () => {
  it('shows bytes, durations and load levels', async () => {
    await i18n.changeLanguage('en');
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(5 * 1024 ** 3)).toBe('5 GB');
    expect(formatBytes(null)).toBe('-');
    const t = i18n.t.bind(i18n);
    expect(formatDuration(t, 0)).toBe('0 s');
    expect(formatDuration(t, 93784)).toBe('1 d 2 h');
    expect(formatDuration(t, 3605)).toBe('1 h');
    expect(formatDuration(t, 125)).toBe('2 min 5 s');
    await i18n.changeLanguage('zh-cn');
    expect(formatDuration(i18n.t.bind(i18n), 90061)).toBe('1 天 1 小时');
    expect([usageStatus(10), usageStatus(75), usageStatus(95)]).toEqual(['normal', 'warning', 'danger']);
  });
});

describe('delete by prefix', () => {
  it('counts the keys first, says how many will go, and deletes on confirmation', async () => {
    await i18n.changeLanguage('zh-cn');
    const onDone = vi.fn();
    render(wrap(<DeleteByPrefixButton prefix="sess:" onDone={onDone} />));
    fireEvent.click(screen.getByTestId('cache-delete-prefix'));
    const content = await screen.findByTestId('cache-delete-prefix-content');
    expect(api.keyList).toHaveBeenCalledWith('sess:');
    expect(content.textContent).toBe('将删除以「sess:」开头的 3 个缓存键。此操作不可撤销。');
    expect(api.removeByPrefix).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('cache-delete-prefix-ok'));
    await waitFor(() => expect(api.removeByPrefix).toHaveBeenCalledWith('sess:'));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
  });

  it('is disabled without a usable prefix, and asks nothing when no key matches', async () => {
    const { unmount } = render(wrap(<DeleteByPrefixButton prefix={null} onDone={() => {}} />));
    expect((screen.getByTestId('cache-delete-prefix') as HTMLButtonElement).disabled).toBe(true);
    unmount();
    render(wrap(<DeleteByPrefixButton prefix="zz:" onDone={() => {}} />));
    fireEvent.click(screen.getByTestId('cache-delete-prefix'));
    await waitFor(() => expect(api.keyList).toHaveBeenCalledWith('zz:'));
    expect(await screen.findByText('没有以「zz:」开头的缓存键。')).toBeTruthy();
    expect(screen.queryByTestId('cache-delete-prefix-content')).toBeNull();
  });
});
