import type { AllDictList, DictDataItem } from '@shuzhi/contracts/dict';
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { http } from '../http/http.ts';
import { useSessionStore } from '../session/session.store.ts';
import { useThemeStore } from '../theme/theme.store.ts';

/**
 * The dictionary cache of SPEC §3 ("Cached lists"): allDictList is loaded once after sign-in and kept;
 * it is fetched again when the server's dictionary version changes (checked on window focus and every
 * few minutes) and at once after this browser's own dictionary edits.
 *
 * The server labels built-in items in the request's language (Accept-Language, the UI language), so the
 * list and its version are cached per UI language: switching language never shows another language's
 * labels, and switching back reuses what was loaded unless a dictionary changed in between.
 */
export const DICT_KEYS = {
  all: ['sysDictType', 'allDictList'] as const,
  version: ['sysDictType', 'version'] as const,
};

const DICT_VERSION_POLL_MS = 3 * 60_000;

const EMPTY: readonly DictDataItem[] = [];

export const dictApi = {
  allDictList: () => http.get<AllDictList>('/api/sysDictType/allDictList', undefined, { silent: true }),
  version: () => http.get<number>('/api/sysDictType/version', undefined, { silent: true }),
};

function useSignedIn(): boolean {
  return useSessionStore((state) => state.userInfo !== null);
}

function useLanguage() {
  return useThemeStore((state) => state.globalI18n);
}

export function useAllDicts() {
  const signedIn = useSignedIn();
  const language = useLanguage();
  return useQuery({
    queryKey: [...DICT_KEYS.all, language],
    queryFn: dictApi.allDictList,
    enabled: signedIn,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    retry: 1,
  });
}

/** Enabled items of one dictionary type, in order. */
export function useDict(code: string): readonly DictDataItem[] {
  const { data } = useAllDicts();
  return useMemo(() => {
    const items = data?.[code];
    if (!items) return EMPTY;
    return items.filter((item) => item.status === undefined || item.status === 1).sort(byOrder);
  }, [data, code]);
}

function byOrder(a: DictDataItem, b: DictDataItem): number {
  return a.orderNo - b.orderNo || a.id - b.id;
}

/** The item of a value (compared as text, so `1` finds the item `'1'`). */
export function findDictItem(items: readonly DictDataItem[], value: unknown): DictDataItem | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const wanted = String(value);
  return items.find((item) => item.value === wanted);
}

/** After this browser changed a dictionary: refetch the list and the version it matches. */
export async function refreshDicts(client: QueryClient): Promise<void> {
  await Promise.all([
    client.invalidateQueries({ queryKey: DICT_KEYS.all }),
    client.invalidateQueries({ queryKey: DICT_KEYS.version }),
  ]);
}

/**
 * Mounted once in the signed-in shell: loads the dictionaries and watches the server's version. The first
 * version seen in a language is the baseline; any later change in that language refetches allDictList.
 */
function useDictSync(): void {
  const signedIn = useSignedIn();
  const client = useQueryClient();
  const language = useLanguage();
  useAllDicts();
  const version = useQuery({
    queryKey: [...DICT_KEYS.version, language],
    queryFn: dictApi.version,
    enabled: signedIn,
    refetchInterval: DICT_VERSION_POLL_MS,
    refetchOnWindowFocus: 'always',
    staleTime: 0,
    retry: 0,
  });
  // Versions differ between languages: only a move within one language means a dictionary changed.
  const seen = useRef<{ language: string; version: number } | undefined>(undefined);
  useEffect(() => {
    const current = version.data;
    if (current === undefined) return;
    const last = seen.current;
    if (last !== undefined && last.language === language && last.version !== current) {
      void client.invalidateQueries({ queryKey: DICT_KEYS.all });
    }
    seen.current = { language, version: current };
  }, [version.data, language, client]);
}

export function DictSync(): null {
  useDictSync();
  return null;
}
