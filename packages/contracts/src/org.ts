import { z } from 'zod';
import { auditFieldsSchema, filterNumber, filterText } from './crud.ts';
import { idSchema, pageInputSchema, statusSchema } from './envelope.ts';

/**
 * Organisations (`/api/sysOrg/…`): one tree per tenant. `fullIds` is the id path from the root down to the
 * org itself ("1,2,3"), `fullNames` the name path ("黄浦区/南京东路街道"), `level` 1 for a root; the server
 * keeps all three, also for every descendant when an org moves or is renamed. `type` is a value of the
 * `org_type` dictionary (district, street, community, grid, department, enterprise).
 */
export const ORG_TYPE_DICT = 'org_type';
export const ORG_PATH_SEPARATOR = ',';
export const ORG_NAME_SEPARATOR = '/';

export const orgRowSchema = z
  .object({
    id: z.number(),
    /** Parent id; 0 for a root. */
    pid: z.number(),
    code: z.string(),
    name: z.string(),
    type: z.string(),
    level: z.number(),
    fullIds: z.string(),
    fullNames: z.string(),
    /** Statistical division code of the area the org governs, when it has one. */
    regionCode: z.string().nullable(),
    orderNo: z.number(),
    status: z.number(),
    remark: z.string().nullable(),
  })
  .extend(auditFieldsSchema.shape);
export type OrgRow = z.infer<typeof orgRowSchema>;

/** A row of `GET /sysOrg/list`: without Name/Code/Type filters the rows come as a tree under `Id`. */
export type OrgListItem = OrgRow & { children?: OrgListItem[] };
export const orgListItemSchema: z.ZodType<OrgListItem> = orgRowSchema.extend({
  get children() {
    return z.array(orgListItemSchema).optional();
  },
});

const fields = {
  code: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[0-9A-Za-z_-]+$/),
  name: z.string().trim().min(1).max(64),
  type: z
    .string()
    .trim()
    .min(1)
    .max(32)
    .regex(/^[0-9A-Za-z_-]+$/),
  regionCode: z
    .string()
    .trim()
    .max(32)
    .regex(/^[0-9]*$/)
    .nullable()
    .transform((v) => (v === '' ? null : v)),
  orderNo: z.coerce.number().int().min(0).max(1_000_000),
  remark: z.string().max(256).nullable(),
};

/** A new org under `pid` (0: a new root, admins only). */
export const orgAddInputSchema = z.object({
  pid: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
  code: fields.code,
  name: fields.name,
  type: fields.type,
  regionCode: fields.regionCode.optional(),
  orderNo: fields.orderNo.default(100),
  status: statusSchema.default(1),
  remark: fields.remark.optional(),
});

/** Fields left out keep their value; a new `pid` moves the org with its subtree (not under itself: D2002). */
export const orgUpdateInputSchema = z.object({
  id: idSchema,
  pid: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  code: fields.code.optional(),
  name: fields.name.optional(),
  type: fields.type.optional(),
  regionCode: fields.regionCode.optional(),
  orderNo: fields.orderNo.optional(),
  status: statusSchema.optional(),
  remark: fields.remark.optional(),
});

/** `sysOrg/page` (and `export`): name contains, code and type equal, status; `pid` the direct children of one org. */
export const orgPageInputSchema = pageInputSchema.extend({
  name: filterText,
  code: filterText,
  type: filterText,
  status: filterNumber,
  pid: filterNumber,
});
export type OrgPageInput = z.input<typeof orgPageInputSchema>;

/**
 * `GET /sysOrg/list?Id=&Name=&Code=&Type=` (Admin.NET): with any of Name/Code/Type a flat list of matching
 * orgs (within `Id`'s subtree when given); otherwise the visible tree under `Id` (0 or none: the roots).
 */
export const orgListQuerySchema = z.object({
  Id: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  Name: filterText,
  Code: filterText,
  Type: filterText,
});

/** A node of `GET /sysOrg/treeAll`, the org tree every picker and the users page show. */
export type OrgNode = {
  id: number;
  pid: number;
  code: string;
  name: string;
  type: string;
  level: number;
  status: number;
  orderNo: number;
  /**
   * An ancestor of a visible org that lies outside the caller's data scope: shown only so that the tree
   * stays connected; it cannot be picked.
   */
  outOfScope: boolean;
  children: OrgNode[];
};
export const orgNodeSchema: z.ZodType<OrgNode> = z.object({
  id: z.number(),
  pid: z.number(),
  code: z.string(),
  name: z.string(),
  type: z.string(),
  level: z.number(),
  status: z.number(),
  orderNo: z.number(),
  outOfScope: z.boolean(),
  get children() {
    return z.array(orgNodeSchema);
  },
});

/** Builds the nested tree from flat nodes (any order); nodes whose parent is absent become roots. */
export function buildOrgTree<T extends { id: number; pid: number; orderNo: number; children: T[] }>(
  nodes: T[],
): T[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const roots: T[] = [];
  for (const node of nodes) {
    const parent = node.pid ? byId.get(node.pid) : undefined;
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  const sort = (list: T[]) => {
    list.sort((a, b) => a.orderNo - b.orderNo || a.id - b.id);
    for (const n of list) if (n.children.length > 0) sort(n.children);
  };
  sort(roots);
  return roots;
}
