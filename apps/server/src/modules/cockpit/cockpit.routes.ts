import {
  COCKPIT_CODE_HEADER,
  cockpitConfigSchema,
  cockpitDataSchema,
  cockpitLinkInputSchema,
  cockpitLinkRevokeSchema,
  cockpitLinkSchema,
} from '@shuzhi/contracts/cockpit';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../../platform/access/access.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { cockpitConfig, saveCockpitConfig } from './cockpit-config.ts';
import { cockpitData } from './cockpit-data.ts';
import { addCockpitLink, cockpitLinks, linkViewer, revokeCockpitLink } from './cockpit-link.ts';

const tags = ['cockpit'];
const BASE = '/api/cockpit';

/** The cockpit `/jsc` (issue 20 §4, docs/dashboards.md "The cockpit"). */
export function cockpitRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: 'GET',
    url: `${BASE}/data`,
    access: 'cockpit:view',
    summary: 'Every configured panel of the cockpit for the caller’s data scope',
    tags,
    response: cockpitDataSchema,
    handler: async ({ req, locale }) => {
      const user = currentUser(req);
      return cockpitData(ctx, user, await cockpitConfig(ctx, user.tenantId), locale);
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: `${BASE}/dataByLink`,
    access: 'public',
    limit: 'captcha',
    summary: `The cockpit through a signed link (its code in the ${COCKPIT_CODE_HEADER} header), as its publisher`,
    tags,
    response: cockpitDataSchema,
    handler: async ({ req, locale }) => {
      const raw = req.headers[COCKPIT_CODE_HEADER];
      const code = Array.isArray(raw) ? raw[0] : raw;
      if (!code) throw new AppError('B1021', undefined, 401);
      const viewer = await linkViewer(ctx, code);
      return cockpitData(ctx, viewer, await cockpitConfig(ctx, viewer.tenantId), locale);
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: `${BASE}/config`,
    access: 'cockpit:config',
    summary: 'The tenant’s cockpit settings: panels, forms, scaling, refresh',
    tags,
    response: cockpitConfigSchema,
    handler: ({ req }) => cockpitConfig(ctx, currentUser(req).tenantId),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: `${BASE}/config`,
    access: 'cockpit:config',
    summary:
      'Saves the cockpit settings (B1020: a form that is not a published report form the admin may query)',
    tags,
    body: cockpitConfigSchema,
    response: z.null(),
    handler: ({ req, body }) => saveCockpitConfig(ctx, currentUser(req), body),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: `${BASE}/link/list`,
    access: 'cockpit:config',
    summary: 'Signed login-free links to the cockpit, newest first',
    tags,
    response: z.array(cockpitLinkSchema),
    handler: ({ req }) => cockpitLinks(ctx, currentUser(req)),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: `${BASE}/link`,
    access: 'cockpit:config',
    summary: 'A signed login-free link to the cockpit, valid for 1–366 days, read as the publisher',
    tags,
    body: cockpitLinkInputSchema,
    response: cockpitLinkSchema,
    handler: ({ req, body }) => addCockpitLink(ctx, currentUser(req), body.days),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: `${BASE}/link/revoke`,
    access: 'cockpit:config',
    summary: 'Revokes a cockpit link at once',
    tags,
    body: cockpitLinkRevokeSchema,
    response: z.null(),
    handler: ({ req, body }) => revokeCockpitLink(ctx, currentUser(req), body.id),
  });
}
