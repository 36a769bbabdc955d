import {
  type AnyField,
  FILE_TYPES,
  type FormDesign,
  type FormField,
  type RecordValues,
  valueFields,
} from '@shuzhi/contracts/diy-form';
import { DEFAULT_FILE_TYPE } from '@shuzhi/contracts/file';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import type { Db } from '../../platform/db/db.ts';
import type { BelongFile } from '../../platform/files/belong.ts';
import { findRow, openForm } from './diy-data.service.ts';

/**
 * The files of a record (issue 5 §3 "files of a record"): a saved record marks the files of its attachment
 * and image fields (top level and inside sub-table rows) as its own — `sys_file.belong_id` = record id and
 * `file_type` = `diy:<formId>` — so that whoever may read the record may preview and download them
 * (platform/files/belong.ts asks `recordFileReadable` below). Files removed from the record are released again.
 */

export const RECORD_FILE_PREFIX = 'diy:';

/** The `file_type` of a file held by a record of form `tableId`. */
export const recordFileType = (tableId: number) => `${RECORD_FILE_PREFIX}${tableId}`;

/** The form id of a record file's `file_type`, or null. */
export function formOfFileType(fileType: string | null): number | null {
  if (!fileType?.startsWith(RECORD_FILE_PREFIX)) return null;
  const text = fileType.slice(RECORD_FILE_PREFIX.length);
  const id = /^[1-9][0-9]{0,17}$/.test(text) ? Number(text) : Number.NaN;
  return Number.isSafeInteger(id) ? id : null;
}

const fileIdsOf = (value: unknown): number[] =>
  (Array.isArray(value) ? value : value === null || value === undefined ? [] : [value])
    .map(Number)
    .filter((n) => Number.isSafeInteger(n) && n > 0);

/** Every file field holding ids, with its label path: `files`, or `items[0].photo` inside sub-tables. */
function* fileEntries(design: FormDesign, values: RecordValues): Generator<{ path: string; ids: number[] }> {
  for (const field of valueFields(design)) {
    const value = values[field.id];
    if (field.type === 'subTable') {
      const columns = ((field as FormField).columns ?? []).filter((c: AnyField) =>
        FILE_TYPES.includes(c.type),
      );
      if (columns.length === 0 || !Array.isArray(value)) continue;
      for (const [i, row] of (value as RecordValues[]).entries()) {
        for (const column of columns) {
          const ids = fileIdsOf(row?.[column.id]);
          if (ids.length) yield { path: `${field.id}[${i}].${column.id}`, ids };
        }
      }
    } else if (FILE_TYPES.includes(field.type)) {
      const ids = fileIdsOf(value);
      if (ids.length) yield { path: field.id, ids };
    }
  }
}

/** The file ids a record holds. */
export function recordFileIds(design: FormDesign, values: RecordValues): number[] {
  const ids = new Set<number>();
  for (const entry of fileEntries(design, values)) for (const id of entry.ids) ids.add(id);
  return [...ids];
}

/**
 * In the record's transaction: the record's files become its own (plain uploads of the tenant not held by
 * another record), and files it no longer holds go back to plain uploads.
 */
export async function attachRecordFiles(
  db: Db,
  tenantId: number,
  tableId: number,
  recordId: number,
  design: FormDesign,
  values: RecordValues,
): Promise<void> {
  const ids = recordFileIds(design, values);
  const type = recordFileType(tableId);
  let release = db
    .updateTable('sys_file')
    .set({ belong_id: null, file_type: DEFAULT_FILE_TYPE })
    .where('tenant_id', '=', tenantId)
    .where('belong_id', '=', recordId)
    .where('file_type', '=', type);
  if (ids.length) release = release.where('id', 'not in', ids);
  await release.execute();
  if (ids.length === 0) return;
  await db
    .updateTable('sys_file')
    .set({ belong_id: recordId, file_type: type })
    .where('id', 'in', ids)
    .where('tenant_id', '=', tenantId)
    .where('is_delete', '=', 0)
    .where((eb) =>
      eb.or([
        eb.and([eb('belong_id', 'is', null), eb('file_type', '=', DEFAULT_FILE_TYPE)]),
        eb.and([eb('belong_id', '=', recordId), eb('file_type', '=', type)]),
      ]),
    )
    .execute();
}

/** File names by label path (`files`, `items[0].photo`), joined with `、`, for each record. */
export async function fileLabels(
  db: Db,
  tenantId: number,
  records: readonly { design: FormDesign; values: RecordValues }[],
): Promise<Record<string, string>[]> {
  const entries = records.map(({ design, values }) => [...fileEntries(design, values)]);
  const wanted = new Set<number>();
  for (const list of entries) for (const entry of list) for (const id of entry.ids) wanted.add(id);
  const names = new Map<number, string>();
  const all = [...wanted];
  for (let i = 0; i < all.length; i += 500) {
    const rows = await db
      .selectFrom('sys_file')
      .select(['id', 'file_name'])
      .where('id', 'in', all.slice(i, i + 500))
      .where('tenant_id', '=', tenantId)
      .where('is_delete', '=', 0)
      .execute();
    for (const row of rows) names.set(Number(row.id), row.file_name);
  }
  return entries.map((list) => {
    const labels: Record<string, string> = {};
    for (const { path, ids } of list) {
      const found = ids.map((id) => names.get(id)).filter((n): n is string => n !== undefined);
      if (found.length) labels[path] = found.join('、');
    }
    return labels;
  });
}

/** Reader of `diy:<formId>` files (platform/files/belong.ts): whoever may read the record reads its files. */
export async function recordFileReadable(
  ctx: AppContext,
  caller: AuthUser,
  file: BelongFile,
): Promise<boolean> {
  const tableId = formOfFileType(file.file_type);
  if (tableId === null || file.belong_id === null) return false;
  const open = await openForm(ctx, caller, tableId);
  if (!open.auth.query) return false;
  await findRow(ctx.db, open, Number(file.belong_id));
  return true;
}
