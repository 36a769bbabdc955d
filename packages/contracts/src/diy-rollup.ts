import { z } from 'zod';
import { FIELD_ID_PATTERN } from './diy-form.ts';
import { idSchema } from './envelope.ts';

/**
 * Roll-up reports (issue 6 §2, report type 2, shown at `/diyLoad/index/loadTable?id=`). A roll-up is a form
 * item of its own (`diy_table.report_type = 2`, config in `diy_table.rollup`) that sums or counts the fields of
 * a source form by org level (grid → community → street → district) or by the levels of a region field, for one
 * period or across periods, with drill-down to the records behind each figure. Figures count only records the
 * caller may see on the source form; records not yet submitted and units that have not filed show as missing.
 */

export const ROLLUP_AGGS = ['sum', 'count', 'avg', 'min', 'max'] as const;
export type RollupAgg = (typeof ROLLUP_AGGS)[number];
/** Org levels a roll-up groups by, top to bottom (values of the `org_type` dictionary). */
export const ROLLUP_ORG_TYPES = ['district', 'street', 'community', 'grid'] as const;
/** Region levels: 1 province, 2 city, 3 district, 4 street, 5 community. */
export const ROLLUP_REGION_LEVELS = [1, 2, 3, 4, 5] as const;

const rollupMeasureSchema = z.object({
  /** Stable id of the measure inside the roll-up (`m1`, `m2`…). */
  id: z.string().regex(/^m[0-9]{1,3}$/),
  label: z.string().trim().min(1).max(64),
  agg: z.enum(ROLLUP_AGGS),
  /** A number field of the source form (null with `count`: the number of records). */
  field: z.string().regex(FIELD_ID_PATTERN).nullable(),
});
export type RollupMeasure = z.infer<typeof rollupMeasureSchema>;

export const rollupConfigSchema = z
  .object({
    sourceTableId: idSchema,
    dimension: z.enum(['org', 'region']),
    /** dimension org: the level of the top rows. */
    orgType: z.enum(ROLLUP_ORG_TYPES).default('street'),
    /** dimension region: a region field of the source form, and the level of the top rows. */
    regionField: z.string().regex(FIELD_ID_PATTERN).nullish(),
    regionLevel: z.coerce.number().int().min(1).max(5).default(4),
    measures: z.array(rollupMeasureSchema).min(1).max(20),
    /** Which records count: approved only, or submitted and approved (default). */
    statuses: z.enum(['approved', 'submitted']).default('submitted'),
  })
  .refine((c) => c.dimension !== 'region' || !!c.regionField, { path: ['regionField'], message: 'required' })
  .refine((c) => c.measures.every((m) => m.agg === 'count' || m.field !== null), {
    path: ['measures'],
    message: 'fieldRequired',
  });
export type RollupConfig = z.infer<typeof rollupConfigSchema>;

/** `POST /api/diyTable/addRollup` and `POST /api/diyTable/updateRollup` (表单管理, diyTable:add / update). */
export const rollupAddInputSchema = z.object({
  title: z.string().trim().min(1).max(128),
  categoryId: idSchema.nullish(),
  ownerOrgId: idSchema.nullish(),
  remark: z.string().max(256).nullish(),
  config: rollupConfigSchema,
});
export type RollupAddInput = z.input<typeof rollupAddInputSchema>;
export const rollupUpdateInputSchema = rollupAddInputSchema.partial().extend({ id: idSchema });
export type RollupUpdateInput = z.input<typeof rollupUpdateInputSchema>;

/** `GET /api/diyLoad/{id}/config`: the roll-up, its source form's title and the measures' fields. */
export const rollupInfoSchema = z.object({
  id: z.number(),
  title: z.string(),
  sourceTableId: z.number(),
  sourceTitle: z.string(),
  /** The source form is periodic: the data call takes a period. */
  periodic: z.boolean(),
  config: rollupConfigSchema,
  /** The caller administers the roll-up (may change its config). */
  canEdit: z.boolean().default(false),
  /** The label of the region field (dimension region), for the column header. */
  regionFieldLabel: z.string().nullable().default(null),
  /** The roll-up's category and remark (its config dialog edits them). */
  categoryId: z.number().nullable().default(null),
  remark: z.string().nullable().default(null),
});
export type RollupInfo = z.infer<typeof rollupInfoSchema>;

/** `POST /api/diyLoad/{id}/data`. */
export const rollupDataInputSchema = z.object({
  /** A period of the source form (default: its latest period that has started); ignored for forms without. */
  periodId: idSchema.optional(),
  /** Drill into this row (an org id, or a region code); empty: the top rows. */
  parent: z
    .string()
    .max(32)
    .regex(/^[0-9]*$/)
    .optional(),
  /** Also answer last period, same period last year and the change in %. */
  compare: z.boolean().default(false),
});
export type RollupDataInput = z.input<typeof rollupDataInputSchema>;

/**
 * Figures by measure id (null: no record to compute from; `count` is 0 then). The web computes the change in
 * % (环比 against `last`, 同比 against `lastYear`) from these figures.
 */
const rollupFiguresSchema = z.record(z.string(), z.number().nullable());

const rollupRowSchema = z.object({
  /** Org id or region code (drill-down and the records behind it). */
  key: z.string(),
  name: z.string(),
  /** Rows below exist (drill-down possible). */
  hasChildren: z.boolean(),
  figures: rollupFiguresSchema,
  /** With `compare`: the same figures for the previous period and for the same period a year before. */
  last: rollupFiguresSchema.nullable(),
  lastYear: rollupFiguresSchema.nullable(),
  /** Records that count (submitted / approved per the config). */
  records: z.number(),
  /** Records filed but not yet submitted (drafts, returned): missing from the figures. */
  pending: z.number(),
  /** Org dimension: units expected to file under this row, and those that have not (null for regions). */
  expectedUnits: z.number().nullable(),
  missingUnits: z.number().nullable(),
});
export type RollupRow = z.infer<typeof rollupRowSchema>;

const rollupPeriodRefSchema = z.object({ id: z.number(), name: z.string() }).nullable();

export const rollupDataSchema = z.object({
  period: rollupPeriodRefSchema,
  lastPeriod: rollupPeriodRefSchema,
  lastYearPeriod: rollupPeriodRefSchema,
  /** The row drilled into (null at the top) and the path to it, for the breadcrumb. */
  path: z.array(z.object({ key: z.string(), name: z.string() })),
  rows: z.array(rollupRowSchema),
  total: rollupRowSchema,
  /** Org dimension: the units under the current level that have not filed (at most 200, by name). */
  missing: z.array(
    z.object({
      orgId: z.number(),
      orgName: z.string(),
      /** The unit's org path below the row it belongs to (`贵州路居委会/第一网格`), for telling units apart. */
      orgPath: z.string().default(''),
    }),
  ),
  /**
   * Org dimension, top level: counted records of the period filed by units under no row of the level (a
   * district bureau in a roll-up by street). They are in no row and not in the total; the page says so.
   */
  outside: z.number().int().default(0),
});
export type RollupData = z.infer<typeof rollupDataSchema>;
