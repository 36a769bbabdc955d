import { DICT_ITEM_LABELS } from '@shuzhi/contracts/dict-labels';
import { pageResult, pageResultSchema } from '@shuzhi/contracts/envelope';
import { LOCALES } from '@shuzhi/contracts/i18n';
import { menuNodeSchema } from '@shuzhi/contracts/menu';
import { langOptionSchema, schedulePageInputSchema } from '@shuzhi/contracts/wire';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.ts';
import { defineRoute } from '../../platform/http/route.ts';

/**
 * Calls the Admin.NET family's clients make for features Shuzhi has no counterpart of (docs/wire.md, "Family
 * compatibility"): they answer what is true here — the languages Shuzhi speaks, no favourite menus, an empty
 * personal calendar — so that such a client's home page and language switch work unchanged.
 */
export function wireRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysLang/dropdownData',
    access: 'public',
    summary: 'The languages of the interface (code, name in itself), for the language switch',
    tags: ['sysLang'],
    response: z.array(langOptionSchema),
    handler: () =>
      LOCALES.map((code) => ({
        label: DICT_ITEM_LABELS.language?.[code]?.[code] ?? code,
        value: code,
        code,
      })),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysUserMenu/userMenuList',
    access: 'loggedIn',
    summary: "The caller's favourite menus: Shuzhi keeps none, so always empty",
    tags: ['sysUserMenu'],
    response: z.array(menuNodeSchema),
    handler: () => [],
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysSchedule/page',
    access: 'loggedIn',
    summary: "The caller's calendar entries: Shuzhi keeps no personal calendar, so always an empty page",
    tags: ['sysSchedule'],
    body: schedulePageInputSchema,
    response: pageResultSchema(z.never()),
    handler: ({ body }) => pageResult([], 0, body.page, body.pageSize),
  });
}
