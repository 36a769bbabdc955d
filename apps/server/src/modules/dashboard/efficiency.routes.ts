import { efficiencyQuerySchema, efficiencySchema } from '@shuzhi/contracts/efficiency';
import type { Localized } from '@shuzhi/contracts/i18n';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { type ExportColumn, sendXlsx } from '../../platform/crud/export.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { efficiency } from './efficiency.ts';

const label = (zhCN: string, en: string, zhTW: string): Localized => ({ 'zh-CN': zhCN, en, 'zh-TW': zhTW });
const TITLE = label('效率分析', 'Efficiency analysis', '效率分析');
const COLUMNS: ExportColumn[] = [
  { field: 'orgName', label: label('单位', 'Unit', '單位'), width: 30 },
  { field: 'orgType', label: label('单位类型', 'Unit type', '單位類型'), dict: 'org_type' },
  { field: 'tasks', label: label('任务数', 'Tasks', '任務數') },
  { field: 'expected', label: label('应报', 'Asked', '應報') },
  { field: 'submitted', label: label('已报', 'Submitted', '已報') },
  { field: 'onTime', label: label('按时', 'On time', '按時') },
  { field: 'late', label: label('逾期', 'Late', '逾期') },
  { field: 'onTimePercent', label: label('按时率（%）', 'On-time rate (%)', '按時率（%）') },
  { field: 'avgDaysBeforeDue', label: label('平均提前天数', 'Avg. days before due', '平均提前天數') },
  { field: 'returnsPerRecord', label: label('每份退回次数', 'Returns per record', '每份退回次數') },
  {
    field: 'avgReviewHours',
    label: label('平均审核用时（小时）', 'Avg. review hours', '平均審核用時（小時）'),
  },
  { field: 'records', label: label('报送份数', 'Records', '報送份數') },
  { field: 'fillers', label: label('填报人数', 'Fillers', '填報人數') },
  { field: 'recordsPerFiller', label: label('人均报送份数', 'Records per filler', '人均報送份數') },
];

/** Efficiency analysis (issue 20 §3, docs/dashboards.md): the figures, and the ranking as Excel. */
export function efficiencyRoutes(app: FastifyInstance, ctx: AppContext): void {
  const me = (req: { user: AuthUser | null }) => req.user as AuthUser;

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/dashboard/efficiency',
    access: 'efficiencyBoard:view',
    summary:
      'Efficiency analysis: on-time rate, days before due, late cells, returns per record, review turnaround ' +
      'and records per filler of the task parts in the caller’s data scope, per unit, level, form and month',
    tags: ['dashboard'],
    query: efficiencyQuerySchema,
    response: efficiencySchema,
    handler: ({ req, query, locale }) => efficiency(ctx, me(req), query, locale),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/dashboard/efficiency/export',
    access: 'efficiencyBoard:export',
    raw: true,
    summary: 'Efficiency analysis: the ranking of units as Excel (.xlsx), with the same filters',
    tags: ['dashboard'],
    query: efficiencyQuerySchema,
    response: z.unknown(),
    handler: async ({ req, reply, query, locale }) => {
      const data = await efficiency(ctx, me(req), query, locale);
      const rows = data.units.map((u) => ({
        ...u,
        onTimePercent: u.onTimeRate === null ? null : Math.round(u.onTimeRate * 1000) / 10,
      }));
      async function* batches() {
        yield rows;
      }
      return sendXlsx(ctx, reply, { title: TITLE, locale, columns: COLUMNS, batches: batches() });
    },
  });
}
