import { detailQuerySchema, idParamsSchema } from '@shuzhi/contracts/crud';
import { pageResultSchema } from '@shuzhi/contracts/envelope';
import type { Localized } from '@shuzhi/contracts/i18n';
import {
  audienceRoleSchema,
  audienceUserSchema,
  audienceUsersQuerySchema,
  NOTICE_STATUS,
  noticeAddInputSchema,
  noticeDetailSchema,
  noticeIdInputSchema,
  noticeIdQuerySchema,
  noticeListRowSchema,
  noticePageInputSchema,
  noticePublishInputSchema,
  noticeRowSchema,
  noticeUpdateInputSchema,
  receivedNoticeDetailSchema,
  receivedNoticeSchema,
  receivedPageInputSchema,
  unreadListSchema,
} from '@shuzhi/contracts/notice';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../../platform/access/access.ts';
import type { AppContext } from '../../platform/context.ts';
import { defineCrud } from '../../platform/crud/crud.ts';
import { FIELD_LABELS as L } from '../../platform/crud/labels.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { sanitizeNoticeHtml } from './notice.sanitize.ts';
import { noticeDetail, noticePage } from './notice-admin.ts';
import { audienceIdsOf, audienceRoles, audienceUsers, checkAudience } from './notice-audience.ts';
import {
  receivedDetail,
  receivedPage,
  setAllRead,
  setRead,
  unreadItems,
  unreadSummary,
} from './notice-inbox.ts';
import { publishNotice, withdrawNotice } from './notice-publish.ts';

const l = (zhCN: string, en: string, zhTW: string): Localized => ({ 'zh-CN': zhCN, en, 'zh-TW': zhTW });
const TAGS = ['sysNotice'];
const EDITABLE: readonly number[] = [NOTICE_STATUS.draft, NOTICE_STATUS.scheduled, NOTICE_STATUS.withdrawn];

/**
 * `/api/sysNotice/…` (通知公告). Writes, list and export come from the CRUD factory (tenant and data scope on
 * `create_org_id`); page and detail are the module's own, with the audience's names and the read counts.
 * `public` / `withdraw` move a notice through its states; the inbox routes (`pageReceived`, `unReadList`,
 * `unReadSummary`, `setRead`, `setAllRead`, `received`) serve any signed-in user their own received notices.
 */
export function noticeRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineCrud(app, ctx, {
    resource: 'sysNotice',
    table: 'sys_notice',
    tenant: true,
    ownOrg: true,
    title: l('通知公告', 'Notices', '通知公告'),
    item: noticeListRowSchema,
    page: noticePageInputSchema,
    filters: { title: { like: 'title' }, type: { eq: 'type' }, status: { eq: 'status' } },
    sortable: ['title', 'type', 'status', 'publicTime', 'createTime'],
    omit: ['page', 'detail'],
    add: noticeAddInputSchema,
    update: noticeUpdateInputSchema,
    batchDelete: true,
    access: { export: 'sysNotice:page' },
    export: [
      { field: 'title', label: l('标题', 'Title', '標題'), width: 40 },
      { field: 'type', label: l('类型', 'Type', '類型'), dict: 'notice_type' },
      { field: 'status', label: L.status, dict: 'notice_status' },
      { field: 'publicUserName', label: l('发布人', 'Published by', '發佈者'), width: 16 },
      { field: 'publicOrgName', label: l('发布机构', 'Publishing org', '發佈機構'), width: 24 },
      { field: 'publicTime', label: l('发布时间', 'Published', '發佈時間'), width: 20 },
      { field: 'publishAt', label: l('定时发布', 'Scheduled for', '定時發佈'), width: 20 },
      { field: 'createUserName', label: L.createUserName, width: 16 },
      { field: 'createTime', label: L.createTime, width: 20 },
    ],
    hooks: {
      async beforeAdd({ trx, user, input, values }) {
        const v = values as Record<string, unknown>;
        v.status = NOTICE_STATUS.draft;
        v.content = sanitizeNoticeHtml(input.content);
        v.audience_ids = JSON.stringify(
          await checkAudience(trx, user.tenantId, input.audience, input.audienceIds),
        );
      },
      async beforeUpdate({ trx, input, values, row }) {
        if (!EDITABLE.includes(row.status)) throw new AppError('D7000');
        const v = values as Record<string, unknown>;
        if (input.content !== undefined) v.content = sanitizeNoticeHtml(input.content);
        const audience = input.audience ?? row.audience;
        // A new audience kind without ids is an empty audience, not the old kind's ids.
        const ids =
          input.audienceIds ??
          (audience === row.audience ? audienceIdsOf(row.audience_ids) : ([] as number[]));
        v.audience_ids = JSON.stringify(await checkAudience(trx, row.tenant_id, audience, ids));
      },
      beforeDelete({ rows }) {
        if (rows.some((r) => r.status === NOTICE_STATUS.published)) throw new AppError('D7000');
      },
    },
  });

  noticeAdminRoutes(app, ctx);
  noticeInboxRoutes(app, ctx);
}

/** The administrators' page and detail, publishing and withdrawing, and the editor's recipient pickers. */
function noticeAdminRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysNotice/page',
    access: 'sysNotice:page',
    summary: 'Notices: page, with the audience names and read counts',
    tags: TAGS,
    body: noticePageInputSchema,
    response: pageResultSchema(noticeRowSchema),
    handler: ({ ctx, req, body }) => noticePage(ctx, currentUser(req), body),
  });
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysNotice/page',
    access: 'sysNotice:page',
    summary: 'Notices: page (query)',
    tags: TAGS,
    query: noticePageInputSchema,
    response: pageResultSchema(noticeRowSchema),
    handler: ({ ctx, req, query }) => noticePage(ctx, currentUser(req), query),
  });
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysNotice/detail',
    access: 'sysNotice:detail',
    summary: 'Notices: detail with the body',
    tags: TAGS,
    query: detailQuerySchema,
    response: noticeDetailSchema,
    handler: ({ ctx, req, query }) => noticeDetail(ctx, currentUser(req), query.Id),
  });
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysNotice/:id(^\\d+$)',
    access: 'sysNotice:detail',
    summary: 'Notices: detail by path',
    tags: TAGS,
    params: idParamsSchema,
    response: noticeDetailSchema,
    handler: ({ ctx, req, params }) => noticeDetail(ctx, currentUser(req), params.id),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysNotice/public',
    access: 'sysNotice:publish',
    summary: 'Notices: publish now (inbox rows, realtime push) or schedule for publishAt',
    tags: TAGS,
    body: noticePublishInputSchema,
    response: z.null(),
    handler: async ({ ctx, req, body }) => {
      await publishNotice(ctx, currentUser(req), body.id, body.publishAt || null);
      return null;
    },
  });
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysNotice/withdraw',
    access: 'sysNotice:withdraw',
    summary: 'Notices: withdraw a published or scheduled notice (it leaves every inbox)',
    tags: TAGS,
    body: noticeIdInputSchema,
    response: z.null(),
    handler: async ({ ctx, req, body }) => {
      await withdrawNotice(ctx, currentUser(req), body.id);
      return null;
    },
  });

  // The recipient pickers of the editor: a notice editor needs no user- or role-admin permission.
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysNotice/audienceUsers',
    access: 'sysNotice:add',
    summary: 'Notices: users the editor may address (data scope), by keyword or ids',
    tags: TAGS,
    query: audienceUsersQuerySchema,
    response: z.array(audienceUserSchema),
    handler: ({ ctx, req, query }) => audienceUsers(ctx, currentUser(req), query),
  });
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysNotice/audienceRoles',
    access: 'sysNotice:add',
    summary: 'Notices: the tenant’s enabled roles, for the role audience',
    tags: TAGS,
    response: z.array(audienceRoleSchema),
    handler: ({ ctx, req }) => audienceRoles(ctx, currentUser(req)),
  });
}

/** The caller's inbox: received notices, the unread list, read marks. */
function noticeInboxRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysNotice/pageReceived',
    access: 'loggedIn',
    summary: 'Inbox: the caller’s received notices, newest first',
    tags: TAGS,
    query: receivedPageInputSchema,
    response: pageResultSchema(receivedNoticeSchema),
    handler: ({ ctx, req, query }) => receivedPage(ctx, currentUser(req), query),
  });
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysNotice/unReadSummary',
    access: 'loggedIn',
    summary: 'Inbox: unread count and the newest unread notices',
    tags: TAGS,
    response: unreadListSchema,
    handler: ({ ctx, req }) => unreadSummary(ctx, currentUser(req)),
  });
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysNotice/unReadList',
    access: 'loggedIn',
    summary: 'Inbox: the newest unread notices with their bodies (an array, as the family reads it)',
    tags: TAGS,
    response: z.array(receivedNoticeDetailSchema),
    handler: ({ ctx, req }) => unreadItems(ctx, currentUser(req)),
  });
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysNotice/setRead',
    access: 'loggedIn',
    summary: 'Inbox: mark one received notice read',
    tags: TAGS,
    body: noticeIdInputSchema,
    response: z.null(),
    handler: async ({ ctx, req, body }) => {
      await setRead(ctx, currentUser(req), body.id);
      return null;
    },
  });
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysNotice/setAllRead',
    access: 'loggedIn',
    summary: 'Inbox: mark every received notice read',
    tags: TAGS,
    response: z.null(),
    handler: async ({ ctx, req }) => {
      await setAllRead(ctx, currentUser(req));
      return null;
    },
  });
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysNotice/received',
    access: 'loggedIn',
    summary: 'Inbox: one received notice with its body (marks it read)',
    tags: TAGS,
    query: noticeIdQuerySchema,
    response: receivedNoticeDetailSchema,
    handler: ({ ctx, req, query }) => receivedDetail(ctx, currentUser(req), query.id),
  });
}
