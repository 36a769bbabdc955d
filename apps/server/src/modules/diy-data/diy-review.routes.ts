import {
  auditFormSchema,
  auditPageInputSchema,
  auditRowSchema,
  dataCountResultSchema,
  recordAuditInputSchema,
  registerSubmitInputSchema,
  tableDataNoInputSchema,
  tableDataNoResultSchema,
  updateCreateUserInputSchema,
} from '@shuzhi/contracts/diy-table';
import { idSchema, pageResultSchema } from '@shuzhi/contracts/envelope';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { withFieldErrors } from '../../platform/diy/field-errors.ts';
import { ValidationError } from '../../platform/errors/app-error.ts';
import { registerBelongReader } from '../../platform/files/belong.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { handOverRecords, registerSubmit } from './diy-handover.ts';
import { RECORD_FILE_PREFIX, recordFileReadable } from './diy-record-files.ts';
import { recordDataNo } from './diy-record-numbering.ts';
import { updateDataCount } from './diy-record-query.ts';
import { auditForms, auditPage, auditRecords } from './diy-review.ts';

const NULL_RESULT = z.null();
const tableParams = z.object({ tableId: idSchema });
const idParams = z.object({ id: idSchema });
const ID_PATH = '(^\\d+$)';

/**
 * Review (`/api/diyData/{tableId}/audit`, `/api/diyReport/auditPage | auditForms`), hand-over, submission
 * events, numbering and counts (`/api/diyTable/…`), and the reader that lets record readers open the
 * record's files. Every route is open to signed-in users and asks the form's `formAuth` what the caller may
 * do (a caller who reviews nothing gets an empty review page).
 */
export function diyReviewRoutes(app: FastifyInstance, ctx: AppContext): void {
  const me = (req: { user: AuthUser | null }) => req.user as AuthUser;
  registerBelongReader(RECORD_FILE_PREFIX, recordFileReadable);

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyData/:tableId(^\\d+$)/audit',
    access: 'loggedIn',
    summary:
      'Records: approve or return (comment required) submitted records the caller reviews; all or none',
    tags: ['diyData'],
    params: tableParams,
    body: recordAuditInputSchema,
    response: NULL_RESULT,
    handler: ({ params, body, req, reply, locale }) =>
      withFieldErrors(reply, async () => {
        await auditRecords(ctx, me(req), params.tableId, body, locale);
        return null;
      }),
  });
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyReport/auditPage',
    access: 'loggedIn',
    summary:
      'Review: a page of the records of every form the caller reviews (default status 1, newest submission first)',
    tags: ['diyReport'],
    body: auditPageInputSchema,
    response: pageResultSchema(auditRowSchema),
    handler: ({ body, req, locale }) => auditPage(ctx, me(req), body, locale),
  });
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyReport/auditForms',
    access: 'loggedIn',
    summary: 'Review: the forms the caller reviews, with how many records wait',
    tags: ['diyReport'],
    response: z.array(auditFormSchema),
    handler: ({ req }) => auditForms(ctx, me(req)),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyTable/UpdateCreateUser',
    access: 'loggedIn',
    summary:
      "Records: hand records to another user of the form's fillers (form admins and reviewers); history handover",
    tags: ['diyTable'],
    body: updateCreateUserInputSchema,
    response: NULL_RESULT,
    handler: async ({ body, req }) => {
      await handOverRecords(ctx, me(req), body);
      return null;
    },
  });
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyTable/RegisterSubmit',
    access: 'loggedIn',
    summary: 'Records: register a submission event on a record (its filler or a form admin); history step',
    tags: ['diyTable'],
    body: registerSubmitInputSchema,
    response: NULL_RESULT,
    handler: async ({ body, req }) => {
      const { id } = body;
      if (id === undefined) {
        const parsed = z.object({ id: idSchema }).safeParse({});
        throw new ValidationError(parsed.success ? [] : parsed.error.issues, 'body');
      }
      await registerSubmit(ctx, me(req), { ...body, id });
      return null;
    },
  });
  defineRoute(app, ctx, {
    method: 'POST',
    url: `/api/diyTable/tableDataNo/:id${ID_PATH}`,
    access: 'loggedIn',
    summary: "Records: give a record without a serial number the form's next number (idempotent)",
    tags: ['diyTable'],
    params: idParams,
    body: tableDataNoInputSchema,
    response: tableDataNoResultSchema,
    handler: ({ params, body, req }) => recordDataNo(ctx, me(req), params.id, body.recordId),
  });
  defineRoute(app, ctx, {
    method: 'POST',
    url: `/api/diyTable/updateDataCount/:id${ID_PATH}`,
    access: 'loggedIn',
    summary: "Forms: recount the form's live records and store the count",
    tags: ['diyTable'],
    params: idParams,
    response: dataCountResultSchema,
    handler: ({ params, req }) => updateDataCount(ctx, me(req), params.id),
  });
}
