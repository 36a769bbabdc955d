import { detailQuerySchema } from '@shuzhi/contracts/crud';
import {
  type ClassifyOption,
  type ClassifyRow,
  classifyAddInputSchema,
  classifyOptionSchema,
  classifyPageInputSchema,
  classifyRowSchema,
  classifyUpdateInputSchema,
} from '@shuzhi/contracts/diy-table';
import { pageResultSchema } from '@shuzhi/contracts/envelope';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { defineCrud } from '../../platform/crud/crud.ts';
import { FIELD_LABELS as L } from '../../platform/crud/labels.ts';
import { defineRoute } from '../../platform/http/route.ts';
import {
  assertParent,
  assertRemovable,
  categoryDetail,
  categoryList,
  categoryOptions,
  categoryPage,
} from './diy-classify.service.ts';

const tags = ['diyTableClassify'];
const currentUser = (user: AuthUser | null) => user as AuthUser;

/**
 * `/api/diyTableClassify/…`: categories of report forms, a tree by `pid` per tenant. Writes come from the CRUD
 * factory (tenant rows, audit columns, unique name among siblings, operation log) with the tree rules as
 * hooks; reads are served here because they carry `formCount`, the live forms in each category.
 */
export function diyClassifyRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineCrud(app, ctx, {
    resource: 'diyTableClassify',
    table: 'diy_table_classify',
    tenant: true,
    ownOrg: true,
    title: { 'zh-CN': '表单分类', en: 'Form categories', 'zh-TW': '表單分類' },
    item: classifyRowSchema.omit({ formCount: true }),
    page: classifyPageInputSchema,
    add: classifyAddInputSchema,
    update: classifyUpdateInputSchema,
    omit: ['page', 'list', 'detail'],
    unique: [{ field: 'name', within: ['pid'], label: L.name }],
    // Categories are the tenant's, not an org's: every category admin of the tenant sees them all.
    scope: (query) => query,
    hooks: {
      async beforeAdd({ trx, user, values }) {
        await assertParent(trx, user.tenantId, values.pid ?? 0, null);
      },
      async beforeUpdate({ trx, values, row }) {
        if (values.pid !== undefined) await assertParent(trx, row.tenant_id, values.pid, row.id);
      },
      async beforeDelete({ trx, rows }) {
        await assertRemovable(
          trx,
          rows.map((r) => r.id),
        );
      },
    },
  });

  for (const method of ['POST', 'GET'] as const) {
    defineRoute(app, ctx, {
      method,
      url: '/api/diyTableClassify/page',
      access: 'diyTableClassify:page',
      summary: 'Form categories: page (with formCount)',
      tags,
      ...(method === 'POST' ? { body: classifyPageInputSchema } : { query: classifyPageInputSchema }),
      response: pageResultSchema(classifyRowSchema),
      handler: ({ body, query, user }) =>
        categoryPage(ctx, currentUser(user), (method === 'POST' ? body : query) as never),
    });
  }

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyTableClassify/list',
    access: 'diyTableClassify:list',
    summary: 'Form categories: the tree as a flat list, by orderNo',
    tags,
    query: classifyPageInputSchema.pick({ name: true, status: true }),
    response: z.array(classifyRowSchema),
    handler: ({ query, user }): Promise<ClassifyRow[]> => categoryList(ctx, currentUser(user), query),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyTableClassify/detail',
    access: 'diyTableClassify:detail',
    summary: 'Form categories: detail',
    tags,
    query: detailQuerySchema,
    response: classifyRowSchema,
    handler: ({ query, user }) => categoryDetail(ctx, currentUser(user), query.Id),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyTableClassify/options',
    access: 'loggedIn',
    summary: "The tenant's enabled categories (报表填报, form settings), by orderNo",
    tags,
    response: z.array(classifyOptionSchema),
    handler: ({ user }): Promise<ClassifyOption[]> => categoryOptions(ctx, currentUser(user)),
  });
}
