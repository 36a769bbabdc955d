import {
  menuAddInputSchema,
  menuExportInputSchema,
  menuListQuerySchema,
  menuNodeSchema,
  menuRowSchema,
  menuUpdateInputSchema,
} from '@shuzhi/contracts/menu';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../../platform/access/access.ts';
import type { AppContext } from '../../platform/context.ts';
import { defineCrud } from '../../platform/crud/crud.ts';
import { FIELD_LABELS as L } from '../../platform/crud/labels.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { adminMenuTree, menuHooks } from './menu.admin.ts';
import { loginMenuTreeResult, ownButtonPermissions } from './menu.service.ts';

const tags = ['sysMenu'];

/**
 * `/api/sysMenu/…`: the signed-in user's tree and buttons; for administration `list` (the whole tree, Title
 * and Type filters), and detail, add, update, delete, setStatus, export from the CRUD factory. Menus are
 * global; writes are for the super admin only (menu.admin.ts).
 */
export function menuRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineCrud(app, ctx, {
    resource: 'sysMenu',
    table: 'sys_menu',
    sensitive: true,
    title: { 'zh-CN': '菜单', en: 'Menus', 'zh-TW': '選單' },
    item: menuRowSchema,
    page: menuExportInputSchema,
    filters: { title: { like: 'title' }, type: { eq: 'type' } },
    sortable: ['title', 'name', 'type', 'orderNo', 'status', 'createTime'],
    add: menuAddInputSchema,
    update: menuUpdateInputSchema,
    setStatus: true,
    omit: ['page', 'list'],
    export: [
      { field: 'title', label: { 'zh-CN': '菜单名称', en: 'Title', 'zh-TW': '選單名稱' } },
      { field: 'type', label: { 'zh-CN': '类型', en: 'Type', 'zh-TW': '類型' }, dict: 'menu_type' },
      { field: 'name', label: { 'zh-CN': '路由名称', en: 'Route name', 'zh-TW': '路由名稱' } },
      { field: 'path', label: { 'zh-CN': '路由地址', en: 'Path', 'zh-TW': '路由位址' } },
      { field: 'component', label: { 'zh-CN': '组件路径', en: 'Component', 'zh-TW': '元件路徑' } },
      { field: 'permission', label: { 'zh-CN': '权限标识', en: 'Permission', 'zh-TW': '權限標識' } },
      { field: 'orderNo', label: L.orderNo },
      { field: 'status', label: L.status, dict: 'status' },
      { field: 'createTime', label: L.createTime },
    ],
    hooks: menuHooks,
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysMenu/list',
    access: 'sysMenu:list',
    summary:
      'Menus: the whole tree with buttons, any status (?Title= contains, ?Type= equals: matches with ancestors)',
    tags,
    query: menuListQuerySchema,
    response: z.array(menuNodeSchema),
    handler: ({ ctx, query }) => adminMenuTree(ctx, { title: query.Title, type: query.Type }),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysMenu/loginMenuTree',
    access: 'loggedIn',
    summary: "The signed-in user's directories and menus (no buttons)",
    tags,
    response: z.array(menuNodeSchema),
    handler: ({ ctx, req }) => loginMenuTreeResult(ctx, currentUser(req)),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysMenu/ownBtnPermList',
    access: 'loggedIn',
    summary: "The signed-in user's button permissions",
    tags,
    response: z.array(z.string()),
    handler: ({ req }) => ownButtonPermissions(currentUser(req)),
  });
}
