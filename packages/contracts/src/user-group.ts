import { z } from 'zod';
import { auditFieldsSchema, filterNumber, filterText, MAX_BATCH } from './crud.ts';
import { idSchema, pageInputSchema, statusSchema } from './envelope.ts';

/**
 * User groups (`/api/sysUserGroup/…`): named sets of users of one tenant, to hand tasks out to later.
 * Members are managed with `members?id=` and `setMembers {id, userIds}`.
 */
export const userGroupRowSchema = z
  .object({
    id: z.number(),
    code: z.string(),
    name: z.string(),
    orderNo: z.number(),
    status: z.number(),
    remark: z.string().nullable(),
  })
  .extend(auditFieldsSchema.shape);
export type UserGroupRow = z.infer<typeof userGroupRowSchema>;

const fields = {
  code: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[0-9A-Za-z_-]+$/),
  name: z.string().trim().min(1).max(64),
  orderNo: z.coerce.number().int().min(0).max(1_000_000),
  remark: z.string().max(256).nullable(),
};

export const userGroupAddInputSchema = z.object({
  code: fields.code,
  name: fields.name,
  orderNo: fields.orderNo.default(100),
  status: statusSchema.default(1),
  remark: fields.remark.optional(),
});
export type UserGroupAddInput = z.input<typeof userGroupAddInputSchema>;

export const userGroupUpdateInputSchema = z.object({
  id: idSchema,
  code: fields.code.optional(),
  name: fields.name.optional(),
  orderNo: fields.orderNo.optional(),
  status: statusSchema.optional(),
  remark: fields.remark.optional(),
});
export type UserGroupUpdateInput = z.input<typeof userGroupUpdateInputSchema>;

/** `sysUserGroup/page` (and `list`, `export`): name contains, code contains, status equal. */
export const userGroupPageInputSchema = pageInputSchema.extend({
  name: filterText,
  code: filterText,
  status: filterNumber,
});
export type UserGroupPageInput = z.input<typeof userGroupPageInputSchema>;

/** A member of a group, as `GET /sysUserGroup/members?id=` lists them. */
export const userGroupMemberSchema = z.object({
  id: z.number(),
  account: z.string(),
  realName: z.string(),
  orgId: z.number().nullable(),
  orgName: z.string().nullable(),
  status: z.number(),
});
export type UserGroupMember = z.infer<typeof userGroupMemberSchema>;

export const userGroupMembersQuerySchema = z.object({ id: idSchema });

/** `POST /sysUserGroup/setMembers`: the group's members become exactly `userIds`. */
export const userGroupSetMembersInputSchema = z.object({
  id: idSchema,
  userIds: z.array(idSchema).max(MAX_BATCH),
});
export type UserGroupSetMembersInput = z.input<typeof userGroupSetMembersInputSchema>;
