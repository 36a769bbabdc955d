import {
  type AnyField,
  CHOICE_TYPES,
  FILE_TYPES,
  type FormDesign,
  type FormField,
  type RecordValues,
  valueFields,
} from '@shuzhi/contracts/diy-form';
import { type FieldErrors, fieldErrorText, labelOfPath } from '@shuzhi/contracts/diy-validate';
import type { Locale } from '@shuzhi/contracts/i18n';
import { sql } from 'kysely';
import type { Db } from '../../platform/db/db.ts';
import { columnFor, safeColumn } from '../../platform/diy/data-table.ts';
import { recordsOf } from '../../platform/diy/dynamic-table.ts';
import { usableOrgNames, usableUserNames } from '../diy-table/diy-pick.ts';
import type { OpenForm } from './diy-data.service.ts';
import { dictLabels } from './diy-record-labels.ts';

/**
 * The checks of a record write beyond the shared rules (`validateRecord`), those that need the database, and
 * the field errors in the request's language.
 */

const ROW_WORD: Record<Locale, (n: number) => string> = {
  'zh-CN': (n) => `第${n}行`,
  en: (n) => `row ${n}`,
  'zh-TW': (n) => `第${n}列`,
};

export function fieldErrorsOf(
  design: FormDesign,
  errors: FieldErrors,
  locale: Locale,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [path, error] of Object.entries(errors)) {
    out[path] = [fieldErrorText(error, labelOfPath(design, path, ROW_WORD[locale]), locale)];
  }
  return out;
}

/** Every field of the design with the values it holds, top level and inside sub-table rows. */
function* fieldValues(
  design: FormDesign,
  values: RecordValues,
): Generator<{ field: AnyField; value: unknown; path: string }> {
  for (const field of valueFields(design)) {
    const value = values[field.id];
    if (field.type === 'subTable') {
      const rows = Array.isArray(value) ? (value as RecordValues[]) : [];
      for (const [i, row] of rows.entries()) {
        for (const column of (field as FormField).columns ?? []) {
          yield { field: column, value: row?.[column.id], path: `${field.id}[${i}].${column.id}` };
        }
      }
    } else yield { field, value, path: field.id };
  }
}

const listOf = (value: unknown): unknown[] =>
  value === null || value === undefined ? [] : Array.isArray(value) ? value : [value];

/**
 * The checks that need the database: picked orgs, enterprises and users must be ones the caller may use
 * (values already on the record stay allowed), files must be the caller's uploads (or already attached),
 * regions must exist; with `unique`, values of unique fields must not repeat among the form's live records.
 */
export async function databaseErrors(
  db: Db,
  open: OpenForm,
  design: FormDesign,
  version: number,
  values: RecordValues,
  previous: RecordValues | null,
  recordId: number | null,
  checkUnique: boolean,
  periodId: number | null,
): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  const kept = new Set<string>();
  if (previous) {
    for (const { field, value } of fieldValues(design, previous)) {
      for (const v of listOf(value)) kept.add(`${field.type}:${String(v)}`);
    }
  }
  const wanted = { org: new Set<number>(), enterprise: new Set<number>(), user: new Set<number>() };
  const files = new Set<number>();
  const regions = new Set<string>();
  const entries = [...fieldValues(design, values)];
  for (const { field, value } of entries) {
    for (const v of listOf(value)) {
      if (kept.has(`${field.type}:${String(v)}`)) continue;
      if (field.type === 'org' || field.type === 'enterprise' || field.type === 'user') {
        wanted[field.type].add(Number(v));
      } else if (FILE_TYPES.includes(field.type)) files.add(Number(v));
      else if (field.type === 'region') regions.add(String(v));
    }
  }
  const usable = {
    org: await usableOrgNames(db, open.caller, [...wanted.org], false),
    enterprise: await usableOrgNames(db, open.caller, [...wanted.enterprise], true),
    user: await usableUserNames(db, open.caller, [...wanted.user]),
  };
  const fileIds = files.size
    ? new Set(
        (
          await db
            .selectFrom('sys_file')
            .select('id')
            .where('id', 'in', [...files])
            .where('tenant_id', '=', open.form.tenant_id)
            .where('is_delete', '=', 0)
            .where('create_user_id', '=', open.caller.user.userId)
            .execute()
        ).map((r) => r.id),
      )
    : new Set<number>();
  const regionCodes = regions.size
    ? new Set(
        (
          await db
            .selectFrom('sys_region')
            .select('code')
            .where('code', 'in', [...regions])
            .where('is_delete', '=', 0)
            .execute()
        ).map((r) => r.code),
      )
    : new Set<string>();
  for (const { field, value, path } of entries) {
    for (const v of listOf(value)) {
      if (kept.has(`${field.type}:${String(v)}`)) continue;
      const ok =
        field.type === 'org' || field.type === 'enterprise' || field.type === 'user'
          ? usable[field.type].has(Number(v))
          : FILE_TYPES.includes(field.type)
            ? fileIds.has(Number(v))
            : field.type === 'region'
              ? regionCodes.has(String(v))
              : true;
      if (!ok) {
        errors[path] = { code: 'notFound' };
        break;
      }
    }
  }
  if (checkUnique) {
    for (const field of valueFields(design)) {
      if (field.unique === 'none' || errors[field.id]) continue;
      const value = values[field.id];
      if (value === null || value === undefined || Array.isArray(value) || typeof value === 'object')
        continue;
      const column = columnFor(open.columns, field.id, version);
      if (!column || column.storageKind === 'json') continue;
      let query = recordsOf(db, open.form.id)
        .select('id')
        .where('is_delete', '=', 0)
        .where(sql.ref(safeColumn(column.columnName)), '=', value);
      if (recordId !== null) query = query.where('id', '!=', recordId);
      // Unique within the period: only records of the same period count (forms without periods: the form).
      if (field.unique === 'period' && periodId !== null) query = query.where('period_id', '=', periodId);
      if (await query.limit(1).executeTakeFirst()) {
        errors[field.id] = { code: 'duplicate', params: { value: String(value) } };
      }
    }
  }
  return errors;
}

/** Dictionary values of the design's dictionary-bound choices. */
export async function dictOptionsOf(db: Db, design: FormDesign): Promise<Map<string, Set<string>>> {
  const codes = new Set<string>();
  for (const field of valueFields(design)) {
    for (const f of [field, ...(field.columns ?? [])] as AnyField[]) {
      if (CHOICE_TYPES.includes(f.type) && f.options?.source === 'dict') codes.add(f.options.dictCode);
    }
  }
  const labels = await dictLabels(db, [...codes]);
  return new Map([...labels].map(([code, map]) => [code, new Set(map.keys())]));
}
