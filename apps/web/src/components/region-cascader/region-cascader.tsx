import { Cascader, type CascaderProps } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type RegionNode, type RegionSearchHit, regionApi } from './region.api.ts';

/** An option of the cascader: a region, its children loaded on demand. */
export type RegionOption = {
  value: string;
  label: string;
  id: number;
  level: number;
  isLeaf: boolean;
  children?: RegionOption[];
  /** Search mode: this option is a hit (its ancestors are only there to show the path). */
  hit?: boolean;
};

export type RegionCascaderProps = {
  /** Codes from the root down to the chosen region. */
  value?: string[];
  onChange?: (codes: string[], regions: RegionOption[]) => void;
  /**
   * Where the choice starts: the profile's district (default), the province, or a region's code. A value that
   * leads through the root is cut to it; a single code is resolved to its path.
   */
  root?: 'district' | 'province' | { code: string };
  /** Any level may be chosen (default), or only leaves. */
  anyLevel?: boolean;
  placeholder?: string;
  disabled?: boolean;
  allowClear?: boolean;
  style?: React.CSSProperties;
  /** The id of its input, for a <label htmlFor>. */
  id?: string;
  /** Milliseconds of quiet typing before the server is searched. */
  debounceMs?: number;
  'data-testid'?: string;
};

const toOption = (node: RegionNode): RegionOption => ({
  value: node.code,
  label: node.name,
  id: node.id,
  level: node.level,
  isLeaf: node.isLeaf,
});

/** Hits as a tree of options from the root down (ancestors above the root dropped). */
export function hitsToOptions(hits: RegionSearchHit[], rootCodes: string[]): RegionOption[] {
  const top: RegionOption[] = [];
  for (const hit of hits) {
    const start = rootCodes.length > 0 ? hit.codePath.indexOf(rootCodes[rootCodes.length - 1] as string) : 0;
    if (start < 0) continue;
    let level = top;
    for (let i = start; i < hit.codePath.length; i++) {
      const code = hit.codePath[i] as string;
      let option = level.find((o) => o.value === code);
      if (!option) {
        option = { value: code, label: hit.namePath[i] ?? code, id: 0, level: i + 1, isLeaf: false };
        level.push(option);
      }
      if (i === hit.codePath.length - 1) {
        option.hit = true;
        option.id = hit.id;
      } else {
        option.children ??= [];
        level = option.children;
      }
    }
  }
  // A hit with no other hit under it shows no expand arrow.
  const mark = (options: RegionOption[]) => {
    for (const o of options) {
      o.isLeaf = !o.children || o.children.length === 0;
      if (o.children) mark(o.children);
    }
  };
  mark(top);
  return top;
}

function replaceChildren(options: RegionOption[], code: string, children: RegionOption[]): RegionOption[] {
  return options.map((o) => {
    if (o.value === code) return { ...o, children, isLeaf: children.length === 0 };
    if (o.children) return { ...o, children: replaceChildren(o.children, code, children) };
    return o;
  });
}

/**
 * 行政区划 picker (issue 4 §3): antd Cascader over the lazy region tree (one level per request), with a
 * server-side search over every level (debounced) whose hits show their full path. The value is the code
 * path from the root; by default the root is the profile's district.
 */
export function RegionCascader(props: RegionCascaderProps) {
  const { t } = useTranslation();
  const { value, onChange, root = 'district', anyLevel = true, debounceMs = 300 } = props;
  const [options, setOptions] = useState<RegionOption[]>([]);
  /** Codes above the first column (the root's ancestors), to cut search paths. */
  const [rootPath, setRootPath] = useState<string[]>([]);
  const [ready, setReady] = useState(false);
  const [keyword, setKeyword] = useState('');
  const [hits, setHits] = useState<RegionOption[] | null>(null);
  const [searching, setSearching] = useState(false);
  const rootKey = typeof root === 'string' ? root : root.code;
  const seq = useRef(0);

  // The first column: the district (or a given region) itself, or the provinces.
  // biome-ignore lint/correctness/useExhaustiveDependencies: rootKey stands for root.
  useEffect(() => {
    let alive = true;
    (async () => {
      if (root === 'province') {
        const provinces = await regionApi.tree(0);
        if (!alive) return;
        setRootPath([]);
        setOptions(provinces.map(toOption));
      } else {
        const path =
          typeof root === 'string' ? (await regionApi.root()).path : await regionApi.path(root.code);
        if (!alive) return;
        const node = path.at(-1);
        setRootPath(path.slice(0, -1).map((n) => n.code));
        setOptions(node ? [toOption(node)] : (await regionApi.tree(0)).map(toOption));
      }
      setReady(true);
    })().catch(() => setReady(true));
    return () => {
      alive = false;
    };
  }, [rootKey]);

  // A value whose regions are not loaded yet (initial value, a single code): load the columns along it.
  const valueKey = (value ?? []).join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the value or the root changes.
  useEffect(() => {
    if (!ready || !value || value.length === 0) return;
    let alive = true;
    (async () => {
      let codes = value;
      if (codes.length === 1 && !options.some((o) => o.value === codes[0])) {
        const path = (await regionApi.path(codes[0] as string)).map((n) => n.code);
        const from = options.length > 0 ? path.indexOf(options[0]?.value as string) : 0;
        codes = from >= 0 ? path.slice(options.some((o) => o.value === path[from]) ? from : 0) : path;
        if (alive && codes.join(',') !== valueKey) onChange?.(codes, []);
      }
      let current = options;
      for (const code of codes.slice(0, -1)) {
        const option = findOption(current, code);
        if (!option || option.isLeaf || option.children) continue;
        const children = (await regionApi.tree(option.id)).map(toOption);
        if (!alive) return;
        current = replaceChildren(current, code, children);
      }
      if (alive && current !== options) setOptions(current);
    })().catch(() => undefined);
    return () => {
      alive = false;
    };
  }, [ready, valueKey]);

  const loadData = useCallback(async (selected: RegionOption[]) => {
    const target = selected[selected.length - 1];
    if (!target || target.children) return;
    const children = (await regionApi.tree(target.id)).map(toOption);
    setOptions((current) => replaceChildren(current, target.value, children));
  }, []);

  // Server search, debounced; a newer keyword wins over a slower answer.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the root's options only narrow the search.
  useEffect(() => {
    const text = keyword.trim();
    if (!text) {
      setHits(null);
      setSearching(false);
      return;
    }
    setSearching(true);
    const mine = ++seq.current;
    const timer = setTimeout(() => {
      const rootCode = root === 'province' ? null : (options[0]?.value ?? null);
      regionApi
        .search(text, { rootCode, limit: 30 })
        .then((found) => {
          if (mine !== seq.current) return;
          const top = root === 'province' ? [] : [...rootPath, rootCode ?? ''];
          setHits(hitsToOptions(found, root === 'province' ? [] : top.filter(Boolean)));
        })
        .catch(() => mine === seq.current && setHits([]))
        .finally(() => mine === seq.current && setSearching(false));
    }, debounceMs);
    return () => clearTimeout(timer);
  }, [keyword, debounceMs]);

  const searchConfig = useMemo<CascaderProps<RegionOption>['showSearch']>(
    () => ({
      searchValue: keyword,
      onSearch: setKeyword,
      filter: (_input, path) => path[path.length - 1]?.hit === true,
      limit: 50,
      autoClearSearchValue: true,
    }),
    [keyword],
  );

  const shown = keyword.trim() && hits ? hits : options;
  return (
    <Cascader<RegionOption>
      id={props.id}
      options={shown}
      loadData={keyword.trim() ? undefined : loadData}
      value={value}
      onChange={(codes, selected) => {
        setKeyword('');
        // A search hit's path is cut at the root like a picked one; the tree learns its columns lazily.
        onChange?.((codes ?? []) as string[], (selected ?? []) as RegionOption[]);
      }}
      changeOnSelect={anyLevel}
      showSearch={searchConfig}
      notFoundContent={searching ? t('region.searching') : t('region.noMatch')}
      placeholder={props.placeholder ?? t('region.pickPlaceholder')}
      disabled={props.disabled}
      allowClear={props.allowClear ?? true}
      style={props.style ?? { width: '100%' }}
      data-testid={props['data-testid'] ?? 'region-cascader'}
    />
  );
}

function findOption(options: RegionOption[], code: string): RegionOption | undefined {
  for (const o of options) {
    if (o.value === code) return o;
    const inner = o.children ? findOption(o.children, code) : undefined;
    if (inner) return inner;
  }
  return undefined;
}
