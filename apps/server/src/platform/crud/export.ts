import { PassThrough } from 'node:stream';
import { CONSTANTS, type ConstTypeName } from '@shuzhi/contracts/const';
import { dictItemLabel } from '@shuzhi/contracts/dict-labels';
import type { Locale, Localized } from '@shuzhi/contracts/i18n';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../context.ts';
import { formatDateTime } from '../db/time.ts';

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

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const MIN_WIDTH = 10;
const MAX_WIDTH = 60;

/** value → label of every item of a dictionary type, disabled ones included (old rows still carry them). */
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

/**
 * Streams an .xlsx of the rows `batches` yields to the reply: headers in the request's language, labels for
 * dictionary and constant values. Memory stays flat however many rows there are (exceljs streaming writer).
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
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
  const sheet = workbook.addWorksheet(title[locale].slice(0, 31), {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  sheet.columns = columns.map((c) => ({
    header: c.label[locale],
    key: c.field,
    width: c.width ?? Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, c.label[locale].length * 2 + 2)),
  }));
  sheet.getRow(1).font = { bold: true };

  const write = async () => {
    for await (const batch of options.batches) {
      for (const item of batch) {
        sheet
          .addRow(
            columns.map((c, i) => {
              const value = item[c.field];
              if (value === null || value === undefined) return null;
              return labels[i]?.get(String(value)) ?? value;
            }),
          )
          .commit();
      }
    }
    sheet.commit();
    await workbook.commit();
  };
  write().catch((error: unknown) => {
    // Headers are gone already: the client sees a cut-off download, the log has the cause.
    ctx.log.error({ err: error }, 'excel export failed');
    out.destroy(error as Error);
  });
  return reply
    .header('content-type', XLSX_TYPE)
    .header('content-disposition', disposition(title[locale]))
    .send(out);
}
