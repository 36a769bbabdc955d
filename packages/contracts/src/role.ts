import { z } from 'zod';
import { codedSchemas } from './coded.ts';
import { filterNumber } from './crud.ts';
import { idSchema } from './envelope.ts';

/** Administration of roles (`/api/sysRole/…`): CRUD, menu grants and data scope. */

/** Data scope of a role (REFERENCE): 1 all, 2 own org and below, 3 own org, 4 self only, 5 custom orgs. */
export const ROLE_DATA_SCOPE = { all: 1, orgAndBelow: 2, org: 3, self: 4, custom: 5 } as const;
const dataScopeSchema = z.coerce.number().int().min(1).max(5);

/** Code of the tenant administrator role: it cannot be deleted, disabled or re-coded. */
export const TENANT_ADMIN_ROLE_CODE = 'sys_admin';

const role = codedSchemas(/^[A-Za-z][\w-]*$/);

export const roleRowSchema = role.row.extend({ tenantId: z.number(), dataScope: z.number() });
export type RoleRow = z.infer<typeof roleRowSchema>;

/** `GET /api/sysRole/list`: what role pickers need. */
export const roleOptionSchema = z.object({
  id: z.number(),
  code: z.string(),
  name: z.string(),
  dataScope: z.number(),
  status: z.number(),
});
export type RoleOption = z.infer<typeof roleOptionSchema>;

/** An enabled role of the tenant as a choice for pickers outside role admin (notice audiences, form audiences). */
export const roleChoiceSchema = z.object({ id: z.number(), code: z.string(), name: z.string() });
export type RoleChoice = z.infer<typeof roleChoiceSchema>;

/** A new role starts with data scope 4 (self only) and no menus: both are granted afterwards. */
export const roleAddInputSchema = role.add;

/** Fields left out keep their value; the status changes through `setStatus`, the scope through `grantDataScope`. */
export const roleUpdateInputSchema = role.update.omit({ status: true });

/** `sysRole/page`, `list` and `export`: name and code contain, status and data scope equal. */
export const rolePageInputSchema = role.page.extend({ dataScope: filterNumber });
export type RolePageInput = z.input<typeof rolePageInputSchema>;

/** `?id=` (or Admin.NET's `?Id=`) of `ownMenuList` and `ownOrgList`. */
export const roleIdQuerySchema = z
  .object({ id: idSchema.optional(), Id: idSchema.optional() })
  .refine((q) => q.id !== undefined || q.Id !== undefined, { message: 'id is required', path: ['id'] });

const idList = z.array(idSchema).max(5000);

/** `POST /api/sysRole/grantMenu`: the menu ids (directories, pages, buttons); the server adds their ancestors. */
export const roleGrantMenuInputSchema = z.object({ id: idSchema, menuIdList: idList });
export type RoleGrantMenuInput = z.input<typeof roleGrantMenuInputSchema>;

/** `POST /api/sysRole/grantDataScope`: orgIdList counts only for scope 5 (custom) and is cleared otherwise. */
export const roleGrantDataScopeInputSchema = z.object({
  id: idSchema,
  dataScope: dataScopeSchema,
  orgIdList: idList.default([]),
});
export type RoleGrantDataScopeInput = z.input<typeof roleGrantDataScopeInputSchema>;

/** A node of `GET /api/sysRole/menuTree`: what the caller may grant (type 1 directory, 2 page, 3 button). */
export type RoleMenuNode = {
  id: number;
  pid: number;
  type: number;
  name: string;
  title: string;
  permission: string | null;
  icon: string | null;
  children: RoleMenuNode[];
};
export const roleMenuNodeSchema: z.ZodType<RoleMenuNode> = z.lazy(() =>
  z.object({
    id: z.number(),
    pid: z.number(),
    type: z.number(),
    name: z.string(),
    title: z.string(),
    permission: z.string().nullable(),
    icon: z.string().nullable(),
    children: z.array(roleMenuNodeSchema),
  }),
);
