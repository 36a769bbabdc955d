import { configItemSchema } from '@shuzhi/contracts/config';
import {
  configAddInputSchema,
  configBatchUpdateInputSchema,
  configPageInputSchema,
  configRowSchema,
  configUpdateInputSchema,
  saveSysInfoInputSchema,
  sysInfoAnswerSchema,
  sysInfoSchema,
} from '@shuzhi/contracts/config-admin';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../../platform/access/access.ts';
import { superAdminScope } from '../../platform/access/platform-admin.ts';
import type { AppContext } from '../../platform/context.ts';
import { defineCrud } from '../../platform/crud/crud.ts';
import { FIELD_LABELS as L } from '../../platform/crud/labels.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { batchUpdateConfigs, configGroups, configHooks, listConfigs, saveSysInfo } from './config.service.ts';
import { sysInfoAnswer } from './sys-info.wire.ts';

const tags = ['sysConfig'];
const VALUE = { 'zh-CN': '参数值', en: 'Value', 'zh-TW': '參數值' };
const GROUP = { 'zh-CN': '分组', en: 'Group', 'zh-TW': '分組' };

export function configRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineCrud(app, ctx, {
    resource: 'sysConfig',
    table: 'sys_config',
    sensitive: true,
    title: { 'zh-CN': '参数配置', en: 'System parameters', 'zh-TW': '參數配置' },
    item: configRowSchema,
    page: configPageInputSchema,
    filters: { name: { like: 'name' }, code: { like: 'code' }, groupCode: { eq: 'group_code' } },
    sortable: ['code', 'name', 'groupCode', 'orderNo', 'sysFlag', 'createTime', 'updateTime'],
    add: configAddInputSchema,
    update: configUpdateInputSchema,
    unique: [{ field: 'code', label: L.code }],
    batchDelete: true,
    // One copy for every tenant: the platform operator's alone (docs/tenancy.md).
    scope: superAdminScope,
    // `list` answers every signed-in user (without the permission: only the shell's codes), below.
    omit: ['list'],
    export: [
      { field: 'code', label: L.code, width: 28 },
      { field: 'name', label: L.name, width: 20 },
      { field: 'value', label: VALUE, width: 30 },
      { field: 'sysFlag', label: L.sysFlag, constant: 'sysFlag' },
      { field: 'groupCode', label: GROUP, dict: 'config_group' },
      { field: 'orderNo', label: L.orderNo },
      { field: 'remark', label: L.remark, width: 40 },
      { field: 'updateTime', label: L.updateTime, width: 20 },
    ],
    hooks: configHooks,
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysConfig/list',
    access: 'loggedIn',
    summary: 'Config items (all for the super admin, otherwise the ones the shell reads)',
    tags,
    response: z.array(configItemSchema),
    handler: ({ ctx, req }) => listConfigs(ctx, currentUser(req)),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysConfig/groupList',
    access: 'sysConfig:list',
    summary: 'Config group codes',
    tags,
    response: z.array(z.string()),
    handler: ({ ctx, req }) => configGroups(ctx, currentUser(req)),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysConfig/batchUpdate',
    access: 'sysConfig:batchUpdate',
    summary: 'Set values by code ([{code, value}]), all or nothing',
    tags,
    body: configBatchUpdateInputSchema,
    response: z.null(),
    handler: ({ ctx, req, body }) => batchUpdateConfigs(ctx, currentUser(req), body, req.id),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysConfig/sysInfo',
    access: 'public',
    summary:
      'System info: title, logo, copyright and ICP line (empty: the profile decides), also as the family names them',
    tags,
    response: sysInfoAnswerSchema,
    handler: ({ ctx, locale }) => sysInfoAnswer(ctx, locale),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysConfig/saveSysInfo',
    access: 'sysConfig:update',
    summary: 'Save the system info (fields left out keep their value); answers the saved info',
    tags,
    body: saveSysInfoInputSchema,
    response: sysInfoSchema,
    handler: ({ ctx, req, body }) => saveSysInfo(ctx, currentUser(req), body, req.id),
  });
}
