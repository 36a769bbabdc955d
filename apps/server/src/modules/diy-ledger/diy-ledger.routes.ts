import { ledgerExportInputSchema } from '@shuzhi/contracts/diy-table';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { exportLedger } from './diy-ledger.service.ts';

/**
 * Excel ledgers of report forms (issue 6 §3): `POST /api/diyTable/export_ledger` streams an .xlsx of the
 * records the record page shows for the same filters. Signed-in users; the form's `myAuth.export` decides.
 */
export function diyLedgerRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyTable/export_ledger',
    access: 'loggedIn',
    raw: true,
    summary: 'Records of a form as an Excel ledger (.xlsx stream; the record page filters, no paging)',
    tags: ['diyTable'],
    body: ledgerExportInputSchema,
    response: z.unknown(),
    handler: ({ body, req, reply, locale }) => exportLedger(ctx, req.user as AuthUser, body, locale, reply),
  });
}
