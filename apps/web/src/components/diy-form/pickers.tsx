import { Select, Spin } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { diyFormApi, type PickerKind, type PickOption } from './diy-form.api.ts';

/**
 * The org, user and enterprise pickers of a form: a search select against `/api/diyTable/pickUsers` or
 * `pickOrgs` (the server answers only what the caller may pick), with the labels of already-chosen ids
 * fetched once per id and shared by every field and the view mode.
 */

const known = new Map<string, PickOption>();
const pending = new Map<string, Promise<void>>();
const keyOf = (kind: PickerKind, id: number) => `${kind}:${id}`;

/** Forgets the cached labels (tests; a user switching tenants reloads the page anyway). */
export function clearPickerLabels(): void {
  known.clear();
  pending.clear();
}

function remember(kind: PickerKind, options: readonly PickOption[]): void {
  for (const option of options) known.set(keyOf(kind, Number(option.value)), option);
}

/** Labels of chosen ids; unknown ids are fetched (once) and the component re-renders when they arrive. */
function usePickLabels(kind: PickerKind, ids: readonly number[]): Map<number, PickOption> {
  const [, setTick] = useState(0);
  const idsKey = ids.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: idsKey stands for ids.
  useEffect(() => {
    const missing = ids.filter((id) => !known.has(keyOf(kind, id)) && !pending.has(keyOf(kind, id)));
    const waiting = ids.map((id) => pending.get(keyOf(kind, id))).filter(Boolean);
    let live = true;
    if (missing.length > 0) {
      const request = diyFormApi
        .pick(kind, { ids: missing })
        .then((options) => remember(kind, options))
        .catch(() => undefined)
        .finally(() => {
          for (const id of missing) pending.delete(keyOf(kind, id));
        });
      for (const id of missing) pending.set(keyOf(kind, id), request);
      waiting.push(request);
    }
    if (waiting.length > 0) {
      void Promise.all(waiting).then(() => live && setTick((n) => n + 1));
    }
    return () => {
      live = false;
    };
  }, [kind, idsKey]);
  const map = new Map<number, PickOption>();
  for (const id of ids) {
    const option = known.get(keyOf(kind, id));
    if (option) map.set(id, option);
  }
  return map;
}

export const toIds = (value: unknown): number[] =>
  (Array.isArray(value) ? value : value === null || value === undefined || value === '' ? [] : [value])
    .map((v) => Number(v))
    .filter((v) => Number.isSafeInteger(v) && v > 0);

export type PickerSelectProps = {
  kind: PickerKind;
  value: unknown;
  multiple: boolean;
  onChange: (value: number | number[] | null) => void;
  onBlur?: () => void;
  disabled?: boolean;
  placeholder?: string;
  status?: 'error';
  id?: string;
  'data-testid'?: string;
};

export function PickerSelect(props: PickerSelectProps) {
  const { t } = useTranslation();
  const { kind, multiple } = props;
  const ids = useMemo(() => toIds(props.value), [props.value]);
  const chosen = usePickLabels(kind, ids);
  const [keyword, setKeyword] = useState('');
  const [found, setFound] = useState<PickOption[]>([]);
  const [searching, setSearching] = useState(false);
  const seq = useRef(0);
  const [opened, setOpened] = useState(false);

  // Search on open and while typing (debounced); a newer keyword wins over a slower answer.
  useEffect(() => {
    if (!opened) return;
    const mine = ++seq.current;
    setSearching(true);
    const timer = setTimeout(() => {
      diyFormApi
        .pick(kind, { keyword: keyword.trim() })
        .then((options) => {
          if (mine !== seq.current) return;
          remember(kind, options);
          setFound(options);
        })
        .catch(() => mine === seq.current && setFound([]))
        .finally(() => mine === seq.current && setSearching(false));
    }, 250);
    return () => clearTimeout(timer);
  }, [kind, keyword, opened]);

  const options = useMemo(() => {
    const list = new Map<number, { value: number; label: string; title: string; extra?: string | null }>();
    for (const id of ids) {
      const option = chosen.get(id);
      list.set(id, { value: id, label: option?.label ?? String(id), title: option?.label ?? '' });
    }
    for (const option of found) {
      const id = Number(option.value);
      if (!list.has(id))
        list.set(id, { value: id, label: option.label, title: option.label, extra: option.extra });
    }
    return [...list.values()];
  }, [ids, chosen, found]);

  return (
    <Select<number | number[]>
      id={props.id}
      data-testid={props['data-testid']}
      mode={multiple ? 'multiple' : undefined}
      value={multiple ? ids : (ids[0] ?? undefined)}
      onChange={(next) => {
        const list = toIds(next);
        props.onChange(multiple ? list : (list[0] ?? null));
        setKeyword('');
      }}
      onBlur={props.onBlur}
      onOpenChange={setOpened}
      allowClear
      disabled={props.disabled}
      status={props.status}
      placeholder={props.placeholder}
      showSearch={{ filterOption: false, onSearch: setKeyword, searchValue: keyword }}
      options={options}
      optionRender={(option) => (
        <span data-testid="diy-pick-option">
          {option.data.label}
          {option.data.extra ? (
            <span style={{ color: 'var(--ant-color-text-tertiary)', marginInlineStart: 8 }}>
              {option.data.extra}
            </span>
          ) : null}
        </span>
      )}
      notFoundContent={searching ? <Spin size="small" /> : t('diyFormRenderer.noMatch')}
      style={{ width: '100%' }}
    />
  );
}

/** The chosen ids as text (view mode). */
export function PickerText({
  kind,
  value,
  fallback,
}: {
  kind: PickerKind;
  value: unknown;
  fallback?: string;
}) {
  const { t } = useTranslation();
  const ids = useMemo(() => toIds(value), [value]);
  const labels = usePickLabels(kind, ids);
  if (ids.length === 0) return <>{t('diyFormRenderer.empty')}</>;
  if (fallback && ids.some((id) => !labels.has(id))) return <>{fallback}</>;
  return <>{ids.map((id) => labels.get(id)?.label ?? String(id)).join(t('diyFormRenderer.listSeparator'))}</>;
}
