import { create } from 'zustand';
import { local, TAGS_VIEW_KEY } from '../../platform/storage/storage.ts';

/** An open tab, stored under tagsViewList (SPEC §3): query.id, name and meta.title, plus the path. */
export type TagEntry = {
  path: string;
  name: string;
  query: Record<string, string>;
  meta: { title: string; isAffix?: boolean };
};

export function tagKey(tag: Pick<TagEntry, 'path' | 'query'>): string {
  const query = new URLSearchParams(tag.query).toString();
  return query ? `${tag.path}?${query}` : tag.path;
}

const TITLES_KEY = 'tagsViewTitles';

type TagsState = {
  tags: TagEntry[];
  /**
   * Titles a page takes from what it shows (a form's title on its record list, SPEC §2 "the page title is
   * set to the item's title"), by tag key; they win over the route's title in the tab and the page title.
   */
  titles: Record<string, string>;
  setTitle(tag: Pick<TagEntry, 'path' | 'query'>, title: string): void;
  /** Bumped to remount a page (tab "refresh"). */
  nonces: Record<string, number>;
  open(tag: TagEntry): void;
  close(key: string): TagEntry[];
  closeOthers(key: string): void;
  closeAll(): void;
  refresh(path: string): void;
  reset(): void;
};

function load(): TagEntry[] {
  const stored = local.getJson<unknown>(TAGS_VIEW_KEY);
  if (!Array.isArray(stored)) return [];
  return stored
    .filter(
      (tag): tag is TagEntry =>
        Boolean(tag) &&
        typeof tag.path === 'string' &&
        typeof tag.name === 'string' &&
        typeof tag.meta?.title === 'string',
    )
    .map((tag) => ({ ...tag, query: tag.query && typeof tag.query === 'object' ? tag.query : {} }));
}

function persist(tags: TagEntry[]): TagEntry[] {
  local.setJson(TAGS_VIEW_KEY, tags);
  return tags;
}

function loadTitles(): Record<string, string> {
  const stored = local.getJson<unknown>(TITLES_KEY);
  if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return {};
  return Object.fromEntries(Object.entries(stored).filter(([, v]) => typeof v === 'string')) as Record<
    string,
    string
  >;
}

/** The name of the pinned home tab (/dashboard, or an enterprise account's portal). */
const HOME_TAG = 'home';

export const useTagsStore = create<TagsState>()((set, get) => ({
  tags: load(),
  titles: loadTitles(),
  nonces: {},
  setTitle(tag, title) {
    // Only the open tabs keep a title: the stored map stays as small as the tab bar.
    const open = new Set(get().tags.map(tagKey));
    const kept = Object.entries(get().titles).filter(([key]) => open.has(key));
    const titles = { ...Object.fromEntries(kept), [tagKey(tag)]: title };
    local.setJson(TITLES_KEY, titles);
    set({ titles });
  },
  open(tag) {
    const key = tagKey(tag);
    // One home tab: an enterprise account's portal replaces the /dashboard tab opened before its account
    // type was known.
    const tags = get().tags.filter((t) => tag.name !== HOME_TAG || t.name !== HOME_TAG || tagKey(t) === key);
    const index = tags.findIndex((t) => tagKey(t) === key);
    const next =
      index >= 0
        ? tags.map((t, i) => (i === index ? { ...t, meta: { ...t.meta, ...tag.meta } } : t))
        : [...tags, tag];
    const ordered = [...next.filter((t) => t.meta.isAffix), ...next.filter((t) => !t.meta.isAffix)];
    set({ tags: persist(ordered) });
  },
  close(key) {
    const tags = get().tags.filter((t) => tagKey(t) !== key || t.meta.isAffix);
    set({ tags: persist(tags) });
    return tags;
  },
  closeOthers(key) {
    set({ tags: persist(get().tags.filter((t) => tagKey(t) === key || t.meta.isAffix)) });
  },
  closeAll() {
    set({ tags: persist(get().tags.filter((t) => t.meta.isAffix)) });
  },
  refresh(path) {
    const nonces = get().nonces;
    set({ nonces: { ...nonces, [path]: (nonces[path] ?? 0) + 1 } });
  },
  reset() {
    local.remove(TITLES_KEY);
    set({ tags: persist([]), titles: {}, nonces: {} });
  },
}));
