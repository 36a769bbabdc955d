import { CONSTANTS, type ConstTypeName } from '@shuzhi/contracts/const';
import { dictItemLabel } from '@shuzhi/contracts/dict-labels';
import type { Locale, Localized } from '@shuzhi/contracts/i18n';
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../context.ts';
import { formatDateTime } from '../db/time.ts';
import type { XlsxValue } from '../xlsx/sheet-write.ts';
import { workbookStream, XLSX_TYPE } from '../xlsx/xlsx-write.ts';

/** One column of an Excel export: the item field, its header in every language, how to show its value. */
export type ExportColumn<Field extends string = string> = {
  field: Field;
  label: Localized;
  /** Show the label of this dictionary type's item instead of the stored value. */
  dict?: string;
  /** Show the label of this constant list's item (contracts/const.ts) instead of the value. */
  constant?: ConstTypeName;
  /** Column width in characters (default from the header). */
  width?: number;
};

const MIN_WIDTH = 10;
const MAX_WIDTH = 60;

/** Labels of a dictionary's items in the export's language (built-in items translated, edited ones as typed). */
async function dictLabels(ctx: AppContext, code: string, locale: Locale): Promise<Map<string, string>> {
  const rows = await ctx.db
    .selectFrom('sys_dict_data as d')
    .innerJoin('sys_dict_type as t', 't.id', 'd.dict_type_id')
    .select(['d.value', 'd.label'])
    .where('t.code', '=', code)
    .where('t.is_delete', '=', 0)
    .where('d.is_delete', '=', 0)
    .execute();
  return new Map(rows.map((r) => [r.value, dictItemLabel(code, r.value, r.label, locale)]));
}

function constLabels(name: ConstTypeName, locale: Locale): Map<string, string> {
  return new Map(CONSTANTS[name].map((item) => [String(item.code), item.name[locale]]));
}

/** `{title}_{yyyyMMddHHmmss}.xlsx`, for a Content-Disposition header that survives any client. */
function disposition(title: string): string {
  const stamp = formatDateTime().replace(/\D/g, '');
  const name = `${title}_${stamp}.xlsx`;
  return `attachment; filename="export_${stamp}.xlsx"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** A stored value as a cell: labels for dictionary and constant values, text for anything not a cell value. */
function cellOf(value: unknown, labels: Map<string, string> | null): XlsxValue {
  if (value === null || value === undefined) return null;
  const label = labels?.get(String(value));
  if (label !== undefined) return label;
  if (
    typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'boolean' ||
    value instanceof Date
  )
    return value;
  return String(value);
}

/**
 * Streams an .xlsx of the rows `batches` yields to the reply: headers in the request's language, labels for
 * dictionary and constant values. Memory stays flat however many rows there are: each batch is written into
 * the zip as it comes, at the pace the client reads (platform/xlsx).
 */
export async function sendXlsx(
  ctx: AppContext,
  reply: FastifyReply,
  options: {
    title: Localized;
    locale: Locale;
    columns: readonly ExportColumn[];
    batches: AsyncIterable<Record<string, unknown>[]>;
  },
): Promise<FastifyReply> {
  const { title, locale, columns } = options;
  const labels = await Promise.all(
    columns.map((c) =>
      c.dict
        ? dictLabels(ctx, c.dict, locale)
        : c.constant
          ? Promise.resolve(constLabels(c.constant, locale))
          : null,
    ),
  );
  const out = workbookStream(ctx.log, async (book) => {
    const sheet = await book.sheet({
      name: title[locale],
      frozenRows: 1,
      columns: columns.map((c) => ({
        width: c.width ?? Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, c.label[locale].length * 2 + 2)),
      })),
    });
    await sheet.rows([columns.map((c) => c.label[locale])], { bold: true });
    for await (const batch of options.batches)
      await sheet.rows(batch.map((item) => columns.map((c, i) => cellOf(item[c.field], labels[i] ?? null))));
    await book.end();
  });
  return reply
    .header('content-type', XLSX_TYPE)
    .header('content-disposition', disposition(title[locale]))
    .send(out);
}
