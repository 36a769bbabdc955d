import { z } from 'zod';
import { codedSchemas } from './coded.ts';
import { MAX_BATCH } from './crud.ts';
import { idSchema } from './envelope.ts';

/**
 * User groups (`/api/sysUserGroup/…`): named sets of users of one tenant, to hand tasks out to later.
 * Members are managed with `members?id=` and `setMembers {id, userIds}`.
 */
const group = codedSchemas();

export const userGroupRowSchema = group.row;
export type UserGroupRow = z.infer<typeof userGroupRowSchema>;

export const userGroupAddInputSchema = group.add;

export const userGroupUpdateInputSchema = group.update;

/** `sysUserGroup/page` (and `list`, `export`): name contains, code contains, status equal. */
export const userGroupPageInputSchema = group.page;
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
