import type { Locale } from '@shuzhi/contracts/i18n';
import type { DiyTableTable } from '../../db/schema.ts';
import type { Db } from '../../platform/db/db.ts';
import { formatDate } from '../../platform/db/time.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { displayName } from '../diy-period/diy-period.service.ts';

/** The periods a roll-up shows: the one asked for (or the latest started), the one before, the year before. */

export type PeriodRef = {
  id: number;
  name: string;
  key: string;
  start: string;
  /** When a closed period was closed (its records no longer change), else null. */
  closedAt?: string | null;
};

/** `2026-11` → `2025-11`, `2026-Q4` → `2025-Q4`, `C2026-11-01` → `C2025-11-01`. */
export function lastYearKey(key: string): string | null {
  const match = /^(C?)(\d{4})(.*)$/.exec(key);
  if (!match) return null;
  return `${match[1]}${Number(match[2]) - 1}${match[3]}`;
}

export async function periodsFor(
  db: Db,
  source: DiyTableTable,
  periodId: number | undefined,
  compare: boolean,
  locale: Locale,
): Promise<{ current: PeriodRef | null; last: PeriodRef | null; lastYear: PeriodRef | null }> {
  const pick = () =>
    db
      .selectFrom('diy_table_period')
      .select(['id', 'name', 'period_key', 'start_date'])
      .where('table_id', '=', source.id)
      .where('tenant_id', '=', source.tenant_id);
  const ref = (row: { id: number; name: string; period_key: string; start_date: string } | undefined) =>
    row
      ? { id: Number(row.id), name: displayName(row, locale), key: row.period_key, start: row.start_date }
      : null;
  let current: PeriodRef | null;
  if (periodId !== undefined) {
    current = ref(await pick().where('id', '=', periodId).executeTakeFirst());
    if (!current) throw new AppError('F1025');
  } else {
    // The latest period that has started (today in the server's time zone).
    current = ref(
      await pick()
        .where('start_date', '<=', formatDate())
        .orderBy('start_date', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst(),
    );
  }
  if (!current || !compare) return { current, last: null, lastYear: null };
  const last = ref(
    await pick()
      .where('start_date', '<', current.start)
      .orderBy('start_date', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst(),
  );
  const key = lastYearKey(current.key);
  const lastYear = key ? ref(await pick().where('period_key', '=', key).executeTakeFirst()) : null;
  return { current, last, lastYear };
}

/** Up to `length` periods ending with `current` (by start date), oldest first: a trend's periods. */
export async function trendPeriods(
  db: Db,
  source: DiyTableTable,
  current: PeriodRef,
  length: number,
  locale: Locale,
): Promise<PeriodRef[]> {
  const rows = await db
    .selectFrom('diy_table_period')
    .select(['id', 'name', 'period_key', 'start_date', 'closed', 'close_time'])
    .where('table_id', '=', source.id)
    .where('tenant_id', '=', source.tenant_id)
    .where('start_date', '<=', current.start)
    .orderBy('start_date', 'desc')
    .orderBy('id', 'desc')
    .limit(length)
    .execute();
  return rows.reverse().map((row) => ({
    id: Number(row.id),
    name: displayName(row, locale),
    key: row.period_key,
    start: row.start_date,
    closedAt: Number(row.closed) === 1 ? (row.close_time ?? '') : null,
  }));
}
