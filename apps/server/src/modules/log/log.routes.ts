import type { Localized } from '@shuzhi/contracts/i18n';
import {
  clearLogResultSchema,
  diffLogPageInputSchema,
  diffLogSchema,
  exLogPageInputSchema,
  exLogSchema,
  opLogPageInputSchema,
  opLogSchema,
  visitLogPageInputSchema,
  visitLogSchema,
} from '@shuzhi/contracts/log';
import type { FastifyInstance } from 'fastify';
import { currentUser } from '../../platform/access/access.ts';
import type { LogTable } from '../../platform/audit/log-insert.ts';
import type { AppContext } from '../../platform/context.ts';
import { defineCrud } from '../../platform/crud/crud.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { clearLogs } from './log.service.ts';

const l = (zhCN: string, en: string, zhTW: string): Localized => ({ 'zh-CN': zhCN, en, 'zh-TW': zhTW });
const L = {
  time: l('时间', 'Time', '時間'),
  account: l('账号', 'Account', '帳號'),
  realName: l('姓名', 'Name', '姓名'),
  action: l('动作', 'Action', '動作'),
  status: l('结果', 'Result', '結果'),
  code: l('结果码', 'Result code', '結果碼'),
  message: l('消息', 'Message', '訊息'),
  ip: l('IP 地址', 'IP address', 'IP 位址'),
  browser: l('浏览器', 'Browser', '瀏覽器'),
  os: l('操作系统', 'OS', '作業系統'),
  elapsed: l('耗时(ms)', 'Elapsed (ms)', '耗時(ms)'),
  method: l('请求方式', 'Method', '請求方式'),
  url: l('请求地址', 'URL', '請求位址'),
  controller: l('模块', 'Service', '模組'),
  params: l('请求参数', 'Parameters', '請求參數'),
  traceId: l('追踪号', 'Trace id', '追蹤號'),
  stack: l('堆栈', 'Stack', '堆疊'),
  table: l('表名', 'Table', '表名'),
  recordId: l('记录 Id', 'Record id', '記錄 Id'),
  operation: l('操作', 'Operation', '操作'),
  changed: l('变更字段', 'Changed fields', '變更欄位'),
  before: l('变更前', 'Before', '變更前'),
  after: l('变更后', 'After', '變更後'),
};

/** Read-only logs: no list, add, update or delete routes; the rows come from platform/audit only. */
const READ_ONLY = ['list', 'add', 'update', 'delete'] as const;
// The time range and the account filter every log shares.
const COMMON_FILTERS = {
  startTime: { since: 'create_time' },
  endTime: { until: 'create_time' },
  account: { like: ['account', 'real_name'] },
} as const;

export function logRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineCrud(app, ctx, {
    resource: 'sysLogVis',
    table: 'sys_log_vis',
    tenant: true,
    title: l('访问日志', 'Visit log', '訪問日誌'),
    item: visitLogSchema,
    page: visitLogPageInputSchema,
    omit: READ_ONLY,
    filters: {
      ...COMMON_FILTERS,
      ip: { like: 'ip' },
      action: { eq: 'action' },
      status: { eq: 'status' },
    },
    sortable: ['createTime', 'account', 'ip', 'elapsed'],
    export: [
      { field: 'createTime', label: L.time, width: 20 },
      { field: 'account', label: L.account },
      { field: 'realName', label: L.realName },
      { field: 'action', label: L.action },
      { field: 'status', label: L.status },
      { field: 'code', label: L.code },
      { field: 'message', label: L.message, width: 30 },
      { field: 'ip', label: L.ip, width: 16 },
      { field: 'browser', label: L.browser, width: 16 },
      { field: 'os', label: L.os, width: 16 },
      { field: 'elapsed', label: L.elapsed },
    ],
  });

  defineCrud(app, ctx, {
    resource: 'sysLogOp',
    table: 'sys_log_op',
    tenant: true,
    title: l('操作日志', 'Operation log', '操作日誌'),
    item: opLogSchema,
    page: opLogPageInputSchema,
    omit: READ_ONLY,
    filters: {
      ...COMMON_FILTERS,
      ip: { like: 'ip' },
      status: { eq: 'status' },
      code: { eq: 'code' },
      httpMethod: { eq: 'http_method' },
      keyword: { like: ['url', 'route_url', 'controller', 'action'] },
    },
    sortable: ['createTime', 'account', 'ip', 'elapsed', 'controller'],
    export: [
      { field: 'createTime', label: L.time, width: 20 },
      { field: 'account', label: L.account },
      { field: 'realName', label: L.realName },
      { field: 'httpMethod', label: L.method },
      { field: 'url', label: L.url, width: 40 },
      { field: 'controller', label: L.controller, width: 16 },
      { field: 'action', label: L.action, width: 16 },
      { field: 'params', label: L.params, width: 50 },
      { field: 'status', label: L.status },
      { field: 'code', label: L.code },
      { field: 'message', label: L.message, width: 30 },
      { field: 'elapsed', label: L.elapsed },
      { field: 'ip', label: L.ip, width: 16 },
      { field: 'browser', label: L.browser, width: 16 },
      { field: 'os', label: L.os, width: 16 },
      { field: 'traceId', label: L.traceId, width: 16 },
    ],
  });

  defineCrud(app, ctx, {
    resource: 'sysLogEx',
    table: 'sys_log_ex',
    tenant: true,
    title: l('异常日志', 'Exception log', '異常日誌'),
    item: exLogSchema,
    page: exLogPageInputSchema,
    omit: READ_ONLY,
    filters: {
      ...COMMON_FILTERS,
      ip: { like: 'ip' },
      traceId: { eq: 'trace_id' },
      keyword: { like: ['url', 'route_url', 'message'] },
    },
    sortable: ['createTime', 'account', 'ip'],
    export: [
      { field: 'createTime', label: L.time, width: 20 },
      { field: 'traceId', label: L.traceId, width: 16 },
      { field: 'account', label: L.account },
      { field: 'realName', label: L.realName },
      { field: 'httpMethod', label: L.method },
      { field: 'url', label: L.url, width: 40 },
      { field: 'message', label: L.message, width: 40 },
      { field: 'params', label: L.params, width: 40 },
      { field: 'ip', label: L.ip, width: 16 },
      { field: 'browser', label: L.browser, width: 16 },
      { field: 'os', label: L.os, width: 16 },
      { field: 'stack', label: L.stack, width: 60 },
    ],
  });

  defineCrud(app, ctx, {
    resource: 'sysLogDiff',
    table: 'sys_log_diff',
    tenant: true,
    title: l('差异日志', 'Diff log', '差異日誌'),
    item: diffLogSchema,
    page: diffLogPageInputSchema,
    omit: READ_ONLY,
    filters: {
      ...COMMON_FILTERS,
      tableName: { eq: 'table_name' },
      operation: { eq: 'operation' },
      recordId: { eq: 'record_id' },
    },
    sortable: ['createTime', 'account', 'tableName'],
    export: [
      { field: 'createTime', label: L.time, width: 20 },
      { field: 'account', label: L.account },
      { field: 'realName', label: L.realName },
      { field: 'tableName', label: L.table, width: 16 },
      { field: 'recordId', label: L.recordId, width: 20 },
      { field: 'operation', label: L.operation },
      { field: 'changedFields', label: L.changed, width: 30 },
      { field: 'beforeData', label: L.before, width: 60 },
      { field: 'afterData', label: L.after, width: 60 },
      { field: 'traceId', label: L.traceId, width: 16 },
    ],
  });

  const clear = (resource: 'sysLogVis' | 'sysLogOp' | 'sysLogEx' | 'sysLogDiff', table: LogTable) =>
    defineRoute(app, ctx, {
      method: 'POST',
      url: `/api/${resource}/clear`,
      access: `${resource}:clear`,
      summary: `${resource}: delete every row of the tenant (super admin: all tenants); answers how many`,
      tags: [resource],
      response: clearLogResultSchema,
      handler: ({ ctx, req }) => clearLogs(ctx, currentUser(req), table),
    });
  clear('sysLogVis', 'sys_log_vis');
  clear('sysLogOp', 'sys_log_op');
  clear('sysLogEx', 'sys_log_ex');
  clear('sysLogDiff', 'sys_log_diff');
}
