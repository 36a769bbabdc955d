import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import { STATUS } from '@shuzhi/contracts/envelope';
import type { Locale } from '@shuzhi/contracts/i18n';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { checkCaptcha, createCaptcha } from '../../platform/auth/captcha.ts';
import { signInState } from '../../platform/auth/sign-in-throttle.ts';
import { configBool } from '../../platform/config/sys-config.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, HttpError, ValidationError } from '../../platform/errors/app-error.ts';
import { businessMessage, platformMessage } from '../../platform/errors/messages.ts';
import { failure } from '../../platform/http/envelope.ts';
import { localeOf } from '../../platform/http/locale.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { zodToOpenApi } from '../../platform/http/schema-compilers.ts';
import { checkSignInPassword, decryptPassword } from '../auth/auth.service.ts';

/**
 * The API documentation (/swagger) is closed until an administrator signs in to it, as Admin.NET does:
 * `POST /swagger/submitUrl` (form fields UserName, Password; a 999 or 888 account) sets a signed, HttpOnly,
 * SameSite=Strict cookie for a day, `POST /swagger/checkUrl` tells whether the caller's cookie is good.
 * The password travels SM2-encrypted like the login's (the form's script, /swagger/gate.js, encrypts it with
 * the public key), and the login's captcha and throttling apply (CodeId, Code; docs/security.md): wrong
 * passwords here and at the login count together. `SWAGGER=off` removes the docs: every /swagger path then
 * answers 404 with D1026.
 */

const COOKIE = 'shuzhi_swagger';
const COOKIE_PATH = '/swagger';
const COOKIE_SECONDS = 24 * 60 * 60;
const FORM_TYPES = ['multipart/form-data', 'application/x-www-form-urlencoded'];
const ADMIN_TYPES: readonly number[] = [ACCOUNT_TYPE.superAdmin, ACCOUNT_TYPE.sysAdmin];

const submitSchema = z.object({
  UserName: z.string().trim().min(1).max(64),
  /** SM2 cipher (hex) of the password, as the login takes it. */
  Password: z.string().min(1).max(1024),
  CodeId: z.string().max(64).optional(),
  Code: z.string().max(16).optional(),
});
type SubmitFields = z.infer<typeof submitSchema>;

/** The form's script: sm-crypto's browser build of SM2 and the few lines that encrypt before posting. */
function gateScript(): string {
  const sm2 = readFileSync(createRequire(import.meta.url).resolve('sm-crypto/dist/sm2.js'), 'utf8');
  return `${sm2}
document.addEventListener('DOMContentLoaded', function () {
  var form = document.getElementById('gate');
  if (!form) return;
  form.addEventListener('submit', function () {
    var plain = document.getElementById('Password');
    document.getElementById('PasswordCipher').value = sm2.doEncrypt(plain.value, form.dataset.publicKey, 1);
    plain.value = '';
  });
});
`;
}

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

/**
 * Checks an account and password as the login does: captcha when switched on, SM2, and the login's
 * throttling per account and source; answers the user id.
 */
async function checkAdmin(ctx: AppContext, fields: SubmitFields, ip: string): Promise<number> {
  const captchaOn = await configBool(ctx, 'sys_captcha');
  if (captchaOn && (!fields.CodeId || !fields.Code || !(await checkCaptcha(ctx, fields.CodeId, fields.Code))))
    throw new AppError('D0008');
  const password = decryptPassword(ctx, fields.Password);
  const user = await ctx.db
    .selectFrom('sys_user as u')
    .leftJoin('sys_tenant as t', 't.id', 'u.tenant_id')
    .select([
      'u.id',
      'u.password',
      'u.status',
      'u.account_type',
      't.status as tenant_status',
      't.is_delete as tenant_deleted',
    ])
    .where('u.account', '=', fields.UserName)
    .where('u.is_delete', '=', 0)
    .executeTakeFirst();
  if (!user) throw new AppError('D0009');
  if (user.tenant_status !== STATUS.enabled || user.tenant_deleted !== 0) throw new AppError('Z1003');
  if (user.status !== STATUS.enabled) throw new AppError('D1017');
  await checkSignInPassword(
    ctx,
    user,
    password,
    { ip },
    { codeId: fields.CodeId, code: fields.Code, checked: captchaOn },
  );
  if (!ADMIN_TYPES.includes(user.account_type)) throw new HttpError(403);
  return user.id;
}

/** Whether the next try of this account from this source needs a captcha (switched on, or the throttling's). */
async function captchaDue(ctx: AppContext, account: string, ip: string): Promise<boolean> {
  if (await configBool(ctx, 'sys_captcha')) return true;
  const user = await ctx.db
    .selectFrom('sys_user')
    .select('id')
    .where('account', '=', account)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  return user !== undefined && (await signInState(ctx, user.id, ip)).captchaRequired;
}

const FORM_TEXT: Record<
  Locale,
  Record<'title' | 'hint' | 'account' | 'password' | 'captcha' | 'submit', string>
> = {
  'zh-CN': {
    title: '接口文档登录',
    hint: '请使用系统管理员账号登录后查看接口文档。',
    account: '账号',
    password: '密码',
    captcha: '验证码',
    submit: '登录',
  },
  en: {
    title: 'API documentation sign-in',
    hint: 'Sign in with a system administrator account to see the API documentation.',
    account: 'Account',
    password: 'Password',
    captcha: 'Verification code',
    submit: 'Sign in',
  },
  'zh-TW': {
    title: '介面文件登入',
    hint: '請使用系統管理員帳號登入後查看介面文件。',
    account: '帳號',
    password: '密碼',
    captcha: '驗證碼',
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

export type GateForm = {
  publicKey: string;
  /** A captcha to solve, when the captcha is on or the throttling asks for one. */
  captcha: { id: number; img: string } | null;
  error?: string | null;
  account?: string;
};

/**
 * The sign-in page: HTML posting to submitUrl, its one script a file (the CSP allows none inline) that
 * SM2-encrypts the password into the posted field, as the login page does.
 */
export function loginFormHtml(locale: Locale, page: GateForm): string {
  const { publicKey, captcha, error = null, account = '' } = page;
  const t = FORM_TEXT[locale];
  const other = locale === 'en' ? FORM_TEXT['zh-CN'] : FORM_TEXT.en;
  return `<!doctype html>
<html lang="${locale}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${t.title}</title>
<style>${FORM_CSS}</style><script src="/swagger/gate.js" defer></script></head>
<body><main>
<h1>${t.title}</h1><p>${t.hint}</p>
${error ? `<div class="error" role="alert">${escapeHtml(error)}</div>` : ''}
<form id="gate" method="post" action="/swagger/submitUrl" enctype="multipart/form-data" data-public-key="${escapeHtml(publicKey)}">
<label for="UserName">${t.account}</label><input id="UserName" name="UserName" autocomplete="username" required maxlength="64" value="${escapeHtml(account)}">
<label for="Password">${t.password}</label><input id="Password" type="password" autocomplete="current-password" required maxlength="128">
<input type="hidden" id="PasswordCipher" name="Password">
${
  captcha
    ? `<label for="Code">${t.captcha}</label><input id="Code" name="Code" autocomplete="off" required maxlength="16"><input type="hidden" name="CodeId" value="${captcha.id}"><img src="data:image/png;base64,${escapeHtml(captcha.img)}" alt="${t.captcha}" width="120" height="40">`
    : ''
}
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
          .send(
            loginFormHtml(localeOf(request), {
              publicKey: ctx.config.sm2.publicKey,
              captcha: (await configBool(ctx, 'sys_captcha')) ? await createCaptcha(ctx) : null,
            }),
          );
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
      summary:
        'Sign in to the API documentation (form fields UserName, SM2-encrypted Password, CodeId and Code when a captcha is due; an administrator)',
      tags: ['swagger'],
      response: z.boolean(),
      handler: async ({ ctx, req, reply, locale }) => {
        const form = isFormNavigation(req);
        const parsed = submitSchema.safeParse(req.body ?? {});
        try {
          if (!parsed.success) throw new ValidationError(parsed.error.issues, 'body');
          const userId = await checkAdmin(ctx, parsed.data, req.ip);
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
          const account = parsed.success ? parsed.data.UserName : '';
          return reply
            .header('cache-control', 'no-store')
            .type('text/html; charset=utf-8')
            .send(
              loginFormHtml(locale, {
                publicKey: ctx.config.sm2.publicKey,
                captcha: (await captchaDue(ctx, account, req.ip)) ? await createCaptcha(ctx) : null,
                error: message,
                account,
              }),
            );
        }
      },
    });

    const script = gateScript();
    gate.get('/swagger/gate.js', { config: { access: 'public' } }, (_request, reply) =>
      reply
        .type('text/javascript; charset=utf-8')
        .header('cache-control', 'public, max-age=3600')
        .send(script),
    );

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
