import { CHOICE_TYPES, type FormDesign, type RecordValues, valueFields } from '@shuzhi/contracts/diy-form';
import { STATUS } from '@shuzhi/contracts/envelope';
import type { AppContext } from '../../platform/context.ts';
import type { Db } from '../../platform/db/db.ts';

/**
 * Display labels of records' coded values: option and dictionary labels, org, user and region names (the
 * record page, the row confirmation; the ledger and the import read dictionaries with `dictLabels`).
 */

/** Display labels of coded values (options, dictionaries, orgs, users, regions) by field id. */
export async function labelsOf(
  ctx: AppContext,
  records: { design: FormDesign; values: RecordValues }[],
): Promise<Record<string, string>[]> {
  const orgIds = new Set<number>();
  const userIds = new Set<number>();
  const regions = new Set<string>();
  const dictCodes = new Set<string>();
  for (const { design, values } of records) {
    for (const field of valueFields(design)) {
      const value = values[field.id];
      if (value === null || value === undefined) continue;
      const list = Array.isArray(value) ? value : [value];
      if (field.type === 'org' || field.type === 'enterprise') for (const v of list) orgIds.add(Number(v));
      else if (field.type === 'user') for (const v of list) userIds.add(Number(v));
      else if (field.type === 'region') regions.add(String(value));
      else if (CHOICE_TYPES.includes(field.type) && field.options?.source === 'dict') {
        dictCodes.add(field.options.dictCode);
      }
    }
  }
  const orgNames = orgIds.size
    ? new Map(
        (
          await ctx.db
            .selectFrom('sys_org')
            .select(['id', 'name'])
            .where('id', 'in', [...orgIds])
            .execute()
        ).map((r) => [r.id, r.name]),
      )
    : new Map<number, string>();
  const userNames = userIds.size
    ? new Map(
        (
          await ctx.db
            .selectFrom('sys_user')
            .select(['id', 'real_name'])
            .where('id', 'in', [...userIds])
            .execute()
        ).map((r) => [r.id, r.real_name]),
      )
    : new Map<number, string>();
  const regionNames = regions.size
    ? new Map(
        (
          await ctx.db
            .selectFrom('sys_region')
            .select(['code', 'full_name'])
            .where('code', 'in', [...regions])
            .execute()
        ).map((r) => [r.code, r.full_name]),
      )
    : new Map<string, string>();
  const dicts = await dictLabels(ctx.db, [...dictCodes]);
  return records.map(({ design, values }) => {
    const labels: Record<string, string> = {};
    for (const field of valueFields(design)) {
      const value = values[field.id];
      if (value === null || value === undefined) continue;
      const list = Array.isArray(value) ? value : [value];
      let names: (string | undefined)[] | null = null;
      if (field.type === 'org' || field.type === 'enterprise')
        names = list.map((v) => orgNames.get(Number(v)));
      else if (field.type === 'user') names = list.map((v) => userNames.get(Number(v)));
      else if (field.type === 'region') names = [regionNames.get(String(value))];
      else if (CHOICE_TYPES.includes(field.type) && field.options) {
        const source = field.options;
        const map =
          source.source === 'options'
            ? new Map(source.items.map((o) => [o.value, o.label]))
            : (dicts.get(source.dictCode) ?? new Map<string, string>());
        names = list.map((v) => map.get(String(v)));
      }
      if (names) labels[field.id] = names.map((n, i) => n ?? String(list[i])).join('、');
    }
    return labels;
  });
}

/** Enabled dictionary values and labels by dictionary code. */
export async function dictLabels(db: Db, codes: string[]): Promise<Map<string, Map<string, string>>> {
  const out = new Map<string, Map<string, string>>();
  if (codes.length === 0) return out;
  const rows = await db
    .selectFrom('sys_dict_data as d')
    .innerJoin('sys_dict_type as t', 't.id', 'd.dict_type_id')
    .select(['t.code', 'd.value', 'd.label'])
    .where('t.code', 'in', codes)
    .where('t.is_delete', '=', 0)
    .where('d.is_delete', '=', 0)
    .where('d.status', '=', STATUS.enabled)
    .execute();
  for (const code of codes) out.set(code, new Map());
  for (const r of rows) out.get(r.code)?.set(r.value, r.label);
  return out;
}

/** ASCII letters folded, as the keyword's LIKE folds them on SQLite. */
const foldAscii = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

/**
 * The stored option values of each choice field whose option label contains `keyword`, by field id: the record
 * list's keyword also finds a record by the label of an option it holds (docs/search.md).
 */
export async function choicesLabelled(
  db: Db,
  design: FormDesign,
  keyword: string,
): Promise<Map<string, string[]>> {
  const fields = valueFields(design).filter((f) => CHOICE_TYPES.includes(f.type) && f.options);
  const codes = fields.flatMap((f) => (f.options?.source === 'dict' ? [f.options.dictCode] : []));
  const dicts = await dictLabels(db, [...new Set(codes)]);
  const wanted = foldAscii(keyword);
  const out = new Map<string, string[]>();
  for (const field of fields) {
    const source = field.options;
    if (!source) continue;
    const entries: [string, string][] =
      source.source === 'options'
        ? source.items.map((o) => [o.value, o.label])
        : [...(dicts.get(source.dictCode) ?? new Map<string, string>())];
    const values = entries.filter(([, label]) => foldAscii(label).includes(wanted)).map(([value]) => value);
    if (values.length > 0) out.set(field.id, values);
  }
  return out;
}
