import {
  taskReviewCompareSchema,
  taskReviewInputSchema,
  taskReviewQuerySchema,
  taskReviewRowSchema,
  taskReviewStepQuerySchema,
  taskReviewStepSchema,
} from '@shuzhi/contracts/diy-task-review';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { withFieldErrors } from '../../platform/diy/field-errors.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { reviewTaskRecords, taskReviewSteps, taskReviews } from './task-review.ts';
import { taskReviewCompare } from './task-review-compare.ts';

/**
 * Level-by-level review (docs/tasks.md "Level-by-level review"): the review list, pass / return (diyTask:review),
 * a record's review steps and its comparison with the unit's last period (whoever sees the task).
 */
export function taskReviewRoutes(app: FastifyInstance, ctx: AppContext): void {
  const me = (req: { user: AuthUser | null }) => req.user as AuthUser;

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyTask/reviews',
    access: 'loggedIn',
    summary:
      'Tasks: the records of a level-review task still in review that the caller sees, each with the level it ' +
      'waits for and whether the caller may review it (mine=true: only those)',
    tags: ['diyTask'],
    query: taskReviewQuerySchema,
    response: z.array(taskReviewRowSchema),
    handler: ({ query, req }) => taskReviews(ctx, me(req), query),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyTask/review',
    access: 'diyTask:review',
    summary:
      'Tasks: pass (to the level above; the last level approves) or return (to the filler, comment required) ' +
      'records waiting for a level the caller reviews; all or none',
    tags: ['diyTask'],
    body: taskReviewInputSchema,
    response: z.null(),
    handler: ({ body, req, reply, locale }) =>
      withFieldErrors(reply, async () => {
        await reviewTaskRecords(ctx, me(req), body, locale);
        return null;
      }),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyTask/reviewSteps',
    access: 'loggedIn',
    summary: 'Tasks: every review step of a record in the task (level, unit, action, comment, who, when)',
    tags: ['diyTask'],
    query: taskReviewStepQuerySchema,
    response: z.array(taskReviewStepSchema),
    handler: ({ query, req }) => taskReviewSteps(ctx, me(req), query),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyTask/reviewCompare',
    access: 'loggedIn',
    summary:
      "Tasks: a record's figures beside the same unit's record of the form's previous period, with the change",
    tags: ['diyTask'],
    query: taskReviewStepQuerySchema,
    response: taskReviewCompareSchema,
    handler: ({ query, req, locale }) => taskReviewCompare(ctx, me(req), query, locale),
  });
}
