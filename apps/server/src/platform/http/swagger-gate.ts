import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import { STATUS } from '@shuzhi/contracts/envelope';
import type { Locale } from '@shuzhi/contracts/i18n';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { recordFailure } from '../../modules/auth/auth.service.ts';
import { verifyPassword } from '../auth/password-hash.ts';
import type { AppContext } from '../context.ts';
import { formatDateTime } from '../db/time.ts';
import { AppError, HttpError, ValidationError } from '../errors/app-error.ts';
import { businessMessage, platformMessage } from '../errors/messages.ts';
import { failure } from './envelope.ts';
import { localeOf } from './locale.ts';
import { defineRoute } from './route.ts';
import { zodToOpenApi } from './schema-compilers.ts';

/**
 * The API documentation (/swagger) is closed until an administrator signs in to it, as Admin.NET does:
 * `POST /swagger/submitUrl` (form fields UserName, Password; a 999 or 888 account) sets a signed, HttpOnly,
 * SameSite=Strict cookie for a day, `POST /swagger/checkUrl` tells whether the caller's cookie is good.
 * Wrong passwords count toward the account lockout like the login. `SWAGGER=off` removes the docs: every
 * /swagger path then answers 404 with D1026.
 */

const COOKIE = 'shuzhi_swagger';
const COOKIE_PATH = '/swagger';
const COOKIE_SECONDS = 24 * 60 * 60;
const FORM_TYPES = ['multipart/form-data', 'application/x-www-form-urlencoded'];
const ADMIN_TYPES: readonly number[] = [ACCOUNT_TYPE.superAdmin, ACCOUNT_TYPE.sysAdmin];

const submitSchema = z.object({
  UserName: z.string().trim().min(1).max(64),
  Password: z.string().min(1).max(128),
});

/** The cookie's MAC key, derived from the JWT secret so that no further secret needs keeping. */
const cookieKey = (ctx: AppContext) =>
  createHmac('sha256', ctx.config.jwtSecret).update('swagger-gate').digest();
const mac = (ctx: AppContext, text: string) =>
  createHmac('sha256', cookieKey(ctx)).update(text).digest('base64url');

function issueCookie(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, userId: number): void {
  const text = `${userId}.${Math.floor(Date.now() / 1000) + COOKIE_SECONDS}`;
  const secure = request.protocol === 'https' ? '; Secure' : '';
  reply.header(
    'set-cookie',
    `${COOKIE}=${text}.${mac(ctx, text)}; Path=${COOKIE_PATH}; Max-Age=${COOKIE_SECONDS}; HttpOnly; SameSite=Strict${secure}`,
  );
}

function cookieOf(request: FastifyRequest): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === COOKIE) return rest.join('=');
  }
  return undefined;
}

/** Whether the request carries a valid, unexpired cookie of an administrator who is still enabled. */
export async function isAdmitted(ctx: AppContext, request: FastifyRequest): Promise<boolean> {
  const value = cookieOf(request);
  const match = value ? /^(\d{1,20})\.(\d{1,12})\.([\w-]{43})$/.exec(value) : null;
  if (!match) return false;
  const [, userId, expires, signature] = match as unknown as [string, string, string, string];
  const expected = Buffer.from(mac(ctx, `${userId}.${expires}`));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
  if (Number(expires) < Date.now() / 1000) return false;
  // Disabling the account or taking its admin type away closes the docs at once.
  const user = await ctx.db
    .selectFrom('sys_user as u')
    .innerJoin('sys_tenant as t', 't.id', 'u.tenant_id')
    .select(['u.account_type'])
    .where('u.id', '=', Number(userId))
    .where('u.is_delete', '=', 0)
    .where('u.status', '=', STATUS.enabled)
    .where('t.status', '=', STATUS.enabled)
    .executeTakeFirst();
  return user !== undefined && ADMIN_TYPES.includes(user.account_type);
}

/** Checks an account and password like the login does (lockout included); answers the user id. */
async function checkAdmin(ctx: AppContext, account: string, password: string): Promise<number> {
  const user = await ctx.db
    .selectFrom('sys_user as u')
    .leftJoin('sys_tenant as t', 't.id', 'u.tenant_id')
    .select([
      'u.id',
      'u.password',
      'u.status',
      'u.account_type',
      'u.lock_until',
      't.status as tenant_status',
      't.is_delete as tenant_deleted',
    ])
    .where('u.account', '=', account)
    .where('u.is_delete', '=', 0)
    .executeTakeFirst();
  if (!user) throw new AppError('D0009');
  if (user.tenant_status !== STATUS.enabled || user.tenant_deleted !== 0) throw new AppError('Z1003');
  if (user.status !== STATUS.enabled) throw new AppError('D1017');
  const now = formatDateTime();
  if (user.lock_until && user.lock_until > now) throw new AppError('D1027');
  if (user.lock_until) {
    // The lock ran out: counting starts from zero again, as in the login.
    await ctx.db
      .updateTable('sys_user')
      .set({ lock_until: null, login_fail_count: 0 })
      .where('id', '=', user.id)
      .execute();
  }
  if (!(await verifyPassword(user.password, password))) return recordFailure(ctx, user.id);
  await ctx.db.updateTable('sys_user').set({ login_fail_count: 0 }).where('id', '=', user.id).execute();
  if (!ADMIN_TYPES.includes(user.account_type)) throw new HttpError(403);
  return user.id;
}

const FORM_TEXT: Record<Locale, Record<'title' | 'hint' | 'account' | 'password' | 'submit', string>> = {
  'zh-CN': {
    title: '接口文档登录',
    hint: '请使用系统管理员账号登录后查看接口文档。',
    account: '账号',
    password: '密码',
    submit: '登录',
  },
  en: {
    title: 'API documentation sign-in',
    hint: 'Sign in with a system administrator account to see the API documentation.',
    account: 'Account',
    password: 'Password',
    submit: 'Sign in',
  },
  'zh-TW': {
    title: '介面文件登入',
    hint: '請使用系統管理員帳號登入後查看介面文件。',
    account: '帳號',
    password: '密碼',
    submit: '登入',
  },
};

const FORM_CSS = `
body{font-family:system-ui,-apple-system,"PingFang SC","Microsoft YaHei",sans-serif;background:#f0f2f5;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center}
main{background:#fff;padding:32px 40px;border-radius:8px;box-shadow:0 2px 12px rgba(0,0,0,.08);width:340px}
h1{font-size:20px;margin:0 0 8px}p{color:#666;font-size:13px;margin:0 0 20px}
label{display:block;font-size:14px;margin:12px 0 4px}input{width:100%;box-sizing:border-box;padding:8px 10px;border:1px solid #d9d9d9;border-radius:6px;font-size:14px}
button{margin-top:20px;width:100%;padding:9px;border:0;border-radius:6px;background:#1677ff;color:#fff;font-size:15px;cursor:pointer}
.error{color:#ff4d4f;background:#fff2f0;border:1px solid #ffccc7;padding:6px 10px;border-radius:6px;font-size:13px}
.alt{color:#999;font-size:12px;margin-top:16px}
`;
/** The Swagger UI's CSP lists hashes of its inline styles (so 'unsafe-inline' does not apply): add the form's. */
const FORM_CSS_HASH = `'sha256-${createHash('sha256').update(FORM_CSS).digest('base64')}'`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The sign-in page: plain HTML, no script (the CSP allows none inline), posts to submitUrl. */
export function loginFormHtml(locale: Locale, error: string | null = null, account = ''): string {
  const t = FORM_TEXT[locale];
  const other = locale === 'en' ? FORM_TEXT['zh-CN'] : FORM_TEXT.en;
  return `<!doctype html>
<html lang="${locale}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${t.title}</title>
<style>${FORM_CSS}</style></head>
<body><main>
<h1>${t.title}</h1><p>${t.hint}</p>
${error ? `<div class="error" role="alert">${escapeHtml(error)}</div>` : ''}
<form method="post" action="/swagger/submitUrl" enctype="multipart/form-data">
<label for="UserName">${t.account}</label><input id="UserName" name="UserName" autocomplete="username" required maxlength="64" value="${escapeHtml(account)}">
<label for="Password">${t.password}</label><input id="Password" name="Password" type="password" autocomplete="current-password" required maxlength="128">
<button type="submit">${t.submit}</button>
</form>
<div class="alt">${other.title} · ${other.hint}</div>
</main></body></html>`;
}

/** A browser's own form post (no script): it gets pages and redirects instead of the envelope. */
function isFormNavigation(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html');
}

/** Reads a small form body (multipart or urlencoded) with the platform's own parser; text fields only. */
async function parseForm(request: FastifyRequest, body: Buffer): Promise<Record<string, string>> {
  const contentType = String(request.headers['content-type'] ?? '');
  try {
    const form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
    const fields: Record<string, string> = Object.create(null);
    for (const [name, value] of form.entries()) if (typeof value === 'string') fields[name] = value;
    return fields;
  } catch {
    return {};
  }
}

function isIndex(request: FastifyRequest): boolean {
  const path = request.url.split('?')[0];
  return request.method === 'GET' && (path === '/swagger' || path === '/swagger/');
}

/** Registers the OpenAPI document and the Swagger UI behind the gate, or the D1026 answers when off. */
export async function installSwagger(app: FastifyInstance, ctx: AppContext): Promise<void> {
  if (!ctx.config.swagger) {
    await app.register(async (off) => {
      off.addHook('onRoute', (route) => {
        route.config = { ...route.config, access: 'public' };
      });
      const handler = (request: FastifyRequest, reply: FastifyReply) =>
        reply.status(404).send(failure('D1026', businessMessage('D1026', localeOf(request))));
      for (const url of ['/swagger', '/swagger/*']) off.route({ method: ['GET', 'POST'], url, handler });
    });
    return;
  }

  await app.register(swagger, {
    openapi: {
      info: { title: 'Shuzhi API', version: '0.1.0', description: ctx.config.profile.systemName['zh-CN'] },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
      security: [{ bearer: [] }],
    },
    transform: zodToOpenApi,
  });

  await app.register(async (docs) => {
    // The documentation's routes come from the plugin: they are public to the access check, and gated here.
    docs.addHook('onRoute', (route) => {
      route.config = { ...route.config, access: 'public' };
    });
    docs.addHook('onRequest', async (request, reply) => {
      if (await isAdmitted(ctx, request)) return;
      if (isIndex(request)) {
        return reply
          .header('cache-control', 'no-store')
          .type('text/html; charset=utf-8')
          .send(loginFormHtml(localeOf(request)));
      }
      throw new HttpError(401);
    });
    await docs.register(swaggerUi, {
      routePrefix: '/swagger',
      staticCSP: true,
      // Plain-HTTP intranet deployments are common; upgrading requests to HTTPS would break the page there.
      transformStaticCSP: (header) =>
        header
          .replace(/\s*upgrade-insecure-requests;?/, '')
          .replace(/style-src /, `style-src ${FORM_CSS_HASH} `),
    });
  });

  await app.register(async (gate) => {
    // Its own form parser: only these two routes take forms, and they take text fields only.
    for (const type of FORM_TYPES) {
      if (gate.hasContentTypeParser(type)) gate.removeContentTypeParser(type);
      gate.addContentTypeParser(type, { parseAs: 'buffer', bodyLimit: 16 * 1024 }, (request, body, done) => {
        parseForm(request, body as Buffer).then(
          (fields) => done(null, fields),
          (error: Error) => done(error),
        );
      });
    }

    defineRoute(gate, ctx, {
      method: 'POST',
      url: '/swagger/submitUrl',
      access: 'public',
      limit: 'login',
      summary: 'Sign in to the API documentation (form fields UserName, Password; an administrator)',
      tags: ['swagger'],
      response: z.boolean(),
      handler: async ({ ctx, req, reply, locale }) => {
        const form = isFormNavigation(req);
        const parsed = submitSchema.safeParse(req.body ?? {});
        try {
          if (!parsed.success) throw new ValidationError(parsed.error.issues, 'body');
          const userId = await checkAdmin(ctx, parsed.data.UserName, parsed.data.Password);
          issueCookie(ctx, req, reply, userId);
          return form ? reply.redirect('/swagger/', 303) : true;
        } catch (error) {
          if (!form) throw error;
          const message =
            error instanceof AppError
              ? businessMessage(error.code, locale, error.params)
              : error instanceof HttpError
                ? platformMessage(error.status, locale)
                : error instanceof ValidationError
                  ? platformMessage(400, locale)
                  : null;
          if (message === null) throw error;
          return reply
            .header('cache-control', 'no-store')
            .type('text/html; charset=utf-8')
            .send(loginFormHtml(locale, message, parsed.success ? parsed.data.UserName : ''));
        }
      },
    });

    defineRoute(gate, ctx, {
      method: 'POST',
      url: '/swagger/checkUrl',
      access: 'public',
      summary: 'Whether the caller may see the API documentation (its gate cookie is valid)',
      tags: ['swagger'],
      response: z.boolean(),
      handler: ({ ctx, req }) => isAdmitted(ctx, req),
    });
  });
}
