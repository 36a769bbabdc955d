import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { regionApi } from '../region-cascader/region.api.ts';
import { RegionCascader } from '../region-cascader/region-cascader.tsx';

/**
 * A region field holds one code (any of the five levels); the cascader works on the path from the
 * profile's district down, which it resolves from a single code by itself.
 */
export function RegionField(props: {
  value: unknown;
  onChange: (code: string | null) => void;
  disabled?: boolean;
  placeholder?: string;
  id?: string;
  'data-testid'?: string;
}) {
  const code = typeof props.value === 'string' && props.value ? props.value : null;
  const [path, setPath] = useState<string[]>([]);
  const shown = code ? (path.at(-1) === code ? path : [code]) : undefined;
  return (
    <RegionCascader
      value={shown}
      onChange={(codes) => {
        setPath(codes);
        const last = codes.at(-1) ?? null;
        if (last !== code) props.onChange(last);
      }}
      disabled={props.disabled}
      placeholder={props.placeholder}
      id={props.id}
      data-testid={props['data-testid']}
    />
  );
}

/** A region code as its names from the top (`上海市 / 黄浦区 / 南京东路街道`). */
export function RegionName({ code, fallback }: { code: unknown; fallback?: string }) {
  const { t } = useTranslation();
  const text = typeof code === 'string' && code ? code : null;
  const { data } = useQuery({
    queryKey: ['sysRegion', 'path', text],
    queryFn: () => regionApi.path(text as string),
    enabled: text !== null && !fallback,
    staleTime: 10 * 60_000,
  });
  if (!text) return <>{t('diyFormRenderer.empty')}</>;
  if (fallback) return <>{fallback}</>;
  return <>{data && data.length > 0 ? data.map((n) => n.name).join(' / ') : text}</>;
}
