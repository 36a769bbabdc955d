import type { QueryCell, QueryRunInput } from '@shuzhi/contracts/diy-query';
import type { Locale, Localized } from '@shuzhi/contracts/i18n';
import type { FastifyReply } from 'fastify';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { contentDisposition } from '../../platform/files/storage.ts';
import type { XlsxCell, XlsxValue } from '../../platform/xlsx/sheet-write.ts';
import { workbookStream, XLSX_TYPE } from '../../platform/xlsx/xlsx-write.ts';
import { excelDate } from '../diy-ledger/diy-ledger.service.ts';
import { openQuery } from './query.service.ts';
import { outKind, runPage } from './query-run.ts';

/** Rows read per query while exporting (a page of the run: groups and their subtotals stay in order). */
export const QUERY_EXPORT_BATCH = 1000;

const TEXTS = {
  subtotal: { 'zh-CN': '小计', en: 'Subtotal', 'zh-TW': '小計' },
  total: { 'zh-CN': '合计', en: 'Total', 'zh-TW': '合計' },
} satisfies Record<string, Localized>;

/**
 * `POST /api/diyQuery/{id}/export`: every row the parameters leave (no paging), with subtotals and the grand
 * total, streamed as an .xlsx through the server's writer (`platform/xlsx`): one batch of rows in memory at a
 * time, the database read paused while the client is slow. Needs the export right on every source.
 */
export async function exportQuery(
  ctx: AppContext,
  user: AuthUser,
  id: number,
  input: { params: NonNullable<QueryRunInput['params']> },
  locale: Locale,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { form, plan } = await openQuery(ctx, user, id, locale);
  if (!plan.sources.every((s) => s.open.auth.export)) throw new AppError('F1001');
  // Fails before the download starts when a parameter is wrong (Q1003).
  const first = await runPage(ctx, plan, input.params, 1, QUERY_EXPORT_BATCH, locale, { count: false });
  const shown = plan.columns.filter((c) => !c.hidden);
  const numFmt = (kind: string, precision: number) =>
    kind === 'number'
      ? precision > 0
        ? `#,##0.${'0'.repeat(precision)}`
        : '#,##0'
      : kind === 'date'
        ? 'yyyy-mm-dd'
        : undefined;
  const kinds = shown.map((c) => outKind(plan, c));
  const cellOf = (value: QueryCell | undefined, i: number): XlsxValue => {
    if (value === null || value === undefined) return null;
    if (kinds[i] === 'date' && typeof value === 'string') return excelDate(value.slice(0, 10)) ?? value;
    return value;
  };
  const out = workbookStream(ctx.log, async (book) => {
    const sheet = await book.sheet({
      name: form.title,
      columns: shown.map((c, i) => {
        const fmt = numFmt(kinds[i] as string, c.precision);
        return {
          width: Math.min(40, Math.max(10, c.label.length * 2 + 4)),
          style: fmt ? { numFmt: fmt } : undefined,
        };
      }),
      frozenRows: 1,
    });
    await sheet.rows([shown.map((c) => c.label)], { bold: true, center: true });
    let data = first;
    for (let page = 1; ; page += 1) {
      if (page > 1)
        data = await runPage(ctx, plan, input.params, page, QUERY_EXPORT_BATCH, locale, { count: false });
      const lines = data.rows.map((r) =>
        shown.map((c, i) => {
          const cell = cellOf(r.cells[c.id], i);
          if (r.kind !== 'subtotal') return cell;
          return {
            value: c.id === plan.groupBy[1]?.id ? TEXTS.subtotal[locale] : cell,
            style: { bold: true },
          };
        }),
      );
      // Waits while the client is slower than the database: memory holds about one batch.
      await sheet.rows(lines);
      if (data.count <= page * QUERY_EXPORT_BATCH) break;
    }
    await sheet.rows([
      shown.map((c, i) => ({
        value:
          i === 0 && (first.total[c.id] ?? null) === null
            ? TEXTS.total[locale]
            : cellOf(first.total[c.id], i),
        style: { bold: true },
      })) as XlsxCell[],
    ]);
    await sheet.end();
    await book.end();
  });
  const stamp = formatDateTime().replace(/\D/g, '');
  return reply
    .header('content-type', XLSX_TYPE)
    .header('content-disposition', contentDisposition('attachment', `${form.title}_${stamp}.xlsx`))
    .header('cache-control', 'no-store')
    .send(out);
}
