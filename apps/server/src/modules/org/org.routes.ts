import {
  orgAddInputSchema,
  orgListItemSchema,
  orgListQuerySchema,
  orgNodeSchema,
  orgPageInputSchema,
  orgRowSchema,
  orgUpdateInputSchema,
} from '@shuzhi/contracts/org';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { defineCrud } from '../../platform/crud/crud.ts';
import { FIELD_LABELS as L } from '../../platform/crud/labels.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { orgHooks, orgList, orgTreeAll, scopeOf } from './org.service.ts';

const TAGS = ['sysOrg'];
const TYPE = { 'zh-CN': '机构类型', en: 'Type', 'zh-TW': '機構類型' };

/**
 * `/api/sysOrg/…`: page, detail, add, update, delete, setStatus and export from the CRUD factory (with the
 * tree paths kept by `orgHooks`); `list` (Admin.NET: tree or filtered list) and `treeAll` here. Every read
 * shows only the orgs of the caller's data scope (admins: the whole tenant).
 */
export function orgRoutes(app: FastifyInstance, ctx: AppContext): void {
  const crud = defineCrud(app, ctx, {
    resource: 'sysOrg',
    table: 'sys_org',
    tenant: true,
    sensitive: true,
    title: { 'zh-CN': '机构', en: 'Organisations', 'zh-TW': '機構' },
    item: orgRowSchema,
    page: orgPageInputSchema,
    filters: {
      name: { like: 'name' },
      code: { eq: 'code' },
      type: { eq: 'type' },
      status: { eq: 'status' },
      pid: { eq: 'pid' },
    },
    sortable: ['code', 'name', 'type', 'level', 'orderNo', 'status', 'createTime', 'updateTime'],
    listOrder: [
      ['level', 'asc'],
      ['order_no', 'asc'],
      ['id', 'asc'],
    ],
    add: orgAddInputSchema,
    update: orgUpdateInputSchema,
    unique: [{ field: 'code', label: L.code }],
    setStatus: true,
    export: [
      { field: 'name', label: L.name, width: 24 },
      { field: 'code', label: L.code, width: 20 },
      { field: 'type', label: TYPE, dict: 'org_type' },
      { field: 'fullNames', label: { 'zh-CN': '机构路径', en: 'Path', 'zh-TW': '機構路徑' }, width: 48 },
      { field: 'level', label: { 'zh-CN': '层级', en: 'Level', 'zh-TW': '層級' } },
      { field: 'orderNo', label: L.orderNo },
      { field: 'status', label: L.status, constant: 'status' },
      { field: 'remark', label: L.remark, width: 30 },
      { field: 'createTime', label: L.createTime, width: 20 },
    ],
    omit: ['list'],
    // Orgs of the caller's data scope only; the ancestors treeAll adds to connect the tree are not rows.
    scope: async (query, user, scopeCtx) => {
      const view = await scopeOf(scopeCtx, user);
      if (view.all) return query;
      if (view.orgIds.length === 0) return query.where(sql<boolean>`1 = 0`);
      return query.where('id', 'in', [...view.orgIds]);
    },
    hooks: orgHooks,
  });

  for (const url of ['/api/sysOrg/list', '/api/sysOrg/tree']) {
    // `tree` is the name newer clients of the family use for the same call.
    defineRoute(app, ctx, {
      method: 'GET',
      url,
      access: 'sysOrg:list',
      summary:
        'Organisations: the tree below ?Id= (0 or none: the roots), or with Name/Code/Type a flat list',
      tags: TAGS,
      query: orgListQuerySchema,
      response: z.array(orgListItemSchema),
      handler: async ({ query, req }) => orgList(await crud.list({}, req.user as AuthUser), query),
    });
  }

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysOrg/treeAll',
    access: 'loggedIn',
    summary:
      "Organisations: the caller's visible tree (ancestors outside the data scope flagged outOfScope), for pickers",
    tags: TAGS,
    response: z.array(orgNodeSchema),
    handler: ({ ctx, req }) => orgTreeAll(ctx, req.user as AuthUser),
  });
}
