import { z } from 'zod';
import {
  auditFieldsSchema,
  filterDateRange,
  filterNumber,
  filterOrgId,
  filterText,
  MAX_BATCH,
} from './crud.ts';
import { formDesignSchema, RECORD_STATUS } from './diy-form.ts';
import { periodBriefSchema, periodSettingsSchema } from './diy-period.ts';
import { rollupConfigSchema } from './diy-rollup.ts';
import { idSchema, pageInputSchema, statusSchema } from './envelope.ts';

/**
 * Report forms (issue 5, SPEC "diy reports"): the form items (`/api/diyTable/…`), their designs and versions,
 * and the records filed on them (`/api/diyData/{tableId}/…`, the generic CRUD routes of SPEC §7 per form).
 *
 * Storage (DESIGN §4): each form has its own table `diy_data_<formId>`; a field's physical column is
 * `f_<fieldId>` (a later change of storage kind adds `f_<fieldId>_<n>` and keeps the old column and values);
 * publishing adds columns, nothing is ever dropped by a design edit. A record keeps the version it was filed
 * under and is shown with that version's design.
 */

/** Who may fill or view a form: everyone of the tenant, or the listed orgs (with their subtrees), roles, users. */
export const formAudienceSchema = z.object({
  all: z.boolean().default(false),
  orgIds: z.array(idSchema).max(MAX_BATCH).default([]),
  roleIds: z.array(idSchema).max(MAX_BATCH).default([]),
  userIds: z.array(idSchema).max(MAX_BATCH).default([]),
  /** Enterprise users (login type 9) of any enterprise org inside `orgIds` (or of the tenant when `all`). */
  enterprises: z.boolean().default(false),
});
export type FormAudience = z.infer<typeof formAudienceSchema>;

/** What the caller may do with a form; the server allows exactly this (SPEC myAuth). */
const myAuthSchema = z.object({
  /** Open the form and list the records the caller may see. */
  query: z.boolean(),
  add: z.boolean(),
  update: z.boolean(),
  delete: z.boolean(),
  /** Review (approve / return) submitted records. */
  audit: z.boolean(),
  export: z.boolean(),
  /** Import records from Excel (fillers who may add). */
  import: z.boolean(),
  /** Change the design (表单管理 with diyTable:design on a form of the caller's scope). */
  design: z.boolean(),
});
export type MyAuth = z.infer<typeof myAuthSchema>;

/** A report or form item as lists and the opening logic use it (SPEC §3 "Report or form item"). */
export const formItemSchema = z.object({
  id: z.number(),
  title: z.string(),
  reportType: z.number(),
  isEnable: z.boolean(),
  /** The caller must enter the form password before opening it (form admins are never asked). */
  isShowPwd: z.boolean(),
  /** When the form's design or data last changed (the tip flag is cleared when the caller opens it). */
  lastUpdateTime: z.string().nullable(),
  isTip: z.boolean(),
  /** Extra query fields the opening adds to the route. */
  query: z.record(z.string(), z.string()).nullable(),
  /** Field ids hidden in the record list until shown (SPEC defaultHideDataList). */
  defaultHideDataList: z.array(z.string()),
  myAuth: myAuthSchema,
  categoryId: z.number().nullable(),
  categoryName: z.string().nullable(),
  ownerOrgId: z.number().nullable(),
  ownerOrgName: z.string().nullable(),
  /** The published version (0: never published). */
  version: z.number(),
  /** Unpublished design changes exist. */
  hasDraft: z.boolean(),
  recordCount: z.number(),
  /** Periodic forms: the kind, and the period filing goes to now (null: none has started or none is open). */
  periodKind: z.string(),
  currentPeriod: periodBriefSchema.nullable(),
});
export type FormItem = z.infer<typeof formItemSchema>;

/** A form as 表单管理 lists and edits it. */
export const formRowSchema = z
  .object({
    id: z.number(),
    title: z.string(),
    reportType: z.number(),
    categoryId: z.number().nullable(),
    categoryName: z.string().nullable(),
    ownerOrgId: z.number().nullable(),
    ownerOrgName: z.string().nullable(),
    status: z.number(),
    isShowPwd: z.boolean(),
    version: z.number(),
    hasDraft: z.boolean(),
    fillers: formAudienceSchema,
    viewers: formAudienceSchema,
    /** Reviewers: users who approve or return records (beside holders of diyReport:audit in scope). */
    reviewerIds: z.array(z.number()),
    /** Records need review after submit. */
    needsReview: z.boolean(),
    orderNo: z.number(),
    remark: z.string().nullable(),
    recordCount: z.number(),
    period: periodSettingsSchema,
    /** Roll-ups (report type 2): what they sum. */
    rollup: rollupConfigSchema.nullable(),
  })
  .extend(auditFieldsSchema.shape);
export type FormRow = z.infer<typeof formRowSchema>;

const title = z.string().trim().min(1).max(128);
const formPassword = z.string().min(1).max(512);

/** `POST /api/diyTable/add`: a new form (report type 1), with an empty design. */
export const formAddInputSchema = z.object({
  title,
  reportType: z.literal(1).default(1),
  categoryId: idSchema.nullish(),
  ownerOrgId: idSchema.nullish(),
  status: statusSchema.default(1),
  fillers: formAudienceSchema.default({
    all: false,
    orgIds: [],
    roleIds: [],
    userIds: [],
    enterprises: false,
  }),
  viewers: formAudienceSchema.default({
    all: false,
    orgIds: [],
    roleIds: [],
    userIds: [],
    enterprises: false,
  }),
  reviewerIds: z.array(idSchema).max(MAX_BATCH).default([]),
  needsReview: z.boolean().default(true),
  /** SM2-encrypted form password (6–12 characters in clear); empty or absent: no password. */
  password: formPassword.nullish(),
  orderNo: z.coerce.number().int().min(0).max(1_000_000).default(100),
  remark: z.string().max(256).nullish(),
  period: periodSettingsSchema.optional(),
});
export type FormAddInput = z.input<typeof formAddInputSchema>;

/**
 * `POST /api/diyTable/update`: settings only (the design goes through `PUT /design`); a field left out keeps
 * its value (no defaults here: `formAddInputSchema.partial()` would fill the add defaults in and reset them).
 */
export const formUpdateInputSchema = z.object({
  id: idSchema,
  title: title.optional(),
  categoryId: idSchema.nullish(),
  ownerOrgId: idSchema.nullish(),
  status: statusSchema.optional(),
  fillers: formAudienceSchema.optional(),
  viewers: formAudienceSchema.optional(),
  reviewerIds: z.array(idSchema).max(MAX_BATCH).optional(),
  needsReview: z.boolean().optional(),
  password: formPassword.nullish(),
  orderNo: z.coerce.number().int().min(0).max(1_000_000).optional(),
  remark: z.string().max(256).nullish(),
  /** true removes the password. */
  clearPassword: z.boolean().optional(),
  /** A change of kind applies from the next period; periods already made keep their dates. */
  period: periodSettingsSchema.optional(),
});
export type FormUpdateInput = z.input<typeof formUpdateInputSchema>;

export const formPageInputSchema = pageInputSchema.extend({
  title: filterText,
  categoryId: filterNumber,
  status: filterNumber,
  reportType: filterNumber,
});
export type FormPageInput = z.input<typeof formPageInputSchema>;

/** `PUT /api/diyTable/design`: saves the draft design; `publish` also publishes it as the next version. */
export const designSaveInputSchema = z.object({
  id: idSchema,
  design: formDesignSchema,
  publish: z.boolean().default(false),
  /** The version the editor started from: a save over a newer draft is refused (two editors). */
  baseRevision: z.number().int().min(0).optional(),
});
export type DesignSaveInput = z.input<typeof designSaveInputSchema>;

/** `GET /api/diyTable/{id}`: the form with its draft and published designs. */
export const formDesignResultSchema = z.object({
  form: formRowSchema,
  /** The draft being edited (the published design when there is no draft). */
  draft: formDesignSchema,
  /** Increases on every draft save. */
  revision: z.number(),
  published: formDesignSchema.nullable(),
  versions: z.array(
    z.object({ version: z.number(), publishTime: z.string(), publishUserName: z.string().nullable() }),
  ),
});
export type FormDesignResult = z.infer<typeof formDesignResultSchema>;

/** `GET /api/diyTable/column/select/{id}`: the published fields as choices (value = field id). */
export const columnOptionSchema = z.object({
  value: z.string(),
  label: z.string(),
  type: z.string(),
  /** Sub-table columns: the sub-table's field id. */
  parent: z.string().nullable(),
});

/** `GET /api/diyTable/select/{type}` and `GET /select?Types=&DiyTableAffiliation=`: forms as choices. */
export const formOptionSchema = z.object({ value: z.number(), label: z.string(), reportType: z.number() });
export const formSelectQuerySchema = z.object({
  /** Comma-separated report types. */
  Types: z.string().max(64).optional(),
  /** 1: forms of the caller's orgs; 2: forms the caller may fill; empty: all the caller may see. */
  DiyTableAffiliation: z.coerce.number().int().min(0).max(9).optional(),
});

/** `GET /api/diyTable/tableList`: the form items the caller may open (报表填报), by category. */
export const tableListQuerySchema = z.object({
  classifyId: filterNumber,
  keyword: filterText,
  reportType: filterNumber,
});

/** `POST /api/diyTable/clone`: a copy of the design only, or with its records. */
export const cloneInputSchema = z.object({
  id: idSchema,
  title: title.optional(),
  withRecords: z.boolean().default(false),
});

/** `POST /api/diyTable/CheckFormPwd` (SPEC §5): the password is SM2-encrypted. */
export const checkFormPwdInputSchema = z.object({ tableId: idSchema, password: formPassword });

// ---------------------------------------------------------------------------------------------------------
// Records: `/api/diyData/{tableId}/page | list | detail | add | update | put | delete | {id}` (SPEC §7).

export const recordStatusSchema = z.union([
  z.literal(RECORD_STATUS.draft),
  z.literal(RECORD_STATUS.submitted),
  z.literal(RECORD_STATUS.approved),
  z.literal(RECORD_STATUS.returned),
]);

/** A record: its values by field id plus the system columns. */
export const recordSchema = z.object({
  id: z.number(),
  tableId: z.number(),
  version: z.number(),
  status: z.number(),
  dataNo: z.string().nullable(),
  /** Periodic forms: the record's period (null otherwise). */
  periodId: z.number().nullable(),
  periodName: z.string().nullable(),
  /** The period is closed: no change, return or hand-over until it is reopened (F1023). */
  periodClosed: z.boolean(),
  /** A zero report: the unit had nothing to report in the period. */
  isZero: z.boolean(),
  /** Submitted after the period's due date. */
  late: z.boolean(),
  values: z.record(z.string(), z.unknown()),
  /** Display labels of coded values (dictionary labels, org, user and region names) by field id. */
  labels: z.record(z.string(), z.string()),
  submitTime: z.string().nullable(),
  auditUserName: z.string().nullable(),
  auditTime: z.string().nullable(),
  auditComment: z.string().nullable(),
  createOrgId: z.number().nullable(),
  createOrgName: z.string().nullable(),
  createTime: z.string(),
  createUserId: z.number().nullable(),
  createUserName: z.string().nullable(),
  updateTime: z.string().nullable(),
  updateUserName: z.string().nullable(),
  /** What the caller may do with this record. */
  can: z.object({ update: z.boolean(), delete: z.boolean(), submit: z.boolean(), audit: z.boolean() }),
});
export type DiyRecord = z.infer<typeof recordSchema>;

/** One filter on a field: `op` per the field's kind (text contains, numbers and dates ranges, choices in). */
export const recordFilterSchema = z.object({
  field: z.string().max(64),
  /** `prefix`: region codes under a region (roll-up drill-down). */
  op: z.enum(['eq', 'contains', 'in', 'between', 'gte', 'lte', 'empty', 'notEmpty', 'prefix']),
  value: z.unknown().optional(),
});

/** `POST /api/diyData/{tableId}/page` (also GET with the same query). */
export const recordPageInputSchema = pageInputSchema.extend({
  /** Search any text field. */
  keyword: filterText,
  filters: z.array(recordFilterSchema).max(20).optional(),
  status: filterNumber,
  createTime: filterDateRange,
  /** Only the caller's own records. */
  mine: z.boolean().optional(),
  /** Periodic forms: records of one period. */
  periodId: filterNumber,
  /** Records filed by this org or any org below it (roll-up drill-down). */
  orgId: filterOrgId,
  /** With `orgId`: only the records the org filed itself (a roll-up's （本级） row). */
  orgOwn: z.boolean().optional(),
});
export type RecordPageInput = z.input<typeof recordPageInputSchema>;

/** `POST /api/diyData/{tableId}/add` and `PUT /update`: values by field id; `submit` files it for review. */
export const recordSaveInputSchema = z.object({
  id: idSchema.optional(),
  /** Periodic forms, new records: the period (default: the current one). Ignored on update. */
  periodId: idSchema.optional(),
  values: z.record(z.string(), z.unknown()),
  submit: z.boolean().default(false),
});
export type RecordSaveInput = z.input<typeof recordSaveInputSchema>;

/** `POST /api/diyData/{tableId}/audit`: approve, or return with a comment (required to return). */
export const recordAuditInputSchema = z.object({
  ids: z.array(idSchema).min(1).max(MAX_BATCH),
  action: z.enum(['approve', 'return']),
  comment: z.string().trim().max(1000).optional(),
});

/** A step of a record's history. */
export const recordHistorySchema = z.object({
  id: z.number(),
  action: z.enum([
    'create',
    'update',
    'submit',
    'approve',
    'return',
    'delete',
    'restore',
    'handover',
    'registerSubmit',
    'confirm',
    'dispute',
    'zero',
    'import',
    /** A level of a task's level-by-level review passed the record on to the next (diy-task-review.ts). */
    'levelPass',
  ]),
  changes: z.array(
    z.object({ field: z.string(), label: z.string(), before: z.unknown(), after: z.unknown() }),
  ),
  comment: z.string().nullable(),
  userName: z.string().nullable(),
  /** The unit that acted, when the step names one (a level of a task's review). */
  orgName: z.string().nullable().optional(),
  createTime: z.string(),
  version: z.number(),
});
export type RecordHistory = z.infer<typeof recordHistorySchema>;

/** `POST /api/diyTable/UpdateCreateUser`: hands records to another user of the tenant. */
export const updateCreateUserInputSchema = z.object({
  tableId: idSchema,
  ids: z.array(idSchema).min(1).max(MAX_BATCH),
  userId: idSchema,
});

/** `POST /api/diyTable/RegisterSubmit`: records a submission event (a unit reports it has filed). */
export const registerSubmitInputSchema = z.object({
  tableId: idSchema,
  id: idSchema.optional(),
  comment: z.string().trim().max(500).optional(),
});

/** `POST /api/diyTable/tableDataNo/{id}`: the next serial number of a form (for a record without one). */
export const tableDataNoResultSchema = z.object({ dataNo: z.string() });

/** Recycle bin: deleted records and forms; purge needs the operation password. */
export const recycleItemSchema = z.object({
  kind: z.enum(['record', 'form']),
  id: z.number(),
  tableId: z.number(),
  title: z.string(),
  summary: z.string().nullable(),
  deleteTime: z.string(),
  deleteUserName: z.string().nullable(),
});
export const recyclePageInputSchema = pageInputSchema.extend({
  kind: z.union([z.literal(''), z.enum(['record', 'form'])]).optional(),
  tableId: filterNumber,
  keyword: filterText,
});
export const recycleActionInputSchema = z.object({
  items: z
    .array(z.object({ kind: z.enum(['record', 'form']), id: idSchema, tableId: idSchema }))
    .min(1)
    .max(MAX_BATCH),
  /** Purge: the SM2-encrypted operation password. */
  opPassword: z.string().max(512).optional(),
});

// ---------------------------------------------------------------------------------------------------------
// Added with the server foundation (issue 5).

/** `PUT /api/diyTable/design` answers the draft revision now stored and the published version. */
export const designSaveResultSchema = z.object({ revision: z.number(), version: z.number() });
export type DesignSaveResult = z.infer<typeof designSaveResultSchema>;

/** `GET /api/diyTable/detail?id=` and the `id` of other single-form queries. */
export const formIdQuerySchema = z.object({ id: idSchema.optional(), Id: idSchema.optional() });

/**
 * `GET /api/diyData/{tableId}/design?version=`: what the filling page and the record list need — the form
 * item (with myAuth) and the design of a version (default: the published one; a record shows with its own).
 */
export const formDesignForFillingSchema = z.object({
  item: formItemSchema,
  version: z.number(),
  design: formDesignSchema,
});
export type FormDesignForFilling = z.infer<typeof formDesignForFillingSchema>;
/** `periodId`: the design new records of that period are filed with (the version the period keeps). */
export const designVersionQuerySchema = z.object({
  version: z.coerce.number().int().min(1).optional(),
  periodId: idSchema.optional(),
});

/** `POST /api/diyTable/clearTip {id}`: the caller opened the form; its tip flag goes off. */
export const clearTipInputSchema = z.object({ id: idSchema });

/**
 * Pickers of the filling page, open to every signed-in user (minimal fields): `GET /api/diyTable/pickUsers`
 * and `GET /api/diyTable/pickOrgs` (`type=enterprise`: enterprises only). `ids` (comma-separated) answers
 * the labels of values already chosen; `keyword` searches names (at most `PICK_LIMIT` answers).
 */
export const PICK_LIMIT = 50;
export const pickQuerySchema = z.object({
  keyword: filterText,
  ids: z
    .string()
    .max(20_000)
    .regex(/^[0-9]*(,[0-9]+)*$/)
    .optional(),
  type: z.union([z.literal(''), z.literal('enterprise')]).optional(),
});
export const pickOptionSchema = z.object({
  value: z.number(),
  label: z.string(),
  /** Users: their org's name; orgs: the path of names above. */
  extra: z.string().nullable(),
});
export type PickOption = z.infer<typeof pickOptionSchema>;

/** `GET /api/diyData/{tableId}/history?id=`: a record's steps, oldest first. */
export const recordHistoryQuerySchema = z.object({ id: idSchema });

/** `DELETE /api/diyData/{tableId}/delete`: one id (body or query) or several (`ids`). */
export const recordDeleteInputSchema = z.object({
  id: idSchema.optional(),
  ids: z.array(idSchema).min(1).max(MAX_BATCH).optional(),
});

// ---------------------------------------------------------------------------------------------------------
// Review, hand-over, numbering, counts, categories and the recycle bin (issue 5, second part).

/**
 * `POST /api/diyReport/auditPage`: the records awaiting (or past) review across every form the caller
 * reviews (reviewerIds, or diyReport:audit within the data scope). Default status: 1 submitted;
 * `AUDIT_STATUS_ALL`: every state a reviewer sees (submitted, approved, returned).
 */
export const AUDIT_STATUS_ALL = -1;
export const auditPageInputSchema = pageInputSchema.extend({
  tableId: filterNumber,
  status: filterNumber,
  /** Searches the serial number, the filer's name and org. */
  keyword: filterText,
  submitTime: filterDateRange,
});
export type AuditPageInput = z.input<typeof auditPageInputSchema>;
export const auditRowSchema = z.object({
  tableId: z.number(),
  tableTitle: z.string(),
  id: z.number(),
  version: z.number(),
  status: z.number(),
  dataNo: z.string().nullable(),
  submitTime: z.string().nullable(),
  createUserName: z.string().nullable(),
  createOrgName: z.string().nullable(),
  auditUserName: z.string().nullable(),
  auditTime: z.string().nullable(),
  auditComment: z.string().nullable(),
  updateTime: z.string().nullable(),
  /** The record's reporting period in the caller's language (null: the form has none). */
  periodName: z.string().nullable(),
  /** The period is closed: the record can still be approved, not returned or handed over (F1023). */
  periodClosed: z.boolean(),
});
export type AuditRow = z.infer<typeof auditRowSchema>;
/** `GET /api/diyReport/auditForms`: the forms the caller reviews, with how many records wait. */
export const auditFormSchema = z.object({ value: z.number(), label: z.string(), pending: z.number() });
export type AuditForm = z.infer<typeof auditFormSchema>;

/** `POST /api/diyTable/tableDataNo/{formId}` `{recordId}`: gives a record without a number its number. */
export const tableDataNoInputSchema = z.object({ recordId: idSchema });
/** `POST /api/diyTable/updateDataCount/{formId}`: recounts the form's live records. */
export const dataCountResultSchema = z.object({ count: z.number() });

/** Form categories (`/api/diyTableClassify/…`, a tree by `pid`). */
export const classifyRowSchema = z
  .object({
    id: z.number(),
    pid: z.number(),
    name: z.string(),
    icon: z.string().nullable(),
    orderNo: z.number(),
    status: z.number(),
    remark: z.string().nullable(),
    /** Live forms in the category. */
    formCount: z.number(),
  })
  .extend(auditFieldsSchema.shape);
export type ClassifyRow = z.infer<typeof classifyRowSchema>;
export const classifyAddInputSchema = z.object({
  pid: z.coerce.number().int().min(0).default(0),
  name: z.string().trim().min(1).max(64),
  icon: z.string().max(128).nullish(),
  orderNo: z.coerce.number().int().min(0).max(1_000_000).default(100),
  status: statusSchema.default(1),
  remark: z.string().max(256).nullish(),
});
/** Fields left out keep their value (no defaults here: `.partial()` of the add schema would apply them). */
export const classifyUpdateInputSchema = z.object({
  id: idSchema,
  pid: z.coerce.number().int().min(0).optional(),
  name: z.string().trim().min(1).max(64).optional(),
  icon: z.string().max(128).nullish(),
  orderNo: z.coerce.number().int().min(0).max(1_000_000).optional(),
  status: statusSchema.optional(),
  remark: z.string().max(256).nullish(),
});
export const classifyPageInputSchema = pageInputSchema.extend({ name: filterText, status: filterNumber });
/**
 * `GET /api/diyTableClassify/options` (any signed-in user): the tenant's enabled categories for 报表填报 and
 * the form settings, with how many live forms each holds.
 */
export const classifyOptionSchema = z.object({
  value: z.number(),
  label: z.string(),
  pid: z.number(),
  orderNo: z.number(),
  formCount: z.number(),
});
export type ClassifyOption = z.infer<typeof classifyOptionSchema>;

export type RecordAuditInput = z.input<typeof recordAuditInputSchema>;
export type RecycleItem = z.infer<typeof recycleItemSchema>;
export type RecyclePageInput = z.input<typeof recyclePageInputSchema>;
type RecycleActionInput = z.input<typeof recycleActionInputSchema>;
export type RecycleTarget = RecycleActionInput['items'][number];

// ---------------------------------------------------------------------------------------------------------
// Excel ledger (issue 6 §3): `POST /api/diyTable/export_ledger` answers an .xlsx stream (blob).

/** The record page's filters (no paging or sort: rows go out in creation order) and the form. */
export const ledgerExportInputSchema = recordPageInputSchema
  .omit({ page: true, pageSize: true, field: true, order: true, descStr: true })
  .extend({ tableId: idSchema });
export type LedgerExportInput = z.input<typeof ledgerExportInputSchema>;
