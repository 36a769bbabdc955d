import { type AnyField, CHOICE_TYPES } from '@shuzhi/contracts/diy-form';
import type { Locale } from '@shuzhi/contracts/i18n';
import type { FastifyReply } from 'fastify';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { contentDisposition } from '../../platform/files/storage.ts';
import type { ListValidation, XlsxCell } from '../../platform/xlsx/sheet-write.ts';
import { workbookStream, XLSX_TYPE } from '../../platform/xlsx/xlsx-write.ts';
import { columnLetter } from '../../platform/xlsx/xml.ts';
import { dictLabels } from '../diy-data/diy-record-labels.ts';
import { headerLayout } from '../diy-ledger/ledger-columns.ts';
import { dictCodes, openForImport } from './diy-import.service.ts';
import { templateColumns } from './import-columns.ts';
import { importText } from './import-values.ts';

/**
 * The import template of a form (docs/import.md "Columns"): the ledger's header rows without its system
 * columns, a note on each header with the field's rules and what a blank cell takes, drop-downs of the
 * single-choice fields (their labels on a very hidden `_lists` sheet), number formats per column.
 */

/** A text of the template's notes in zh-CN, en and zh-TW. */
type Note = readonly [string, string, string];

function typeNote(field: AnyField): Note | null {
  const p = field.precision ?? 2;
  const notes: Record<string, Note> = {
    integer: ['整数', 'Whole number', '整數'],
    decimal: [`数字，最多 ${p} 位小数`, `Number, up to ${p} decimals`, `數字，最多 ${p} 位小數`],
    money: ['金额，最多 2 位小数', 'Amount, up to 2 decimals', '金額，最多 2 位小數'],
    percent: ['百分数（填 12.5 表示 12.5%）', 'Percent (12.5 means 12.5%)', '百分數（填 12.5 表示 12.5%）'],
    date: ['日期，如 2026-03-15', 'Date, e.g. 2026-03-15', '日期，如 2026-03-15'],
    datetime: [
      '日期时间，如 2026-03-15 09:30',
      'Date and time, e.g. 2026-03-15 09:30',
      '日期時間，如 2026-03-15 09:30',
    ],
    month: ['月份，如 2026-03', 'Month, e.g. 2026-03', '月份，如 2026-03'],
    quarter: ['季度，如 2026-Q1', 'Quarter, e.g. 2026-Q1', '季度，如 2026-Q1'],
    year: ['年份，如 2026', 'Year, e.g. 2026', '年份，如 2026'],
    region: ['区划全称、名称或代码', 'Region full name, name or code', '區劃全稱、名稱或代碼'],
    org: ['单位名称', 'Org name', '單位名稱'],
    enterprise: ['企业名称', 'Enterprise name', '企業名稱'],
    user: ['人员姓名', 'Person name', '人員姓名'],
    mobile: ['手机号码', 'Mobile number', '手機號碼'],
    idCard: ['身份证号', 'ID card number', '身分證號'],
    email: ['邮箱', 'Email', '電子郵件'],
  };
  return notes[field.type] ?? null;
}

/** What a blank cell of the field takes on import (the field's default). */
function defaultNote(field: AnyField): Note | null {
  const def = field.default;
  switch (def?.kind) {
    case 'period':
      return ['留空时填本期', 'Blank: this period', '留空時填本期'];
    case 'today':
      return ['留空时填今天', 'Blank: today', '留空時填今天'];
    case 'fillerName':
      return ['留空时填导入人姓名', 'Blank: the name of who imports', '留空時填匯入人姓名'];
    case 'fillerOrg':
      return ['留空时填导入人单位', 'Blank: the org of who imports', '留空時填匯入人單位'];
    case 'fillerRegion':
      return ['留空时填导入人单位的区划', 'Blank: the region of who imports', '留空時填匯入人單位的區劃'];
    case 'constant':
      return typeof def.value === 'string' || typeof def.value === 'number'
        ? [`留空时填“${def.value}”`, `Blank: "${def.value}"`, `留空時填「${def.value}」`]
        : null;
    default:
      return null;
  }
}

function ruleNote(field: AnyField, locale: Locale, dicts: Map<string, Map<string, string>>): string {
  const pick = (note: Note) => (locale === 'en' ? note[1] : locale === 'zh-TW' ? note[2] : note[0]);
  const lines: string[] = [];
  if (field.required) lines.push(pick(['必填', 'Required', '必填']));
  const type = typeNote(field);
  if (type) lines.push(pick(type));
  if (CHOICE_TYPES.includes(field.type) && field.options) {
    const labels =
      field.options.source === 'options'
        ? field.options.items.map((o) => o.label)
        : [...(dicts.get(field.options.dictCode)?.values() ?? [])];
    const multi = field.type === 'multiSelect' || field.type === 'checkbox';
    const lead = multi
      ? pick(['可多选，用“、”分隔：', 'Several, separated by 、: ', '可多選，用「、」分隔：'])
      : pick(['从下拉中选择：', 'Pick one: ', '從下拉中選擇：']);
    lines.push(`${lead}${labels.slice(0, 30).join('、')}${labels.length > 30 ? '…' : ''}`);
  }
  if (field.minLength || field.maxLength) {
    const range = `${field.minLength ?? 0}–${field.maxLength}`;
    lines.push(pick([`长度 ${range}`, `Length ${range}`, `長度 ${range}`]));
  }
  if (field.min !== null && field.min !== undefined)
    lines.push(pick([`最小 ${field.min}`, `Min ${field.min}`, `最小 ${field.min}`]));
  if (field.max !== null && field.max !== undefined)
    lines.push(pick([`最大 ${field.max}`, `Max ${field.max}`, `最大 ${field.max}`]));
  if (field.unique && field.unique !== 'none')
    lines.push(pick(['不能与已有记录重复', 'Must not repeat an existing record', '不能與已有記錄重複']));
  if (field.pattern?.message) lines.push(field.pattern.message);
  const blank = defaultNote(field);
  if (blank) lines.push(pick(blank));
  if (field.help) lines.push(field.help);
  return lines.join('\n');
}

const TEMPLATE_ROWS = 5000;

/** `GET /api/diyImport/{tableId}/template`. */
export async function importTemplate(
  ctx: AppContext,
  user: AuthUser,
  tableId: number,
  locale: Locale,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const open = await openForImport(ctx, user, tableId);
  const columns = templateColumns(open.design, locale);
  const dicts = await dictLabels(ctx.db, dictCodes(open.design));
  const layout = headerLayout(columns);
  const headerRows: XlsxCell[][] = layout.rows.map((row) => [...row]);
  const first = layout.rows.length + 1;
  const lists: string[][] = [];
  const validations: ListValidation[] = [];
  for (const [i, column] of columns.entries()) {
    const field = column.field;
    // An ungrouped header sits in the first row (merged over both); a grouped one under its group.
    const row = headerRows[column.group === null ? 0 : layout.rows.length - 1] as XlsxCell[];
    const note = ruleNote(field, locale, dicts);
    row[i] = {
      value: row[i] as string,
      style: { center: true, color: field.required ? 'FFC00000' : undefined },
      note: note || undefined,
    };
    const single = field.type === 'select' || field.type === 'radio';
    if (!single || !field.options) continue;
    const labels =
      field.options.source === 'options'
        ? field.options.items.map((o) => o.label)
        : [...(dicts.get(field.options.dictCode)?.values() ?? [])];
    if (labels.length === 0) continue;
    lists.push(labels);
    const letter = columnLetter(lists.length);
    const target = columnLetter(i + 1);
    validations.push({
      range: `${target}${first}:${target}${first + TEMPLATE_ROWS}`,
      formula: `'_lists'!$${letter}$1:$${letter}$${labels.length}`,
      title: column.header,
      error: importText('option', locale, { v: '' }).replace(/[“”「」"]/g, ''),
    });
  }
  const out = workbookStream(ctx.log, async (book) => {
    const sheet = await book.sheet({
      name: open.form.title,
      columns: columns.map((c) => ({ width: c.width, style: c.numFmt ? { numFmt: c.numFmt } : undefined })),
      frozenRows: layout.rows.length,
    });
    await sheet.rows(headerRows, { bold: true });
    await sheet.end({ merges: layout.merges, validations });
    const listSheet = await book.sheet({ name: '_lists', state: 'veryHidden' });
    const longest = Math.max(0, ...lists.map((l) => l.length));
    await listSheet.rows(Array.from({ length: longest }, (_, k) => lists.map((labels) => labels[k] ?? null)));
    await book.end();
  });
  return reply
    .header('content-type', XLSX_TYPE)
    .header('content-disposition', contentDisposition('attachment', `${open.form.title}_导入模板.xlsx`))
    .header('cache-control', 'no-store')
    .send(out);
}
