import type { FormField } from '@shuzhi/contracts/diy-form';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { HIDE_LIST_PARAM } from '../../../components/diy-report/open-form-item.ts';
import { parseUrlFilters, URL_QUERY_KEYS } from './record-filters.ts';

const idParam = (raw: string | null) => (raw && /^\d{1,16}$/.test(raw) ? Number(raw) : undefined);

/**
 * What the route's query says about the record list: the roll-up drill-down's `periodId`, `orgId` and
 * `filter=<field>:prefix:<code>`, and the extra fields that preset new records. `dropParam` removes one of them
 * (the list then starts again on page 1: `onDropped`).
 */
export function useUrlFilters(fields: FormField[], onDropped: () => void) {
  const [params, setParams] = useSearchParams();

  // The route's extra query fields that name a field preset it on new records (SPEC §2 "any extra query").
  const presets = useMemo(() => {
    const out: Record<string, string> = {};
    for (const [key, value] of params.entries()) {
      if (key === 'id' || key === HIDE_LIST_PARAM || URL_QUERY_KEYS.includes(key)) continue;
      if (fields.some((f) => f.id === key)) out[key] = value;
    }
    return out;
  }, [params, fields]);

  // The roll-up drill-down opens the list with `periodId`, `orgId` and `filter=<field>:prefix:<code>`.
  const urlPeriod = idParam(params.get('periodId'));
  const urlOrg = idParam(params.get('orgId'));
  // The （本级） row of a roll-up: the org's own records, not those of the orgs below it.
  const urlOrgOwn = params.get('orgOwn') === '1';
  const urlOrgFilter = useMemo(
    () => (urlOrg === undefined ? {} : { orgId: urlOrg, ...(urlOrgOwn ? { orgOwn: true } : {}) }),
    [urlOrg, urlOrgOwn],
  );
  const urlFilters = useMemo(() => parseUrlFilters(params.getAll('filter'), fields), [params, fields]);
  const dropParam = (key: string, value?: string) => {
    const next = new URLSearchParams(params);
    if (value === undefined) next.delete(key);
    else {
      const kept = next.getAll(key).filter((v) => v !== value);
      next.delete(key);
      for (const v of kept) next.append(key, v);
    }
    if (key === 'orgId') {
      next.delete('orgName');
      next.delete('orgOwn');
    }
    setParams(next, { replace: true });
    onDropped();
  };

  return { params, presets, urlPeriod, urlOrg, urlOrgFilter, urlFilters, dropParam };
}

export type UrlFilters = ReturnType<typeof useUrlFilters>;
