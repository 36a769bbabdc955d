import { idInputSchema } from '@shuzhi/contracts/crud';
import { STATUS } from '@shuzhi/contracts/envelope';
import {
  tenantAddInputSchema,
  tenantGrantMenuInputSchema,
  tenantIdQuerySchema,
  tenantOptionSchema,
  tenantPageInputSchema,
  tenantResetPwdResultSchema,
  tenantRowSchema,
  tenantUpdateInputSchema,
} from '@shuzhi/contracts/tenant';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { defineCrud } from '../../platform/crud/crud.ts';
import { FIELD_LABELS as L } from '../../platform/crud/labels.ts';
import { defineRoute } from '../../platform/http/route.ts';
import {
  grantMenu,
  ownMenuList,
  requireSuperAdmin,
  resetAdminPassword,
  tenantHooks,
} from './tenant.service.ts';

const TAGS = ['sysTenant'];

/**
 * `/api/sysTenant/…`: page, detail, add, update, delete, setStatus, export from the CRUD factory;
 * `grantMenu`, `ownMenuList` and `resetPwd` here. Only the super admin: the permissions keep tenant admins
 * out, and every read and write checks the account type again (403). `list` is the login page's public
 * tenant picker (the family's clients call it anonymously), names and hosts of enabled tenants only.
 */
export function tenantRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineCrud(app, ctx, {
    resource: 'sysTenant',
    table: 'sys_tenant',
    sensitive: true,
    title: { 'zh-CN': '租户', en: 'Tenants', 'zh-TW': '租戶' },
    item: tenantRowSchema,
    page: tenantPageInputSchema,
    filters: { name: { like: 'name' }, code: { like: 'code' }, status: { eq: 'status' } },
    sortable: ['code', 'name', 'orderNo', 'status', 'createTime', 'updateTime'],
    listOrder: [
      ['order_no', 'asc'],
      ['id', 'asc'],
    ],
    add: tenantAddInputSchema,
    update: tenantUpdateInputSchema,
    unique: [
      { field: 'code', label: L.code },
      { field: 'name', label: L.name },
    ],
    setStatus: true,
    omit: ['list'],
    export: [
      { field: 'code', label: L.code },
      { field: 'name', label: L.name },
      { field: 'host', label: { 'zh-CN': '域名', en: 'Host', 'zh-TW': '網域' } },
      { field: 'status', label: L.status, dict: 'status' },
      { field: 'orderNo', label: L.orderNo },
      { field: 'remark', label: L.remark },
      { field: 'createTime', label: L.createTime },
    ],
    scope: (query, user) => {
      requireSuperAdmin(user);
      return query;
    },
    hooks: tenantHooks(ctx),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysTenant/list',
    access: 'public',
    summary: 'Tenants: the login page picker (enabled tenants: name, id, host)',
    tags: TAGS,
    response: z.array(tenantOptionSchema),
    handler: async ({ ctx }) => {
      const rows = await ctx.db
        .selectFrom('sys_tenant')
        .select(['id', 'name', 'host'])
        .where('is_delete', '=', 0)
        .where('status', '=', STATUS.enabled)
        .orderBy('order_no')
        .orderBy('id')
        .execute();
      return rows.map((r) => ({ label: r.name, value: r.id, host: r.host }));
    },
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysTenant/grantMenu',
    access: 'sysTenant:grantMenu',
    summary: "Tenants: replace a tenant's menu set (ancestors added; platform-only pages never granted)",
    tags: TAGS,
    body: tenantGrantMenuInputSchema,
    response: z.null(),
    handler: ({ ctx, body, req }) => grantMenu(ctx, req.user as AuthUser, body),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysTenant/ownMenuList',
    access: 'sysTenant:grantMenu',
    summary: "Tenants: ids of a tenant's menus (?id=)",
    tags: TAGS,
    query: tenantIdQuerySchema,
    response: z.array(z.number()),
    handler: ({ ctx, query, req }) =>
      ownMenuList(ctx, req.user as AuthUser, (query.id ?? query.Id) as number),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysTenant/resetPwd',
    access: 'sysTenant:resetPwd',
    summary: "Tenants: reset the tenant admin's password to the default; answers it once",
    tags: TAGS,
    body: idInputSchema,
    response: tenantResetPwdResultSchema,
    handler: ({ ctx, body, req }) => resetAdminPassword(ctx, req.user as AuthUser, body.id),
  });
}
