import {
  boardDataInputSchema,
  boardDataSchema,
  boardExportInputSchema,
  boardItemSchema,
  homeSummarySchema,
} from '@shuzhi/contracts/dashboard';
import type { Localized } from '@shuzhi/contracts/i18n';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { type ExportColumn, sendXlsx } from '../../platform/crud/export.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { efficiencyRoutes } from './efficiency.routes.ts';
import { boardData, boardList } from './form-board.ts';
import { homeSummary } from './home-summary.ts';

const same = (text: string): Localized => ({ 'zh-CN': text, en: text, 'zh-TW': text });
const NAME: Record<'breakdown' | 'trend', Localized> = {
  breakdown: { 'zh-CN': '单位', en: 'Unit', 'zh-TW': '單位' },
  trend: { 'zh-CN': '周期', en: 'Period', 'zh-TW': '週期' },
};
const RECORDS: Localized = { 'zh-CN': '已上报份数', en: 'Records counted', 'zh-TW': '已上報份數' };
const TOTAL: Localized = { 'zh-CN': '合计', en: 'Total', 'zh-TW': '合計' };

/**
 * The data dashboard (issue 20 §2, docs/dashboards.md): the forms and roll-ups offered, the figures of one
 * (formBoard:view, then the form's or roll-up's own reading rights) and the data of a chart as Excel
 * (formBoard:export, the same figures).
 */
export function dashboardRoutes(app: FastifyInstance, ctx: AppContext): void {
  const me = (req: { user: AuthUser | null }) => req.user as AuthUser;

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/dashboard/home',
    access: 'dashboard:view',
    summary:
      'Home dashboard: my open task parts and due dates, records waiting for my review, my returned ' +
      'filings, this period’s progress of the forms I administer, the latest notices',
    tags: ['dashboard'],
    response: homeSummarySchema,
    handler: ({ req, locale }) => homeSummary(ctx, me(req), locale),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/dashboard/form/list',
    access: 'formBoard:view',
    summary: 'Data dashboard: the published forms and roll-ups whose figures the caller may see',
    tags: ['dashboard'],
    response: z.array(boardItemSchema),
    handler: ({ req, locale }) => boardList(ctx, me(req), locale),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/dashboard/form/data',
    access: 'formBoard:view',
    summary:
      'Data dashboard: key figures of a period against the last one and last year, the trend over 12 ' +
      'periods and the breakdown by org level or region, as the roll-up computes them for the caller',
    tags: ['dashboard'],
    body: boardDataInputSchema,
    response: boardDataSchema,
    handler: ({ req, body, locale }) => boardData(ctx, me(req), body, locale),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/dashboard/form/export',
    access: 'formBoard:export',
    raw: true,
    summary: 'Data dashboard: Excel (.xlsx) of one chart’s data (breakdown or trend)',
    tags: ['dashboard'],
    body: boardExportInputSchema,
    response: z.unknown(),
    handler: async ({ req, reply, body, locale }) => {
      const board = await boardData(ctx, me(req), body, locale);
      const columns: ExportColumn[] = [
        { field: 'name', label: NAME[body.chart], width: 30 },
        { field: 'records', label: RECORDS },
        ...board.measures.map((m) => ({ field: m.id, label: same(m.label) })),
      ];
      const items =
        body.chart === 'trend'
          ? board.trend.map((p) => ({ name: p.name, records: p.records, ...p.figures }))
          : [
              ...board.data.rows.map((r) => ({ name: r.name, records: r.records, ...r.figures })),
              { name: TOTAL[locale], records: board.data.total.records, ...board.data.total.figures },
            ];
      async function* batches() {
        yield items;
      }
      return sendXlsx(ctx, reply, { title: same(board.title), locale, columns, batches: batches() });
    },
  });

  efficiencyRoutes(app, ctx);
}
