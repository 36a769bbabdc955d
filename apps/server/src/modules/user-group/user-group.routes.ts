import {
  userGroupAddInputSchema,
  userGroupMemberSchema,
  userGroupMembersQuerySchema,
  userGroupPageInputSchema,
  userGroupRowSchema,
  userGroupSetMembersInputSchema,
  userGroupUpdateInputSchema,
} from '@shuzhi/contracts/user-group';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { defineCrud } from '../../platform/crud/crud.ts';
import { FIELD_LABELS as L } from '../../platform/crud/labels.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { groupMembers, setGroupMembers } from './user-group.service.ts';

const TAGS = ['sysUserGroup'];

/**
 * `/api/sysUserGroup/…`: groups from the CRUD factory (deleting one drops its member rows), `members?id=`
 * and `setMembers`. Members are users of the group's tenant; a caller sees and changes only the members
 * inside their data scope.
 */
export function userGroupRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineCrud(app, ctx, {
    resource: 'sysUserGroup',
    table: 'sys_user_group',
    tenant: true,
    sensitive: true,
    title: { 'zh-CN': '用户组', en: 'User groups', 'zh-TW': '使用者群組' },
    item: userGroupRowSchema,
    page: userGroupPageInputSchema,
    filters: { name: { like: 'name' }, code: { like: 'code' }, status: { eq: 'status' } },
    sortable: ['code', 'name', 'orderNo', 'status', 'createTime', 'updateTime'],
    listOrder: [
      ['order_no', 'asc'],
      ['id', 'asc'],
    ],
    add: userGroupAddInputSchema,
    update: userGroupUpdateInputSchema,
    unique: [{ field: 'code', label: L.code }],
    setStatus: true,
    export: [
      { field: 'name', label: L.name, width: 20 },
      { field: 'code', label: L.code, width: 20 },
      { field: 'orderNo', label: L.orderNo },
      { field: 'status', label: L.status, constant: 'status' },
      { field: 'remark', label: L.remark, width: 30 },
      { field: 'createTime', label: L.createTime, width: 20 },
    ],
    hooks: {
      async beforeDelete({ trx, rows }) {
        const ids = rows.map((r) => (r as { id: number }).id);
        await trx.deleteFrom('sys_user_group_member').where('group_id', 'in', ids).execute();
      },
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysUserGroup/members',
    access: 'sysUserGroup:detail',
    summary: 'User groups: the members of a group (those inside the caller’s data scope)',
    tags: TAGS,
    query: userGroupMembersQuerySchema,
    response: z.array(userGroupMemberSchema),
    handler: ({ ctx, query, req }) => groupMembers(ctx, req.user as AuthUser, query.id),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysUserGroup/setMembers',
    access: 'sysUserGroup:update',
    summary:
      'User groups: replace the members (within the caller’s data scope; members outside it stay as they are)',
    tags: TAGS,
    body: userGroupSetMembersInputSchema,
    response: z.null(),
    handler: async ({ ctx, body, req }) => {
      await setGroupMembers(ctx, req.user as AuthUser, body.id, body.userIds);
      return null;
    },
  });
}
