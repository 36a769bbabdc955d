import { beforeEach, describe, expect, it } from 'vitest';
import { useTagsStore } from './tags.store.ts';

const home = (path: string) => ({ path, name: 'home', query: {}, meta: { title: path, isAffix: true } });

describe('tags store', () => {
  beforeEach(() => useTagsStore.getState().reset());

  it('keeps one home tab: the portal replaces the /dashboard tab opened before the account type was known', () => {
    const { open } = useTagsStore.getState();
    open(home('/dashboard'));
    open({ path: '/diyReport', name: 'diyReport', query: {}, meta: { title: '报表填报' } });
    open(home('/enterprise'));
    expect(useTagsStore.getState().tags.map((t) => t.path)).toEqual(['/enterprise', '/diyReport']);
  });

  it('opening the same home tab again keeps it once', () => {
    const { open } = useTagsStore.getState();
    open(home('/dashboard'));
    open(home('/dashboard'));
    expect(useTagsStore.getState().tags.map((t) => t.path)).toEqual(['/dashboard']);
  });
});
