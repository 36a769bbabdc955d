import { addResultSchema } from '@shuzhi/contracts/crud';
import {
  scheduleAddInputSchema,
  scheduleIdInputSchema,
  schedulePageInputSchema,
  scheduleRowSchema,
  scheduleRunsSchema,
  scheduleUpdateInputSchema,
} from '@shuzhi/contracts/diy-task-schedule';
import { pageResultSchema } from '@shuzhi/contracts/envelope';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { defineRoute } from '../../platform/http/route.ts';
import {
  addSchedule,
  deleteSchedule,
  schedulePage,
  scheduleRuns,
  setScheduleState,
  updateSchedule,
} from './task-schedule.ts';

/**
 * Scheduled tasks (计划任务, issue 19 §6, docs/tasks.md): the list and run history (diyTaskSchedule:page), add
 * (…:add), edit, pause and resume (…:edit), delete (…:delete). The runs themselves are the `taskSchedule` job.
 */
export function diyTaskScheduleRoutes(app: FastifyInstance, ctx: AppContext): void {
  const me = (req: { user: AuthUser | null }) => req.user as AuthUser;
  const tags = ['diyTaskSchedule'];

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyTaskSchedule/page',
    access: 'diyTaskSchedule:page',
    summary: 'Scheduled tasks: made by the caller or by a unit in their data scope, with the last run',
    tags,
    body: schedulePageInputSchema,
    response: pageResultSchema(scheduleRowSchema),
    handler: ({ body, req, locale }) => schedulePage(ctx, me(req), body, locale),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyTaskSchedule/runs',
    access: 'diyTaskSchedule:page',
    summary: 'Scheduled tasks: the periods a schedule has run for, with the task made or why none was',
    tags,
    query: scheduleIdInputSchema,
    response: scheduleRunsSchema,
    handler: ({ query, req, locale }) => scheduleRuns(ctx, me(req), query.id, locale),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyTaskSchedule/add',
    access: 'diyTaskSchedule:add',
    summary:
      'Scheduled tasks: periodic forms, receivers, instructions and a due offset; a task is made for each new ' +
      'period from the one holding today',
    tags,
    body: scheduleAddInputSchema,
    response: addResultSchema,
    handler: ({ body, req }) => addSchedule(ctx, me(req), body),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyTaskSchedule/update',
    access: 'diyTaskSchedule:edit',
    summary: 'Scheduled tasks: change a schedule; periods already run keep their tasks',
    tags,
    body: scheduleUpdateInputSchema,
    response: z.null(),
    handler: async ({ body, req }) => {
      await updateSchedule(ctx, me(req), body);
      return null;
    },
  });

  for (const [verb, state] of [
    ['pause', 'paused'],
    ['resume', 'active'],
  ] as const) {
    defineRoute(app, ctx, {
      method: 'POST',
      url: `/api/diyTaskSchedule/${verb}`,
      access: 'diyTaskSchedule:edit',
      summary:
        verb === 'pause'
          ? 'Scheduled tasks: pause a schedule (no task is made while paused)'
          : 'Scheduled tasks: resume a schedule from the period holding today',
      tags,
      body: scheduleIdInputSchema,
      response: z.null(),
      handler: async ({ body, req }) => {
        await setScheduleState(ctx, me(req), body.id, state);
        return null;
      },
    });
  }

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyTaskSchedule/delete',
    access: 'diyTaskSchedule:delete',
    summary: 'Scheduled tasks: delete a schedule; the tasks it made and its history stay',
    tags,
    body: scheduleIdInputSchema,
    response: z.null(),
    handler: async ({ body, req }) => {
      await deleteSchedule(ctx, me(req), body.id);
      return null;
    },
  });
}
