import { z } from 'zod';
import { FIELD_ID_PATTERN } from './diy-form.ts';
import { idSchema } from './envelope.ts';

/**
 * Query reports (issue 21 §1, report type 3, shown at `/diyLoad/index/loadTable?id=`). A query report is a form
 * item of its own (`diy_table.report_type = 3`, config in `diy_table.query_config`) that reads the records of one
 * or more report forms (its *sources*), joined on the filing unit and period or on a key field, as columns of
 * fields, system values and computed columns (the forms' formula language over the other columns), narrowed by
 * parameters the reader sets (period, org subtree, region, option, date range, keyword), optionally grouped with
 * subtotals and a grand total, sorted, paged on the server and exported to Excel. Every source is read with the
 * caller's reach on it (docs/query-reports.md).
 */

/** A source of the report: `s1` is the base; the others are joined to it. */
export const QUERY_ALIASES = ['s1', 's2', 's3', 's4'] as const;
export type QueryAlias = (typeof QUERY_ALIASES)[number];

/**
 * System values a column may show instead of a field: the filing unit, the filer, the period, the number, the
 * submit time, the state.
 */
export const QUERY_SYSTEM_FIELDS = ['$org', '$user', '$period', '$dataNo', '$submitTime', '$status'] as const;
export type QuerySystemField = (typeof QUERY_SYSTEM_FIELDS)[number];

export const QUERY_AGGS = ['sum', 'count', 'avg', 'min', 'max'] as const;
export type QueryAgg = (typeof QUERY_AGGS)[number];

export const QUERY_PARAM_KINDS = ['period', 'org', 'region', 'option', 'dateRange', 'keyword'] as const;
export type QueryParamKind = (typeof QUERY_PARAM_KINDS)[number];

const fieldRef = z.union([z.string().regex(FIELD_ID_PATTERN), z.enum(QUERY_SYSTEM_FIELDS)]);
const columnId = z.string().regex(/^c[0-9]{1,3}$/);

const querySourceSchema = z.object({
  alias: z.enum(QUERY_ALIASES),
  tableId: idSchema,
  /** Join `field`: this source's key field, equal to the base's `key`. */
  key: z.string().regex(FIELD_ID_PATTERN).nullish(),
});

const queryColumnSchema = z
  .object({
    id: columnId,
    label: z.string().trim().min(1).max(64),
    /** A field (or system value) of a source … */
    source: z.enum(QUERY_ALIASES).nullish(),
    field: fieldRef.nullish(),
    /** … or a formula over the other columns (`{c1} / {c2} * 100`), evaluated by the server, never by eval. */
    formula: z.string().trim().min(1).max(1000).nullish(),
    /** With grouping: how the column is folded (default sum for numbers, count otherwise). */
    agg: z.enum(QUERY_AGGS).nullish(),
    hidden: z.boolean().default(false),
  })
  .refine((c) => (c.formula ? !c.field : !!c.field && !!c.source), { message: 'fieldOrFormula' });
export type QueryColumn = z.infer<typeof queryColumnSchema>;

const queryParamSchema = z
  .object({
    id: z.string().regex(/^p[0-9]{1,2}$/),
    kind: z.enum(QUERY_PARAM_KINDS),
    label: z.string().trim().min(1).max(64),
    source: z.enum(QUERY_ALIASES).default('s1'),
    /** region / option / dateRange: the field; keyword: a text field (empty: every text field). */
    field: fieldRef.nullish(),
  })
  .refine((p) => !['region', 'option', 'dateRange'].includes(p.kind) || !!p.field, {
    path: ['field'],
    message: 'required',
  });
export type QueryParam = z.infer<typeof queryParamSchema>;

export const queryConfigSchema = z
  .object({
    sources: z.array(querySourceSchema).min(1).max(4),
    /** How the other sources join the base: same filing unit and period, or equal key fields. */
    join: z.enum(['unitPeriod', 'field']).default('unitPeriod'),
    columns: z.array(queryColumnSchema).min(1).max(40),
    params: z.array(queryParamSchema).max(10).default([]),
    /** Columns grouped by (field columns, at most 2); the others are folded by their `agg`. */
    groupBy: z.array(columnId).max(2).default([]),
    sort: z
      .array(z.object({ column: columnId, desc: z.boolean().default(false) }))
      .max(3)
      .default([]),
    /** Which records count: submitted and approved (default), approved only, or every live record. */
    statuses: z.enum(['submitted', 'approved', 'all']).default('submitted'),
    chart: z
      .object({
        type: z.enum(['bar', 'line', 'pie']),
        category: columnId,
        values: z.array(columnId).min(1).max(6),
      })
      .nullish(),
  })
  .refine((c) => c.sources.every((s, i) => s.alias === QUERY_ALIASES[i]), {
    path: ['sources'],
    message: 'aliases',
  });
export type QueryConfig = z.infer<typeof queryConfigSchema>;
export type QueryConfigInput = z.input<typeof queryConfigSchema>;

/** `POST /api/diyQuery/add` and `POST /api/diyQuery/update` (表单管理, diyTable:add / update). */
export const queryAddInputSchema = z.object({
  title: z.string().trim().min(1).max(128),
  categoryId: idSchema.nullish(),
  ownerOrgId: idSchema.nullish(),
  remark: z.string().max(256).nullish(),
  config: queryConfigSchema,
});
export type QueryAddInput = z.input<typeof queryAddInputSchema>;
export const queryUpdateInputSchema = queryAddInputSchema.partial().extend({ id: idSchema });
export type QueryUpdateInput = z.input<typeof queryUpdateInputSchema>;

/** How the page shows a column's values. */
const QUERY_VALUE_KINDS = ['number', 'text', 'date'] as const;

const paramOptionSchema = z.object({ value: z.string(), label: z.string() });

/** `GET /api/diyQuery/{id}/config`: the report, its sources and what each parameter offers. */
export const queryInfoSchema = z.object({
  id: z.number(),
  title: z.string(),
  config: queryConfigSchema,
  sources: z.array(
    z.object({ alias: z.enum(QUERY_ALIASES), tableId: z.number(), title: z.string(), periodic: z.boolean() }),
  ),
  columns: z.array(
    z.object({ id: z.string(), label: z.string(), kind: z.enum(QUERY_VALUE_KINDS), precision: z.number() }),
  ),
  /** Choices of option and period parameters (by parameter id). */
  paramOptions: z.record(z.string(), z.array(paramOptionSchema)),
  canEdit: z.boolean(),
  categoryId: z.number().nullable(),
  remark: z.string().nullable(),
});
export type QueryInfo = z.infer<typeof queryInfoSchema>;

/** A parameter's value: an id or code, a text, or a `[from, to]` date range. */
const paramValueSchema = z.union([
  z.string().max(200),
  z.number(),
  z.array(z.string().max(32).nullable()).max(2),
  z.null(),
]);

/** `POST /api/diyQuery/{id}/data` and `/export`. */
export const queryRunInputSchema = z.object({
  params: z.record(z.string().regex(/^p[0-9]{1,2}$/), paramValueSchema).default({}),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(500).default(20),
});
export type QueryRunInput = z.input<typeof queryRunInputSchema>;

const queryCellSchema = z.union([z.string(), z.number(), z.null()]);
export type QueryCell = z.infer<typeof queryCellSchema>;

const queryRowSchema = z.object({
  /** `row`: a record (or a group without subtotals); `subtotal`: the end of a first-level group. */
  kind: z.enum(['row', 'subtotal']),
  cells: z.record(z.string(), queryCellSchema),
});
export type QueryRow = z.infer<typeof queryRowSchema>;

export const queryDataSchema = z.object({
  rows: z.array(queryRowSchema),
  /** The grand total over every row the parameters leave (numbers and formulas over them). */
  total: z.record(z.string(), queryCellSchema),
  /** Rows (records, or groups) before paging. */
  count: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
export type QueryData = z.infer<typeof queryDataSchema>;

/** `GET /api/diyLoad/{id}/kind`: which page `/diyLoad/index/loadTable` shows for an item. */
export const loadKindSchema = z.object({ reportType: z.number() });
