import {
  regionAddInputSchema,
  regionListQuerySchema,
  regionNodeSchema,
  regionPageInputSchema,
  regionPathQuerySchema,
  regionPathSchema,
  regionRootSchema,
  regionRowSchema,
  regionSearchHitSchema,
  regionSearchQuerySchema,
  regionSyncCountsSchema,
  regionSyncStatusSchema,
  regionTreeQuerySchema,
  regionUpdateInputSchema,
} from '@shuzhi/contracts/region';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { superAdminScope } from '../../platform/access/platform-admin.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { defineCrud } from '../../platform/crud/crud.ts';
import { FIELD_LABELS as L } from '../../platform/crud/labels.ts';
import { defineRoute } from '../../platform/http/route.ts';
import {
  childrenOf,
  nodeByCode,
  pathOf,
  regionHooks,
  regionRoot,
  runSync,
  searchRegions,
  syncSource,
  syncStatus,
} from './region.service.ts';

const TAGS = ['sysRegion'];

/**
 * `/api/sysRegion/…`: page, detail, add, update, delete from the CRUD factory; `list?Id=` (children),
 * `tree` (lazy, one level at a time), `search`, `path`, `root`, `sync` and `syncStatus` here.
 * The cascader's reads (tree, path, root, search) are open to every signed-in user: any form with a region
 * field needs them, not only the region admins.
 */
export function regionRoutes(app: FastifyInstance, ctx: AppContext): void {
  {
    const crud = defineCrud(app, ctx, {
      resource: 'sysRegion',
      table: 'sys_region',
      title: { 'zh-CN': '行政区划', en: 'Regions', 'zh-TW': '行政區劃' },
      item: regionRowSchema,
      page: regionPageInputSchema,
      filters: {
        name: { like: 'name' },
        code: { prefix: 'code' },
        level: { eq: 'level' },
        pid: { eq: 'pid' },
      },
      sortable: ['code', 'name', 'level', 'orderNo', 'createTime'],
      listOrder: [
        ['order_no', 'asc'],
        ['code', 'asc'],
      ],
      add: regionAddInputSchema,
      update: regionUpdateInputSchema,
      unique: [{ field: 'code', label: L.code }],
      omit: ['list'],
      // One region table for every tenant (GB/T 2260): administered by the platform operator.
      scope: superAdminScope,
      hooks: regionHooks,
    });

    defineRoute(app, ctx, {
      method: 'GET',
      url: '/api/sysRegion/list',
      access: 'sysRegion:list',
      summary: 'Regions: the children of a region (?Id=; none or 0: the provinces)',
      tags: TAGS,
      query: regionListQuerySchema,
      response: z.array(regionRowSchema),
      handler: ({ query, req }) => crud.list({ pid: query.Id ?? 0 }, req.user as AuthUser),
    });

    defineRoute(app, ctx, {
      method: 'GET',
      url: '/api/sysRegion/tree',
      access: 'loggedIn',
      summary: 'Regions: one level of the lazy tree (?pid= or ?code= of the parent; neither: the provinces)',
      tags: TAGS,
      query: regionTreeQuerySchema,
      response: z.array(regionNodeSchema),
      handler: async ({ ctx, query }) => {
        if (query.pid !== undefined) return childrenOf(ctx, query.pid);
        if (query.code) {
          const parent = await nodeByCode(ctx, query.code);
          return parent ? childrenOf(ctx, parent.id) : [];
        }
        return childrenOf(ctx, 0);
      },
    });

    defineRoute(app, ctx, {
      method: 'GET',
      url: '/api/sysRegion/root',
      access: 'loggedIn',
      summary: "Regions: the profile's district (the default root) and its path from the province",
      tags: TAGS,
      response: regionRootSchema,
      handler: ({ ctx }) => regionRoot(ctx),
    });

    defineRoute(app, ctx, {
      method: 'GET',
      url: '/api/sysRegion/path',
      access: 'loggedIn',
      summary: 'Regions: a region and its ancestors, province first (?code=)',
      tags: TAGS,
      query: regionPathQuerySchema,
      response: regionPathSchema,
      handler: ({ ctx, query }) => pathOf(ctx, query.code),
    });

    defineRoute(app, ctx, {
      method: 'GET',
      url: '/api/sysRegion/search',
      access: 'loggedIn',
      summary: 'Regions: name contains or code starts with the keyword, every level, with the full paths',
      tags: TAGS,
      query: regionSearchQuerySchema,
      response: z.array(regionSearchHitSchema),
      handler: ({ ctx, query }) => searchRegions(ctx, query.keyword, query.limit, query.rootCode),
    });

    defineRoute(app, ctx, {
      method: 'POST',
      url: '/api/sysRegion/sync',
      access: 'sysRegion:sync',
      summary:
        'Regions: re-import the bundled data (adds missing codes, restores names, keeps local regions)',
      tags: TAGS,
      response: regionSyncCountsSchema,
      handler: ({ ctx }) => runSync(ctx, syncSource(ctx)),
    });

    defineRoute(app, ctx, {
      method: 'GET',
      url: '/api/sysRegion/syncStatus',
      access: 'sysRegion:sync',
      summary: 'Regions: progress of the running sync, the last counts and the number of live rows',
      tags: TAGS,
      response: regionSyncStatusSchema,
      handler: ({ ctx }) => syncStatus(ctx),
    });
  }
}
