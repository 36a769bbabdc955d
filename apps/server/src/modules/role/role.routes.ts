import {
  roleAddInputSchema,
  roleGrantDataScopeInputSchema,
  roleGrantMenuInputSchema,
  roleIdQuerySchema,
  roleMenuNodeSchema,
  roleOptionSchema,
  rolePageInputSchema,
  roleRowSchema,
  roleUpdateInputSchema,
} from '@shuzhi/contracts/role';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { defineCrud } from '../../platform/crud/crud.ts';
import { FIELD_LABELS as L } from '../../platform/crud/labels.ts';
import { defineRoute } from '../../platform/http/route.ts';
import {
  grantRoleDataScope,
  grantRoleMenus,
  roleHooks,
  roleMenuIds,
  roleMenuTree,
  roleOrgIds,
  roleScope,
} from './role.service.ts';

const TAGS = ['sysRole'];
const NULL_RESULT = z.null();

/**
 * `/api/sysRole/…`: page, detail, add, update, delete, setStatus, export from the CRUD factory (tenant table,
 * role listings narrowed by `roleScope`); `list` for pickers, `menuTree`, `grantMenu`, `ownMenuList`,
 * `grantDataScope` and `ownOrgList` here. Every role a grant names must be visible to the caller (D1002).
 */
export function roleRoutes(app: FastifyInstance, ctx: AppContext): void {
  const crud = defineCrud(app, ctx, {
    resource: 'sysRole',
    table: 'sys_role',
    tenant: true,
    sensitive: true,
    title: { 'zh-CN': '角色', en: 'Roles', 'zh-TW': '角色' },
    item: roleRowSchema,
    page: rolePageInputSchema,
    filters: {
      name: { like: 'name' },
      code: { like: 'code' },
      status: { eq: 'status' },
      dataScope: { eq: 'data_scope' },
    },
    sortable: ['code', 'name', 'dataScope', 'orderNo', 'status', 'createTime', 'updateTime'],
    listOrder: [
      ['order_no', 'asc'],
      ['id', 'asc'],
    ],
    add: roleAddInputSchema,
    update: roleUpdateInputSchema,
    unique: [{ field: 'code', label: L.code }],
    setStatus: true,
    omit: ['list'],
    export: [
      { field: 'code', label: L.code },
      { field: 'name', label: L.name },
      {
        field: 'dataScope',
        label: { 'zh-CN': '数据范围', en: 'Data scope', 'zh-TW': '資料範圍' },
        constant: 'dataScope',
      },
      { field: 'orderNo', label: L.orderNo },
      { field: 'status', label: L.status, constant: 'status' },
      { field: 'remark', label: L.remark },
      { field: 'createTime', label: L.createTime },
      { field: 'createUserName', label: L.createUserName },
    ],
    scope: roleScope,
    hooks: roleHooks,
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysRole/list',
    access: 'sysRole:list',
    summary: 'Roles: the visible roles for pickers (id, code, name, dataScope, status), in order',
    tags: TAGS,
    query: rolePageInputSchema.omit({ page: true, pageSize: true, field: true, order: true, descStr: true }),
    response: z.array(roleOptionSchema),
    handler: async ({ query, req }) =>
      (await crud.list(query, req.user as AuthUser)).map((r) => ({
        id: r.id,
        code: r.code,
        name: r.name,
        dataScope: r.dataScope,
        status: r.status,
      })),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysRole/menuTree',
    access: 'sysRole:grantMenu',
    summary: 'Roles: the directories, pages and buttons the caller may grant, as a tree',
    tags: TAGS,
    response: z.array(roleMenuNodeSchema),
    handler: ({ ctx, req }) => roleMenuTree(ctx, req.user as AuthUser),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysRole/ownMenuList',
    access: 'sysRole:detail',
    summary: "Roles: the role's menu ids (granted ones and their ancestors) (?id=)",
    tags: TAGS,
    query: roleIdQuerySchema,
    response: z.array(z.number()),
    handler: async ({ ctx, query, req }) => {
      const role = await crud.detail((query.id ?? query.Id) as number, req.user as AuthUser);
      return roleMenuIds(ctx, role.id);
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysRole/ownOrgList',
    access: 'sysRole:detail',
    summary: "Roles: the role's custom org ids (data scope 5) (?id=)",
    tags: TAGS,
    query: roleIdQuerySchema,
    response: z.array(z.number()),
    handler: async ({ ctx, query, req }) => {
      const role = await crud.detail((query.id ?? query.Id) as number, req.user as AuthUser);
      return roleOrgIds(ctx, role.id);
    },
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysRole/grantMenu',
    access: 'sysRole:grantMenu',
    summary: 'Roles: set the menus and buttons of a role (their ancestors are added)',
    tags: TAGS,
    body: roleGrantMenuInputSchema,
    response: NULL_RESULT,
    handler: async ({ ctx, body, req }) => {
      const user = req.user as AuthUser;
      const role = await crud.detail(body.id, user);
      await grantRoleMenus(ctx, user, role.id, body.menuIdList);
      return null;
    },
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysRole/grantDataScope',
    access: 'sysRole:grantDataScope',
    summary: 'Roles: set the data scope of a role (1–5) and, for 5, its org list',
    tags: TAGS,
    body: roleGrantDataScopeInputSchema,
    response: NULL_RESULT,
    handler: async ({ ctx, body, req }) => {
      const user = req.user as AuthUser;
      const role = await crud.detail(body.id, user);
      await grantRoleDataScope(ctx, user, role, body.dataScope, body.orgIdList);
      return null;
    },
  });
}
