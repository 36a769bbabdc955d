import {
  type AnyField,
  CHOICE_TYPES,
  DATE_TYPES,
  NUMBER_TYPES,
  valueFields,
} from '@shuzhi/contracts/diy-form';
import { type FormulaNode, formulaRefs, parseFormula } from '@shuzhi/contracts/diy-formula';
import {
  QUERY_ALIASES,
  type QueryAgg,
  type QueryAlias,
  type QueryColumn,
  type QueryConfig,
  type QueryParam,
  type QuerySystemField,
} from '@shuzhi/contracts/diy-query';
import type { Locale, Localized } from '@shuzhi/contracts/i18n';
import { type RawBuilder, sql } from 'kysely';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { type DataColumn, safeColumn } from '../../platform/diy/data-table.ts';
import { FieldErrorsError } from '../../platform/diy/field-errors.ts';
import { parsePeriodSettings } from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { currentColumn, type OpenForm, openForm } from '../diy-data/diy-data.service.ts';

/**
 * A query report's config resolved against its sources as the caller opens them (docs/query-reports.md): each
 * source's published design, column registry and the caller's reach on it; each column's SQL expression, built
 * from the column registry only (`safeColumn`), never from the request's text; each formula parsed. The same
 * resolution checks a config on save (problems answered as Q1002 with field errors) and runs it.
 */

export type ValueKind = 'number' | 'text' | 'date';

export type SourcePlan = {
  alias: QueryAlias;
  open: OpenForm;
  fields: Map<string, AnyField>;
  periodic: boolean;
  key: DataColumn | null;
};

export type ColumnPlan = {
  id: string;
  label: string;
  hidden: boolean;
  kind: ValueKind;
  precision: number;
  /** A formula column: its parsed formula (refs are column ids). */
  formula: FormulaNode | null;
  /** A field or system column: its source, SQL expression and field (null for system values). */
  source: QueryAlias | null;
  expr: RawBuilder<unknown> | null;
  field: AnyField | null;
  system: QuerySystemField | null;
  agg: QueryAgg;
};

export type ParamPlan = QueryParam & { expr: RawBuilder<unknown> | null; column: DataColumn | null };

export type Plan = {
  config: QueryConfig;
  tenantId: number;
  sources: SourcePlan[];
  columns: ColumnPlan[];
  params: ParamPlan[];
  groupBy: ColumnPlan[];
};

const TEXTS = {
  unknownField: {
    'zh-CN': '来源表单中没有此字段',
    en: 'The source form has no such field',
    'zh-TW': '來源表單中沒有此欄位',
  },
  unknownSource: { 'zh-CN': '没有此来源表单', en: 'No such source form', 'zh-TW': '沒有此來源表單' },
  unknownColumn: { 'zh-CN': '没有此列', en: 'No such column', 'zh-TW': '沒有此欄' },
  duplicate: { 'zh-CN': '编号重复', en: 'The id repeats', 'zh-TW': '編號重複' },
  notNumber: {
    'zh-CN': '不是数字列，只能计数',
    en: 'Not a number column; it can only be counted',
    'zh-TW': '不是數字欄，只能計數',
  },
  badFormula: {
    'zh-CN': '公式有误：{detail}',
    en: 'The formula is not valid: {detail}',
    'zh-TW': '公式有誤：{detail}',
  },
  formulaRef: {
    'zh-CN': '公式只能引用它前面的列：{ref}',
    en: 'A formula may only use the columns before it: {ref}',
    'zh-TW': '公式只能引用它前面的欄：{ref}',
  },
  notSortable: {
    'zh-CN': '计算列不能排序或分组',
    en: 'A computed column cannot be sorted or grouped by',
    'zh-TW': '計算欄不能排序或分組',
  },
  keyRequired: {
    'zh-CN': '按关键字段关联时须选择关键字段',
    en: 'Joining on a key field needs the key field',
    'zh-TW': '按關鍵欄位關聯時須選擇關鍵欄位',
  },
  keyKind: {
    'zh-CN': '关键字段的类型与主表的不一致',
    en: 'The key field’s kind differs from the base form’s',
    'zh-TW': '關鍵欄位的類型與主表的不一致',
  },
  paramField: {
    'zh-CN': '此参数不能用于该字段',
    en: 'This parameter cannot use that field',
    'zh-TW': '此參數不能用於該欄位',
  },
  periodic: {
    'zh-CN': '该来源表单没有填报周期',
    en: 'That source form has no periods',
    'zh-TW': '該來源表單沒有填報週期',
  },
  sameForm: {
    'zh-CN': '同一表单只能作为一个来源',
    en: 'A form can be a source only once',
    'zh-TW': '同一表單只能作為一個來源',
  },
} satisfies Record<string, Localized>;

/** Q1002 with the config's fields at fault (the routes answer it with the envelope's `errors`). */
export class QueryFieldErrors extends FieldErrorsError {}

const NUMBER_FIELD_TYPES = [...NUMBER_TYPES, 'formula', 'year'];

function kindOfField(field: AnyField): ValueKind {
  if (NUMBER_FIELD_TYPES.includes(field.type)) return 'number';
  if (DATE_TYPES.includes(field.type) && field.type !== 'quarter' && field.type !== 'year') return 'date';
  return 'text';
}

const SYSTEM_COLUMN: Record<QuerySystemField, string> = {
  $org: 'create_org_name',
  $user: 'create_user_name',
  $period: 'period_id',
  $dataNo: 'data_no',
  $submitTime: 'submit_time',
  $status: 'status',
};

/** System columns a query report reads (every data table has them). */
const SYSTEM_NAMES = new Set([
  'id',
  'tenant_id',
  'is_delete',
  'status',
  'create_user_id',
  'create_org_id',
  'period_id',
  ...Object.values(SYSTEM_COLUMN),
]);

/** A column of a source as SQL: `s2.f_amount` (system names or names of the registry only). */
export function columnRef(alias: QueryAlias, column: string): RawBuilder<unknown> {
  if (!(QUERY_ALIASES as readonly string[]).includes(alias))
    throw new Error(`query: refusing alias ${alias}`);
  return sql.ref(`${alias}.${SYSTEM_NAMES.has(column) ? column : safeColumn(column)}`);
}

/** An output column's name (`c1`…, checked by the config's schema and again here). */
export function outputName(id: string): RawBuilder<unknown> {
  if (!/^c[0-9]{1,3}$/.test(id)) throw new Error(`query: refusing column id ${id}`);
  return sql.id(id);
}

/** The sources as the caller opens them: Q1001 when missing, not published or not readable; Q1004 disabled. */
async function openSources(ctx: AppContext, user: AuthUser, config: QueryConfig): Promise<SourcePlan[]> {
  const out: SourcePlan[] = [];
  for (const s of config.sources) {
    let open: OpenForm;
    try {
      open = await openForm(ctx, user, s.tableId);
    } catch (error) {
      if (error instanceof AppError && (error.code === 'F1000' || error.code === 'F1002'))
        throw new AppError('Q1001');
      if (error instanceof AppError && error.code === 'F1003') throw new AppError('Q1004');
      throw error;
    }
    if (open.form.report_type !== 1 || !open.auth.query) throw new AppError('Q1001');
    const fields = new Map(
      valueFields(open.design)
        .filter((f) => f.type !== 'subTable')
        .map((f) => [f.id, f]),
    );
    out.push({
      alias: s.alias,
      open,
      fields,
      periodic: parsePeriodSettings(open.form.period).kind !== 'none',
      key: s.key ? currentColumn(open, s.key) : null,
    });
  }
  const tenants = new Set(out.map((s) => s.open.form.tenant_id));
  if (tenants.size > 1) throw new AppError('Q1001');
  return out;
}

type Errors = Record<string, string[]>;
const put = (errors: Errors, key: string, text: string) => {
  errors[key] = [...(errors[key] ?? []), text];
};

function fieldColumn(
  c: QueryColumn,
  i: number,
  sources: Map<QueryAlias, SourcePlan>,
  errors: Errors,
  locale: Locale,
): Pick<ColumnPlan, 'expr' | 'field' | 'system' | 'kind' | 'precision'> | null {
  const source = c.source ? sources.get(c.source) : undefined;
  if (!source) {
    put(errors, `config.columns.${i}.source`, TEXTS.unknownSource[locale]);
    return null;
  }
  const ref = c.field as string;
  if (ref.startsWith('$')) {
    const system = ref as QuerySystemField;
    return {
      expr: columnRef(source.alias, SYSTEM_COLUMN[system]),
      field: null,
      system,
      kind: system === '$submitTime' ? 'date' : 'text',
      precision: 0,
    };
  }
  const field = source.fields.get(ref);
  const column = field ? currentColumn(source.open, ref) : null;
  if (!field || !column) {
    put(errors, `config.columns.${i}.field`, TEXTS.unknownField[locale]);
    return null;
  }
  return {
    expr: columnRef(source.alias, column.columnName),
    field,
    system: null,
    kind: kindOfField(field),
    precision: field.precision ?? (field.type === 'integer' || field.type === 'year' ? 0 : 2),
  };
}

function resolveColumns(
  config: QueryConfig,
  sources: Map<QueryAlias, SourcePlan>,
  errors: Errors,
  locale: Locale,
): ColumnPlan[] {
  const seen = new Set<string>();
  const out: ColumnPlan[] = [];
  config.columns.forEach((c, i) => {
    if (seen.has(c.id)) put(errors, `config.columns.${i}.id`, TEXTS.duplicate[locale]);
    const base = { id: c.id, label: c.label, hidden: c.hidden, source: c.source ?? null };
    if (c.formula) {
      let node: FormulaNode | null = null;
      try {
        node = parseFormula(c.formula);
        for (const path of formulaRefs(node)) {
          const ref = path.join('.');
          if (path.length !== 1 || !seen.has(ref))
            put(errors, `config.columns.${i}.formula`, TEXTS.formulaRef[locale].replace('{ref}', ref));
        }
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        put(errors, `config.columns.${i}.formula`, TEXTS.badFormula[locale].replace('{detail}', detail));
      }
      out.push({
        ...base,
        source: null,
        kind: 'number',
        precision: 2,
        formula: node,
        expr: null,
        field: null,
        system: null,
        agg: 'sum',
      });
    } else {
      const resolved = fieldColumn(c, i, sources, errors, locale);
      if (resolved) {
        const agg = c.agg ?? (resolved.kind === 'number' ? 'sum' : 'count');
        if (agg !== 'count' && resolved.kind !== 'number' && !(agg === 'min' || agg === 'max'))
          put(errors, `config.columns.${i}.agg`, TEXTS.notNumber[locale]);
        out.push({ ...base, ...resolved, formula: null, agg });
      }
    }
    seen.add(c.id);
  });
  return out;
}

function resolveParams(
  config: QueryConfig,
  sources: Map<QueryAlias, SourcePlan>,
  errors: Errors,
  locale: Locale,
): ParamPlan[] {
  const seen = new Set<string>();
  return config.params.map((p, i) => {
    if (seen.has(p.id)) put(errors, `config.params.${i}.id`, TEXTS.duplicate[locale]);
    seen.add(p.id);
    const source = sources.get(p.source);
    if (!source) {
      put(errors, `config.params.${i}.source`, TEXTS.unknownSource[locale]);
      return { ...p, expr: null, column: null };
    }
    if (p.kind === 'period' && !source.periodic)
      put(errors, `config.params.${i}.source`, TEXTS.periodic[locale]);
    if (p.kind === 'period' || p.kind === 'org') return { ...p, expr: null, column: null };
    if (!p.field) return { ...p, expr: null, column: null };
    if (p.field === '$submitTime' && p.kind === 'dateRange')
      return { ...p, expr: columnRef(source.alias, 'submit_time'), column: null };
    const field = p.field.startsWith('$') ? undefined : source.fields.get(p.field);
    const column = field ? currentColumn(source.open, p.field) : null;
    const fits =
      field &&
      ((p.kind === 'region' && field.type === 'region') ||
        (p.kind === 'option' && CHOICE_TYPES.includes(field.type)) ||
        (p.kind === 'dateRange' && (field.type === 'date' || field.type === 'datetime')) ||
        (p.kind === 'keyword' && column?.storageKind === 'text'));
    if (!field || !column) put(errors, `config.params.${i}.field`, TEXTS.unknownField[locale]);
    else if (!fits) put(errors, `config.params.${i}.field`, TEXTS.paramField[locale]);
    return { ...p, expr: column ? columnRef(source.alias, column.columnName) : null, column };
  });
}

/**
 * Resolves a config for the caller. Problems of the config (a field gone, a formula that does not parse, a sort
 * on a computed column) answer Q1002 with field errors keyed by the config's path.
 */
export async function resolvePlan(
  ctx: AppContext,
  user: AuthUser,
  config: QueryConfig,
  locale: Locale,
): Promise<Plan> {
  const list = await openSources(ctx, user, config);
  const sources = new Map(list.map((s) => [s.alias, s]));
  const errors: Errors = {};
  const ids = new Set<number>();
  config.sources.forEach((s, i) => {
    if (ids.has(s.tableId)) put(errors, `config.sources.${i}.tableId`, TEXTS.sameForm[locale]);
    ids.add(s.tableId);
  });
  if (config.join === 'field') {
    const base = list[0];
    list.forEach((s, i) => {
      if (!s.key) put(errors, `config.sources.${i}.key`, TEXTS.keyRequired[locale]);
      else if (base?.key && s.key.storageKind !== base.key.storageKind)
        put(errors, `config.sources.${i}.key`, TEXTS.keyKind[locale]);
    });
  }
  const columns = resolveColumns(config, sources, errors, locale);
  const params = resolveParams(config, sources, errors, locale);
  const byId = new Map(columns.map((c) => [c.id, c]));
  const groupBy: ColumnPlan[] = [];
  config.groupBy.forEach((id, i) => {
    const c = byId.get(id);
    if (!c) put(errors, `config.groupBy.${i}`, TEXTS.unknownColumn[locale]);
    else if (!c.expr) put(errors, `config.groupBy.${i}`, TEXTS.notSortable[locale]);
    else groupBy.push(c);
  });
  config.sort.forEach((s, i) => {
    const c = byId.get(s.column);
    if (!c) put(errors, `config.sort.${i}.column`, TEXTS.unknownColumn[locale]);
    else if (!c.expr) put(errors, `config.sort.${i}.column`, TEXTS.notSortable[locale]);
  });
  if (config.chart) {
    for (const [i, id] of [config.chart.category, ...config.chart.values].entries())
      if (!byId.has(id))
        put(errors, `config.chart.${i === 0 ? 'category' : `values.${i - 1}`}`, TEXTS.unknownColumn[locale]);
  }
  if (Object.keys(errors).length > 0) throw new QueryFieldErrors(errors);
  return { config, tenantId: list[0]?.open.form.tenant_id ?? 0, sources: list, columns, params, groupBy };
}
