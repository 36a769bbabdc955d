import { pageResultSchema } from '@shuzhi/contracts/envelope';
import type { Localized } from '@shuzhi/contracts/i18n';
import {
  forceOfflineInputSchema,
  onlineUserPageInputSchema,
  onlineUserSchema,
} from '@shuzhi/contracts/online-user';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../../platform/access/access.ts';
import type { AppContext } from '../../platform/context.ts';
import { sendXlsx } from '../../platform/crud/export.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { forceOffline, onlineUserBatches, onlineUserPage } from './online-user.service.ts';

const l = (zhCN: string, en: string, zhTW: string): Localized => ({ 'zh-CN': zhCN, en, 'zh-TW': zhTW });
const TITLE = l('在线用户', 'Online users', '線上使用者');
const YES = l('是', 'Yes', '是');
const NO = l('否', 'No', '否');

const TAGS = ['sysOnlineUser'];

/** Online users (SPEC §7 admin areas): the tenant's live sessions, Excel export, force offline. */
export function onlineUserRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysOnlineUser/page',
    access: 'sysOnlineUser:page',
    summary: 'Live sessions of the tenant within the data scope, with whether a browser is connected now',
    tags: TAGS,
    body: onlineUserPageInputSchema,
    response: pageResultSchema(onlineUserSchema),
    handler: ({ ctx, req, body }) => onlineUserPage(ctx, currentUser(req), body),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysOnlineUser/export',
    access: 'sysOnlineUser:export',
    raw: true,
    summary: 'Excel (.xlsx) of the live sessions matching the filters, in the request language',
    tags: TAGS,
    body: onlineUserPageInputSchema,
    response: z.unknown(),
    handler: ({ ctx, req, reply, body, locale }) => {
      const user = currentUser(req);
      async function* batches() {
        for await (const batch of onlineUserBatches(ctx, user, body))
          yield batch.map((row) => ({ ...row, online: (row.online ? YES : NO)[locale] }));
      }
      return sendXlsx(ctx, reply, {
        title: TITLE,
        locale,
        batches: batches(),
        columns: [
          { field: 'account', label: l('账号', 'Account', '帳號') },
          { field: 'realName', label: l('姓名', 'Name', '姓名') },
          { field: 'orgName', label: l('机构', 'Organisation', '機構'), width: 24 },
          { field: 'ip', label: l('IP 地址', 'IP address', 'IP 位址'), width: 16 },
          { field: 'browser', label: l('浏览器', 'Browser', '瀏覽器'), width: 16 },
          { field: 'os', label: l('操作系统', 'OS', '作業系統'), width: 16 },
          { field: 'loginTime', label: l('登录时间', 'Signed in', '登入時間'), width: 20 },
          { field: 'lastActiveTime', label: l('最后活动', 'Last active', '最後活動'), width: 20 },
          { field: 'online', label: l('已连接', 'Connected', '已連線') },
        ],
      });
    },
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysOnlineUser/forceOffline',
    access: 'sysOnlineUser:forceOffline',
    summary: 'Ends a session (its tokens stop working) and sends its browsers to the login page',
    tags: TAGS,
    body: forceOfflineInputSchema,
    response: z.null(),
    handler: ({ ctx, req, body }) => forceOffline(ctx, currentUser(req), body.id),
  });
}
