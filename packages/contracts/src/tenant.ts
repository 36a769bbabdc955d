import { z } from 'zod';
import { auditFieldsSchema, filterNumber, filterText } from './crud.ts';
import { idSchema, pageInputSchema } from './envelope.ts';

/**
 * Tenant administration (`/api/sysTenant/…`), for the platform operator (super admin) only. Creating a tenant
 * creates its root org, its `sys_admin` role, its admin account (account type 888, default password) and its
 * default menu set: every enabled menu except the platform-only pages (PLATFORM_ONLY_MENUS in ./menu.ts).
 */
export const tenantRowSchema = z
  .object({
    id: z.number(),
    code: z.string(),
    name: z.string(),
    /** The tenant's root org. */
    orgId: z.number().nullable(),
    host: z.string().nullable(),
    status: z.number(),
    orderNo: z.number(),
    remark: z.string().nullable(),
  })
  .extend(auditFieldsSchema.shape);
export type TenantRow = z.infer<typeof tenantRowSchema>;

const fields = {
  code: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9][\w-]*$/),
  name: z.string().trim().min(1).max(64),
  host: z.string().trim().max(128).nullable(),
  orderNo: z.coerce.number().int().min(0).max(1_000_000),
  remark: z.string().max(256).nullable(),
  /** The tenant admin's sign-in name: global, like every account. */
  adminAccount: z
    .string()
    .trim()
    .min(2)
    .max(32)
    .regex(/^[A-Za-z][\w.-]*$/),
};

export const tenantAddInputSchema = z.object({
  code: fields.code,
  name: fields.name,
  adminAccount: fields.adminAccount,
  host: fields.host.optional(),
  orderNo: fields.orderNo.default(100),
  remark: fields.remark.optional(),
});

/** Fields left out keep their value; status changes go through `setStatus`. */
export const tenantUpdateInputSchema = z.object({
  id: idSchema,
  code: fields.code.optional(),
  name: fields.name.optional(),
  host: fields.host.optional(),
  orderNo: fields.orderNo.optional(),
  remark: fields.remark.optional(),
});

/** `sysTenant/page`: name and code contain, status equals. */
export const tenantPageInputSchema = pageInputSchema.extend({
  name: filterText,
  code: filterText,
  status: filterNumber,
});
export type TenantPageInput = z.input<typeof tenantPageInputSchema>;

/** `POST /sysTenant/grantMenu`: the tenant's whole menu set (ancestors are added by the server). */
export const tenantGrantMenuInputSchema = z.object({
  id: idSchema,
  menuIdList: z.array(idSchema).max(10_000),
});
export type TenantGrantMenuInput = z.infer<typeof tenantGrantMenuInputSchema>;

/** `GET /sysTenant/ownMenuList?id=`. */
export const tenantIdQuerySchema = z
  .object({ id: idSchema.optional(), Id: idSchema.optional() })
  .refine((q) => q.id !== undefined || q.Id !== undefined, { message: 'id is required', path: ['id'] });

/** `POST /sysTenant/resetPwd {id}` answers the new password of the tenant admin, shown once. */
export const tenantResetPwdResultSchema = z.object({ account: z.string(), password: z.string() });
export type TenantResetPwdResult = z.infer<typeof tenantResetPwdResultSchema>;

/**
 * `GET /api/sysTenant/list` (public): the login page's tenant picker, enabled tenants only, by order; `host`
 * lets a client preselect the tenant of the domain it is served from. Nothing else of a tenant shows.
 */
export const tenantOptionSchema = z.object({
  label: z.string(),
  value: z.number(),
  host: z.string().nullable(),
});
export type TenantOption = z.infer<typeof tenantOptionSchema>;
