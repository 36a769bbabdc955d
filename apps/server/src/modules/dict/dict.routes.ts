import {
  allDictListSchema,
  dictDataItemSchema,
  dictDataListQuerySchema,
  dictTypeChoiceSchema,
} from '@shuzhi/contracts/dict';
import {
  dictDataAddInputSchema,
  dictDataPageInputSchema,
  dictDataRowSchema,
  dictDataUpdateInputSchema,
  dictTypeAddInputSchema,
  dictTypePageInputSchema,
  dictTypeRowSchema,
  dictTypeUpdateInputSchema,
  dictVersionSchema,
} from '@shuzhi/contracts/dict-admin';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { superAdminScope } from '../../platform/access/platform-admin.ts';
import type { AppContext } from '../../platform/context.ts';
import { defineCrud } from '../../platform/crud/crud.ts';
import { FIELD_LABELS as L } from '../../platform/crud/labels.ts';
import { defineRoute } from '../../platform/http/route.ts';
import {
  allDictListResult,
  dictDataHooks,
  dictDataList,
  dictTypeChoices,
  dictTypeHooks,
  dictVersion,
} from './dict.service.ts';

const VALUE = { 'zh-CN': '字典值', en: 'Value', 'zh-TW': '字典值' };

export function dictRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineCrud(app, ctx, {
    resource: 'sysDictType',
    table: 'sys_dict_type',
    sensitive: true,
    title: { 'zh-CN': '字典类型', en: 'Dictionary types', 'zh-TW': '字典類型' },
    item: dictTypeRowSchema,
    page: dictTypePageInputSchema,
    filters: { name: { like: 'name' }, code: { like: 'code' }, status: { eq: 'status' } },
    sortable: ['code', 'name', 'orderNo', 'status', 'createTime', 'updateTime'],
    listOrder: [
      ['order_no', 'asc'],
      ['code', 'asc'],
    ],
    add: dictTypeAddInputSchema,
    update: dictTypeUpdateInputSchema,
    unique: [{ field: 'code', label: L.code }],
    setStatus: true,
    // Dictionaries are one copy for every tenant: administered by the platform operator (docs/tenancy.md).
    scope: superAdminScope,
    hooks: dictTypeHooks,
  });

  defineCrud(app, ctx, {
    resource: 'sysDictData',
    table: 'sys_dict_data',
    sensitive: true,
    title: { 'zh-CN': '字典值', en: 'Dictionary items', 'zh-TW': '字典值' },
    item: dictDataRowSchema,
    page: dictDataPageInputSchema,
    filters: {
      dictTypeId: { eq: 'dict_type_id' },
      label: { like: 'label' },
      value: { like: 'value' },
      status: { eq: 'status' },
    },
    sortable: ['label', 'value', 'orderNo', 'status', 'createTime', 'updateTime'],
    listOrder: [
      ['order_no', 'asc'],
      ['id', 'asc'],
    ],
    add: dictDataAddInputSchema,
    update: dictDataUpdateInputSchema,
    unique: [{ field: 'value', within: ['dictTypeId'], label: VALUE }],
    setStatus: true,
    scope: superAdminScope,
    hooks: dictDataHooks,
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysDictType/allDictList',
    access: 'loggedIn',
    summary:
      'Every enabled dictionary with its enabled items, keyed by type code; built-in labels in the request language',
    tags: ['sysDictType'],
    response: allDictListSchema,
    handler: ({ ctx, locale }) => allDictListResult(ctx, locale),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysDictType/version',
    access: 'loggedIn',
    summary:
      'Stamp of the allDictList content in the request language: refetch the dictionaries when it moves',
    tags: ['sysDictType'],
    response: dictVersionSchema,
    handler: ({ ctx, locale }) => dictVersion(ctx, locale),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysDictType/choices',
    access: 'loggedIn',
    summary: 'Code and name of every enabled dictionary type, for pickers (the form designer)',
    tags: ['sysDictType'],
    response: z.array(dictTypeChoiceSchema),
    handler: ({ ctx }) => dictTypeChoices(ctx),
  });

  for (const service of ['sysDictType', 'sysDictData']) {
    defineRoute(app, ctx, {
      method: 'GET',
      url: `/api/${service}/dataList`,
      access: 'loggedIn',
      summary: 'Enabled items of one enabled dictionary type (?Code=)',
      tags: [service],
      query: dictDataListQuerySchema,
      response: z.array(dictDataItemSchema),
      handler: ({ ctx, query, locale }) => dictDataList(ctx, query.Code, locale),
    });
  }
}
