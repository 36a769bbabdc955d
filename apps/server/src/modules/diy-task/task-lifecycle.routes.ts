import { taskIdQuerySchema } from '@shuzhi/contracts/diy-task';
import {
  deletedTaskPageInputSchema,
  deletedTaskRowSchema,
  taskEditInputSchema,
  taskGridQuerySchema,
  taskMetricsSchema,
  taskStepInputSchema,
  taskZeroInputSchema,
  taskZeroWithdrawInputSchema,
} from '@shuzhi/contracts/diy-task-lifecycle';
import { pageResultSchema } from '@shuzhi/contracts/envelope';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { defineRoute } from '../../platform/http/route.ts';
import {
  deleteTask,
  editTask,
  restoreTask,
  setTaskState,
  withdrawZeroReport,
  zeroReportTask,
} from './task-lifecycle.ts';
import { deletedTaskPage } from './task-read.ts';
import { exportTaskGrid, taskMetrics } from './task-report.ts';

/**
 * Tasks, second part (issue 19 §5, §7, docs/tasks.md): edit (diyTask:edit), close and reopen (diyTask:close),
 * delete (diyTask:delete), zero reports (diyTask:zero), timeliness (whoever sees the task) and the grid as Excel
 * (diyTask:export).
 */
export function taskLifecycleRoutes(app: FastifyInstance, ctx: AppContext): void {
  const me = (req: { user: AuthUser | null }) => req.user as AuthUser;
  const tags = ['diyTask'];

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyTask/edit',
    access: 'diyTask:edit',
    summary:
      'Tasks: edit an open task (title, instructions, attachments, due time; receivers due at the old time move ' +
      'with it)',
    tags,
    body: taskEditInputSchema,
    response: z.null(),
    handler: async ({ body, req }) => {
      await editTask(ctx, me(req), body);
      return null;
    },
  });

  for (const [url, to] of [
    ['/api/diyTask/close', 'closed'],
    ['/api/diyTask/reopen', 'open'],
  ] as const)
    defineRoute(app, ctx, {
      method: 'POST',
      url,
      access: 'diyTask:close',
      summary:
        to === 'closed'
          ? 'Tasks: close a task (no more hand-on, transfer or zero reports)'
          : 'Tasks: reopen a closed task',
      tags,
      body: taskStepInputSchema,
      response: z.null(),
      handler: async ({ body, req }) => {
        await setTaskState(ctx, me(req), body, to);
        return null;
      },
    });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyTask/deletedPage',
    access: 'diyTask:delete',
    summary: 'Tasks: deleted tasks the caller may manage, last deleted first, with who deleted them and when',
    tags,
    body: deletedTaskPageInputSchema,
    response: pageResultSchema(deletedTaskRowSchema),
    handler: ({ body, req, locale }) => deletedTaskPage(ctx, me(req), body, locale),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyTask/restore',
    access: 'diyTask:delete',
    summary:
      'Tasks: restore a deleted task as it was, with its receivers and history (T1000 when not deleted)',
    tags,
    body: taskStepInputSchema,
    response: z.null(),
    handler: async ({ body, req }) => {
      await restoreTask(ctx, me(req), body);
      return null;
    },
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyTask/delete',
    access: 'diyTask:delete',
    summary: 'Tasks: delete a task (soft; its history stays, it leaves every list)',
    tags,
    body: taskStepInputSchema,
    response: z.null(),
    handler: async ({ body, req }) => {
      await deleteTask(ctx, me(req), body);
      return null;
    },
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyTask/zero',
    access: 'diyTask:zero',
    summary: 'Tasks: a receiving unit declares it has nothing to report for a form of the task (零报告)',
    tags,
    body: taskZeroInputSchema,
    response: z.null(),
    handler: async ({ body, req }) => {
      await zeroReportTask(ctx, me(req), body);
      return null;
    },
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyTask/zeroWithdraw',
    access: 'diyTask:zero',
    summary: 'Tasks: withdraw a zero report while the task is open',
    tags,
    body: taskZeroWithdrawInputSchema,
    response: z.null(),
    handler: async ({ body, req }) => {
      await withdrawZeroReport(ctx, me(req), body);
      return null;
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyTask/metrics',
    access: 'loggedIn',
    summary:
      'Tasks: timeliness per unit, per level and in total (on-time rate, hours before due, returns per record, ' +
      'review turnaround), from the records’ history',
    tags,
    query: taskIdQuerySchema,
    response: taskMetricsSchema,
    handler: ({ query, req, locale }) => taskMetrics(ctx, me(req), query.id, locale),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyTask/export',
    access: 'diyTask:export',
    raw: true,
    summary:
      'Tasks: the completeness grid as Excel (.xlsx), with the grid’s filters, in the request language',
    tags,
    query: taskGridQuerySchema,
    response: z.unknown(),
    handler: ({ query, req, reply, locale }) => exportTaskGrid(ctx, me(req), reply, query, locale),
  });
}
