import { loginResultSchema } from '@shuzhi/contracts/auth';
import {
  autoLoginInputSchema,
  loginPhoneInputSchema,
  scanLoginCreateResultSchema,
  scanLoginIdSchema,
  scanLoginStatusSchema,
  sendSmsCodeInputSchema,
} from '@shuzhi/contracts/login-modes';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../../platform/access/access.ts';
import { auditAs } from '../../platform/audit/audit.ts';
import type { AppContext } from '../../platform/context.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { sendTokenHeaders, signerFor } from '../auth/auth.service.ts';
import { autoLogin } from './auto-login.service.ts';
import * as scan from './scan-login.service.ts';
import { loginPhone, sendSmsCode } from './sms-login.service.ts';

const tags = ['sysAuth'];
const clientOf = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] ?? null });

/** Mobile, scan and automatic sign-in (SPEC §2 /login, §4, §7). */
export function loginModesRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysAuth/sendSmsCode',
    access: 'public',
    limit: 'login',
    summary: 'Send a sign-in code by SMS (one a minute per phone, a daily cap; unbound numbers get no SMS)',
    tags,
    body: sendSmsCodeInputSchema,
    response: z.null(),
    handler: ({ ctx, body }) => sendSmsCode(ctx, body.phone),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysAuth/loginPhone',
    access: 'public',
    limit: 'login',
    summary: 'Sign in with a mobile number and its SMS code',
    tags,
    body: loginPhoneInputSchema,
    response: loginResultSchema,
    handler: async ({ ctx, body, req, reply }) => {
      const who = signerFor(body.phone);
      auditAs(req, who);
      const result = await loginPhone(ctx, body, clientOf(req), who);
      sendTokenHeaders(reply, result);
      return result;
    },
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysAuth/scanLogin/create',
    access: 'public',
    limit: 'captcha',
    summary: 'A scan-login ticket for the desktop QR code (120 s)',
    tags,
    response: scanLoginCreateResultSchema,
    handler: ({ ctx, req }) => scan.createScanLogin(ctx, clientOf(req)),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysAuth/scanLogin/status',
    access: 'public',
    summary: 'Scan-login ticket state; the desktop tokens once after confirmation',
    tags,
    query: scanLoginIdSchema,
    response: scanLoginStatusSchema,
    handler: ({ ctx, query }) => scan.scanLoginStatus(ctx, query.id),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysAuth/scanLogin/scan',
    access: 'loggedIn',
    summary: 'The signed-in phone scanned the ticket',
    tags,
    body: scanLoginIdSchema,
    response: scanLoginStatusSchema,
    handler: ({ ctx, req, body }) => scan.scanScanLogin(ctx, currentUser(req), body.id),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysAuth/scanLogin/confirm',
    access: 'loggedIn',
    summary: 'The phone confirms: the desktop gets a session for the same user',
    tags,
    body: scanLoginIdSchema,
    response: z.null(),
    handler: ({ ctx, req, body }) => scan.confirmScanLogin(ctx, currentUser(req), body.id),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysAuth/scanLogin/cancel',
    access: 'loggedIn',
    summary: 'The phone declines the ticket',
    tags,
    body: scanLoginIdSchema,
    response: z.null(),
    handler: ({ ctx, req, body }) => scan.cancelScanLogin(ctx, currentUser(req), body.id),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/autoLogin/autoLogin',
    access: 'public',
    limit: 'login',
    summary: 'Automatic login by URL parameter through the configured identity provider',
    tags: ['autoLogin'],
    body: autoLoginInputSchema,
    response: loginResultSchema,
    handler: async ({ ctx, body, req, reply }) => {
      const who = signerFor(`autoLogin:${body.type}`);
      auditAs(req, who);
      const result = await autoLogin(ctx, body, clientOf(req), who);
      sendTokenHeaders(reply, result);
      return result;
    },
  });
}
