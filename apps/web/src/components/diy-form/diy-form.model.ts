import type { AnyField, FormDesign, RecordValues } from '@shuzhi/contracts/diy-form';
import { LAYOUT_TYPES } from '@shuzhi/contracts/diy-form';
import {
  defaultValues,
  type FieldError,
  type Filler,
  fieldErrorText,
  labelOfPath,
  showWhenHolds,
  type ValidateOptions,
  validateRecord,
} from '@shuzhi/contracts/diy-validate';
import type { Locale } from '@shuzhi/contracts/i18n';
import type { WallClock } from '@shuzhi/contracts/time-zone';
import { useMemo } from 'react';
import { useAllDicts } from '../../platform/dict/dict.store.ts';
import { wallClockNow } from '../../platform/time/time-zone.ts';

/**
 * The renderer's pure side: where a value sits (`amount`, `items[2].qty`), what a change does to the record
 * (hidden fields emptied, formulas recomputed by the contract's `validateRecord`), and how errors read. The
 * rules themselves live in `@shuzhi/contracts/diy-validate`; nothing here re-implements them.
 */

export type Design = Pick<FormDesign, 'fields'> & Partial<Pick<FormDesign, 'labelWidth' | 'numbering'>>;

/**
 * An error shown under a field: the browser's coded error, or the server's finished messages (its envelope
 * answers `errors` as `{ path: [messages] }` in the request's language).
 */
export type ShownError = FieldError | string | readonly string[];
export type ServerErrors = Record<string, ShownError>;

export const cellPath = (tableId: string, row: number, columnId: string) => `${tableId}[${row}].${columnId}`;

const isEmpty = (value: unknown) =>
  value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

export const isEmptyValue = isEmpty;

type Row = RecordValues;
const rowsOf = (value: unknown): Row[] =>
  Array.isArray(value) ? value.filter((row): row is Row => !!row && typeof row === 'object') : [];

/** Whether a field shows: its show-when rules hold on the values of its level (and, in a row, the record's). */
export function isShown(field: AnyField, values: RecordValues, row?: Row): boolean {
  return showWhenHolds(field.showWhen, row ? { ...values, ...row } : values);
}

/**
 * Empties the values of fields whose show-when no longer holds, at the top and in sub-table rows, until
 * nothing changes (hiding one field can hide another that depends on it).
 */
function emptyHidden(design: Design, values: RecordValues): RecordValues {
  let current = values;
  for (let pass = 0; pass < 10; pass++) {
    let changed = false;
    const next: RecordValues = { ...current };
    for (const field of design.fields) {
      if (LAYOUT_TYPES.includes(field.type)) continue;
      if (!isShown(field, next)) {
        if (!isEmpty(next[field.id])) {
          next[field.id] = null;
          changed = true;
        }
        continue;
      }
      if (field.type === 'subTable' && Array.isArray(next[field.id])) {
        const columns = field.columns ?? [];
        let rowsChanged = false;
        const rows = rowsOf(next[field.id]).map((row) => {
          let copy: Row | null = null;
          for (const column of columns) {
            if (!isShown(column, next, row) && !isEmpty(row[column.id])) {
              copy ??= { ...row };
              copy[column.id] = null;
            }
          }
          if (copy) rowsChanged = true;
          return copy ?? row;
        });
        if (rowsChanged) {
          next[field.id] = rows;
          changed = true;
        }
      }
    }
    if (!changed) return current;
    current = next;
  }
  return current;
}

/** The record as computed by the contract: formulas of the record and of every row, in draft mode. */
export function computeRecord(design: Design, values: RecordValues, options?: Partial<ValidateOptions>) {
  return validateRecord(design, values, { ...options, mode: 'draft' }).values;
}

/** Copies computed formula results into the values the page keeps (the server computes its own anyway). */
function withFormulas(design: Design, values: RecordValues, computed: RecordValues): RecordValues {
  let next: RecordValues | null = null;
  for (const field of design.fields) {
    if (field.type === 'formula') {
      const value = computed[field.id] ?? null;
      if (values[field.id] !== value) {
        next ??= { ...values };
        next[field.id] = value;
      }
    }
    if (field.type === 'subTable') {
      const formulas = (field.columns ?? []).filter((c) => c.type === 'formula');
      const rows = rowsOf(values[field.id]);
      const computedRows = rowsOf(computed[field.id]);
      if (formulas.length === 0 || rows.length === 0 || computedRows.length !== rows.length) continue;
      let rowsChanged = false;
      const updated = rows.map((row, i) => {
        let copy: Row | null = null;
        for (const column of formulas) {
          const value = computedRows[i]?.[column.id] ?? null;
          if (row[column.id] !== value) {
            copy ??= { ...row };
            copy[column.id] = value;
          }
        }
        if (copy) rowsChanged = true;
        return copy ?? row;
      });
      if (rowsChanged) {
        next ??= { ...values };
        next[field.id] = updated;
      }
    }
  }
  return next ?? values;
}

/** The record after one value changed: hidden fields emptied, formulas recomputed. */
export function applyChange(
  design: Design,
  values: RecordValues,
  change: { field: string; row?: number; column?: string; value: unknown } | { field: string; rows: Row[] },
  options?: Partial<ValidateOptions>,
): RecordValues {
  let next: RecordValues;
  if ('rows' in change) {
    next = { ...values, [change.field]: change.rows.length ? change.rows : null };
  } else if (change.row !== undefined && change.column) {
    const rows = rowsOf(values[change.field]).slice();
    rows[change.row] = { ...(rows[change.row] ?? {}), [change.column]: change.value };
    next = { ...values, [change.field]: rows };
  } else {
    next = { ...values, [change.field]: change.value };
  }
  next = emptyHidden(design, next);
  return withFormulas(design, next, computeRecord(design, next, options));
}

/**
 * The values a new record starts with: the design's defaults (`periodStart`: the first day of the period it is
 * filed in), hidden fields empty, formulas computed.
 */
export function newRecordValues(
  design: Design,
  filler: Filler,
  today: WallClock = wallClockNow(),
  periodStart?: string | null,
): RecordValues {
  const values = emptyHidden(design, defaultValues(design, filler, today, periodStart));
  return withFormulas(design, values, computeRecord(design, values));
}

/** The dictionary values a choice may take, from the web's dictionary cache (undefined while loading). */
export function useDictOptions(): (dictCode: string) => ReadonlySet<string> | undefined {
  const { data } = useAllDicts();
  return useMemo(() => {
    const cache = new Map<string, ReadonlySet<string>>();
    return (code: string) => {
      if (!data) return undefined;
      let set = cache.get(code);
      if (!set) {
        set = new Set((data[code] ?? []).map((item) => item.value));
        cache.set(code, set);
      }
      return set;
    };
  }, [data]);
}

/** The text of an error shown under a field or cell (the field's own label). */
export function errorText(error: ShownError, label: string, locale: Locale): string {
  if (typeof error === 'string') return error;
  if (Array.isArray(error)) return error.join('；');
  return fieldErrorText(error as FieldError, label, locale);
}

const PATH = /^[a-z][a-z0-9]*(?:\[\d+\]\.[a-z][a-z0-9]*)?$/;

/**
 * The field errors of a failed save (`HttpError.errors`, `{ path: [messages] }`), ready for the renderer's
 * `errors`; null when the failure was not about fields.
 */
export function serverFieldErrors(errors: unknown): ServerErrors | null {
  if (!errors || typeof errors !== 'object' || Array.isArray(errors)) return null;
  const out: ServerErrors = {};
  for (const [path, messages] of Object.entries(errors as Record<string, unknown>)) {
    if (!PATH.test(path)) continue;
    if (typeof messages === 'string') out[path] = messages;
    else if (Array.isArray(messages)) out[path] = messages.map(String);
  }
  return Object.keys(out).length > 0 ? out : null;
}

export type ErrorMessage = { path: string; label: string; text: string };

/** Errors as messages with full labels (`明细 第3行 数量不能为空`), in the design's order. */
export function errorMessages(
  design: Design,
  errors: Record<string, ShownError>,
  locale: Locale,
  rowWord: (n: number) => string,
): ErrorMessage[] {
  const order = new Map(design.fields.map((f, i) => [f.id, i]));
  const rank = (path: string) => {
    const m = /^([a-z0-9]+)(?:\[(\d+)\])?/.exec(path);
    return [order.get(m?.[1] ?? '') ?? 1e9, m?.[2] ? Number(m[2]) + 1 : 0] as const;
  };
  return Object.entries(errors)
    .sort(([a], [b]) => {
      const [fa, ra] = rank(a);
      const [fb, rb] = rank(b);
      return fa - fb || ra - rb;
    })
    .map(([path, error]) => {
      const label = labelOfPath(design, path, rowWord);
      return { path, label, text: errorText(error, label, locale) };
    });
}
