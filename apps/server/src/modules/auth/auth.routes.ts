import {
  captchaResultSchema,
  loginConfigSchema,
  loginInputSchema,
  loginResultSchema,
  refreshTokenQuerySchema,
  userInfoSchema,
  watermarkConfigSchema,
} from '@shuzhi/contracts/auth';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../../platform/access/access.ts';
import { auditAs } from '../../platform/audit/audit.ts';
import type { AppContext } from '../../platform/context.ts';
import { defineRoute } from '../../platform/http/route.ts';
import * as auth from './auth.service.ts';
import { userInfoResult } from './user-info.service.ts';

const tags = ['sysAuth'];

export function authRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysAuth/captcha',
    access: 'public',
    limit: 'captcha',
    summary: 'Image captcha (one use, 60 s)',
    tags,
    response: captchaResultSchema,
    handler: ({ ctx }) => auth.createCaptcha(ctx),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysAuth/loginConfig',
    access: 'public',
    summary: 'Login page switches and the SM2 public key',
    tags,
    response: loginConfigSchema,
    handler: ({ ctx }) => auth.loginConfig(ctx),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysAuth/login',
    access: 'public',
    limit: 'login',
    summary: 'Sign in with account and SM2-encrypted password',
    tags,
    body: loginInputSchema,
    response: loginResultSchema,
    handler: async ({ ctx, body, req, reply }) => {
      // The operation log row of the sign-in goes to the account's tenant.
      const who = auth.signerFor(body.account);
      auditAs(req, who);
      const result = await auth.login(
        ctx,
        body,
        { ip: req.ip, userAgent: req.headers['user-agent'] ?? null },
        who,
      );
      auth.sendTokenHeaders(reply, result);
      return result;
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysAuth/refreshToken',
    access: 'loggedIn',
    summary: 'A new refresh token for the current session',
    tags,
    query: refreshTokenQuerySchema,
    response: z.string(),
    handler: async ({ ctx, req, reply, query }) => {
      const refreshToken = await auth.refreshTokenFor(ctx, currentUser(req), query.accessToken);
      reply.header('x-access-token', refreshToken);
      return refreshToken;
    },
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysAuth/logout',
    access: 'loggedIn',
    summary: 'End the current session',
    tags,
    response: z.null(),
    handler: ({ ctx, req, reply }) => auth.logout(ctx, currentUser(req), reply),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysAuth/userInfo',
    access: 'loggedIn',
    summary: 'The signed-in user',
    tags,
    response: userInfoSchema,
    handler: ({ ctx, req }) => userInfoResult(ctx, currentUser(req)),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysAuth/watermarkConfig',
    access: 'loggedIn',
    summary: 'Watermark settings and text for the signed-in user',
    tags,
    response: watermarkConfigSchema,
    handler: ({ ctx, req, locale }) => auth.watermarkConfig(ctx, currentUser(req), locale),
  });
}
