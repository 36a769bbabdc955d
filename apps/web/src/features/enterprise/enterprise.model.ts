import type { MyReportItem } from '@shuzhi/contracts/diy-collect';
import type { ClassifyOption, FormItem } from '@shuzhi/contracts/diy-table';

/** A report's state for the enterprise: none filed yet, or the state of its latest record. */
export type ReportState = 'none' | 'draft' | 'submitted' | 'returned' | 'approved';

export const REPORT_STATES: readonly ReportState[] = ['none', 'draft', 'submitted', 'returned', 'approved'];

const BY_STATUS: Record<number, ReportState> = { 0: 'draft', 1: 'submitted', 2: 'approved', 3: 'returned' };

export function reportState(item: Pick<MyReportItem, 'latestStatus'>): ReportState {
  return item.latestStatus === null ? 'none' : (BY_STATUS[item.latestStatus] ?? 'none');
}

/** antd Tag colours of the states. */
export const STATE_COLOR: Record<ReportState, string> = {
  none: 'default',
  draft: 'gold',
  submitted: 'processing',
  returned: 'error',
  approved: 'success',
};

export function isReportState(value: string | null | undefined): value is ReportState {
  return value !== null && value !== undefined && (REPORT_STATES as readonly string[]).includes(value);
}

export function countByState(items: readonly MyReportItem[]): Record<ReportState, number> {
  const counts: Record<ReportState, number> = { none: 0, draft: 0, submitted: 0, returned: 0, approved: 0 };
  for (const item of items) counts[reportState(item)] += 1;
  return counts;
}

/** Items still waiting on the enterprise: not filed, drafts and returned ones. */
export function needsAction(item: MyReportItem): boolean {
  const state = reportState(item);
  return state === 'none' || state === 'draft' || state === 'returned';
}

export type CategoryTile = { id: number | null; label: string; count: number };

/**
 * The categories the caller's forms sit in, in the categories' order, each with how many of the given forms
 * it holds (sub-categories count towards their top category); forms without a known category go last.
 */
export function categoryTiles(
  items: readonly Pick<FormItem, 'categoryId' | 'categoryName'>[],
  options: readonly ClassifyOption[] | undefined,
  uncategorized: string,
): CategoryTile[] {
  const byId = new Map((options ?? []).map((o) => [o.value, o]));
  const topOf = (id: number): number => {
    let current = byId.get(id);
    const seen = new Set<number>();
    while (current && current.pid !== 0 && byId.has(current.pid) && !seen.has(current.pid)) {
      seen.add(current.value);
      current = byId.get(current.pid);
    }
    return current?.value ?? id;
  };
  const counts = new Map<number | null, number>();
  const names = new Map<number | null, string>();
  for (const item of items) {
    const key = item.categoryId === null ? null : topOf(item.categoryId);
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if (key !== null && !names.has(key)) names.set(key, byId.get(key)?.label ?? item.categoryName ?? '');
  }
  const tiles: CategoryTile[] = [];
  for (const option of options ?? []) {
    if (option.pid !== 0 && byId.has(option.pid)) continue;
    tiles.push({ id: option.value, label: option.label, count: counts.get(option.value) ?? 0 });
    counts.delete(option.value);
  }
  for (const [id, count] of counts) {
    if (id === null) continue;
    tiles.push({ id, label: names.get(id) || uncategorized, count });
  }
  const none = counts.get(null);
  if (none) tiles.push({ id: null, label: uncategorized, count: none });
  return tiles;
}

/** Whether an item sits in the category (or below it). */
export function inCategory(
  item: Pick<FormItem, 'categoryId'>,
  categoryId: number | null,
  options: readonly ClassifyOption[] | undefined,
): boolean {
  if (categoryId === null) return item.categoryId === null;
  const byId = new Map((options ?? []).map((o) => [o.value, o]));
  let id: number | null = item.categoryId;
  const seen = new Set<number>();
  while (id !== null && !seen.has(id)) {
    if (id === categoryId) return true;
    seen.add(id);
    const parent = byId.get(id)?.pid;
    id = parent && parent !== 0 ? parent : null;
  }
  return false;
}

/** Matches the keyword against the form's title and category (case-insensitive). */
export function matchesKeyword(item: Pick<FormItem, 'title' | 'categoryName'>, keyword: string): boolean {
  const k = keyword.trim().toLowerCase();
  if (!k) return true;
  return item.title.toLowerCase().includes(k) || (item.categoryName ?? '').toLowerCase().includes(k);
}

/** The value of the `category` query parameter: a category id, or `none` for forms without one. */
const NO_CATEGORY = 'none';

export function parseCategory(value: string | null): number | null | undefined {
  if (value === null || value === '') return undefined;
  if (value === NO_CATEGORY) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

export function categoryParam(id: number | null): string {
  return id === null ? NO_CATEGORY : String(id);
}

/** A portal link that keeps `openType` (the no-header mode) of the current page. */
export function portalHref(
  pathname: string,
  current: URLSearchParams,
  params: Record<string, string | undefined> = {},
): string {
  const next = new URLSearchParams();
  const openType = current.get('openType');
  if (openType) next.set('openType', openType);
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== '') next.set(key, value);
  const search = next.toString();
  return search ? `${pathname}?${search}` : pathname;
}
