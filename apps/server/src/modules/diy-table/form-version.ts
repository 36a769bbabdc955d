import type { FormDesign } from '@shuzhi/contracts/diy-form';
import type { AppContext } from '../../platform/context.ts';
import { type DataColumn, loadColumns } from '../../platform/diy/data-table.ts';
import { parseDesign } from '../../platform/diy/form-access.ts';
import type { Db } from './form-rows.ts';

/** Published designs and column registries, which never change once published (kept in the process cache). */

export const EMPTY_DESIGN: FormDesign = { fields: [], labelWidth: 120 };

const CACHE_SECONDS = 3600;

/**
 * The design of a published version (null when the form has none). Published versions never change, so they
 * are kept in the process cache.
 */
export async function versionDesign(
  ctx: AppContext,
  db: Db,
  tableId: number,
  version: number,
): Promise<FormDesign | null> {
  if (version <= 0) return null;
  const key = `diy-design:${tableId}:${version}`;
  const hit = ctx.cache.local.get<FormDesign>(key);
  if (hit) return hit;
  const row = await db
    .selectFrom('diy_table_version')
    .select('design')
    .where('table_id', '=', tableId)
    .where('version', '=', version)
    .executeTakeFirst();
  const design = row ? parseDesign(row.design) : null;
  if (design) ctx.cache.local.set(key, design, CACHE_SECONDS);
  return design;
}

/**
 * The column registry of a form as of its current version: columns are added only by publishing a newer
 * version, so the registry of a version never changes and is kept in the process cache.
 */
export async function columnsAt(
  ctx: AppContext,
  db: Db,
  tableId: number,
  version: number,
): Promise<DataColumn[]> {
  const key = `diy-columns:${tableId}:${version}`;
  const hit = ctx.cache.local.get<DataColumn[]>(key);
  if (hit) return hit;
  const columns = await loadColumns(db, tableId);
  if (columns.every((c) => c.createdVersion <= version)) ctx.cache.local.set(key, columns, CACHE_SECONDS);
  return columns;
}
