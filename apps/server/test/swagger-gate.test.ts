import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/platform/config/config.ts';
import {
  body,
  createTestApp,
  DEFAULT_PASSWORD,
  encrypt,
  loginRequest,
  setConfig,
  solvedCaptcha,
  type TestApp,
} from './helpers.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** A multipart/form-data body as a browser sends the gate's form. */
function form(fields: Record<string, string>) {
  const boundary = `----shuzhi${randomBytes(8).toString('hex')}`;
  const payload = `${Object.entries(fields)
    .map(
      ([name, value]) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    )
    .join('')}--${boundary}--\r\n`;
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Posts the form as its script does: the password SM2-encrypted (`plain: true` sends it as typed). */
function submit(
  app: FastifyInstance,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
  plain = false,
) {
  const sent = fields.Password && !plain ? { ...fields, Password: encrypt(app, fields.Password) } : fields;
  const { payload, headers: formHeaders } = form(sent);
  return app.inject({
    method: 'POST',
    url: '/swagger/submitUrl',
    payload,
    headers: { ...formHeaders, ...headers },
  });
}

const cookieOf = (setCookie: string | string[] | undefined) =>
  String(Array.isArray(setCookie) ? setCookie[0] : setCookie).split(';')[0] ?? '';

describe('swagger gate', () => {
  it('is closed at first: a sign-in form instead of the docs, 401 for the JSON', async () => {
    for (const url of ['/swagger', '/swagger/']) {
      const page = await t.app.inject({ url, headers: { accept: 'text/html', 'accept-language': 'zh-CN' } });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.body).toContain('action="/swagger/submitUrl"');
      expect(page.body).toContain('接口文档登录');
      expect(page.body).toContain('API documentation sign-in');
      // Its inline style is allowed by hash (the docs' CSP has hashes, so 'unsafe-inline' would not apply).
      const css = /<style>([\s\S]*)<\/style>/.exec(page.body)?.[1] ?? '';
      const hash = createHash('sha256').update(css).digest('base64');
      expect(String(page.headers['content-security-policy'])).toContain(`'sha256-${hash}'`);
    }
    const en = await t.app.inject({ url: '/swagger/', headers: { 'accept-language': 'en' } });
    expect(en.body).toContain('<html lang="en">');
    const json = await t.app.inject({ url: '/swagger/json' });
    expect(json.statusCode).toBe(401);
    const check = body(await t.app.inject({ method: 'POST', url: '/swagger/checkUrl' }));
    expect(check).toMatchObject({ code: 200, result: false });
  });

  it('refuses wrong passwords (throttled with the login) and non-administrators', async () => {
    const wrong = body(await submit(t.app, { UserName: 'admin', Password: 'not-it' }));
    expect(wrong.code).toBe('D1000');
    // A password as typed is no SM2 cipher: refused like the login refuses it.
    expect(body(await submit(t.app, { UserName: 'admin', Password: DEFAULT_PASSWORD }, {}, true)).code).toBe(
      'D0010',
    );

    const staff = await submit(t.app, { UserName: 'fgwstaff', Password: DEFAULT_PASSWORD });
    expect(body(staff).code).toBe(403);
    expect(staff.headers['set-cookie']).toBeUndefined();
    const unknown = body(await submit(t.app, { UserName: 'nobody', Password: 'x' }));
    expect(unknown.code).toBe('D0009');
    const empty = body(await submit(t.app, {}));
    expect(empty.code).toBe(400);

    // The login's throttling applies, counted together: two wrong passwords at the gate, and the login
    // from the same source asks for a captcha; the fifth locks this source out, here and at the login.
    expect(body(await submit(t.app, { UserName: 'tjjdirector', Password: 'nope' })).code).toBe('D1000');
    expect(body(await submit(t.app, { UserName: 'tjjdirector', Password: 'nope' })).code).toBe('D1000');
    expect(body(await loginRequest(t.app, 'tjjdirector')).code).toBe('D0008');
    expect(body(await submit(t.app, { UserName: 'tjjdirector', Password: 'nope' })).code).toBe('D0008');
    const codes: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      const { codeId, code } = await solvedCaptcha(t.app);
      codes.push(
        body(await submit(t.app, { UserName: 'tjjdirector', Password: 'nope', CodeId: codeId, Code: code }))
          .code,
      );
    }
    expect(codes).toEqual(['D1000', 'D1000', 'D1027']);
    expect(
      body(await loginRequest(t.app, 'tjjdirector', DEFAULT_PASSWORD, await solvedCaptcha(t.app))).code,
    ).toBe('D1027');
    // Another source is not locked out.
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: '/api/sysAuth/login',
      remoteAddress: '198.51.100.20',
      payload: {
        account: 'tjjdirector',
        password: encrypt(t.app, DEFAULT_PASSWORD),
        ...(await solvedCaptcha(t.app)),
      },
    });
    expect(body(elsewhere).code).toBe(200);
  });

  it('asks for the captcha when it is switched on, and the form encrypts the password with a script file', async () => {
    const page = await t.app.inject({ url: '/swagger/', headers: { accept: 'text/html' } });
    expect(page.body).toContain(`data-public-key="${t.app.ctx.config.sm2.publicKey}"`);
    expect(page.body).toContain('<script src="/swagger/gate.js" defer></script>');
    expect(page.body).not.toContain('name="Code"');
    const script = await t.app.inject({ url: '/swagger/gate.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toContain('text/javascript');
    expect(script.body).toContain('sm2.doEncrypt');

    await setConfig(t.app, 'sys_captcha', 'true');
    try {
      const withCaptcha = await t.app.inject({ url: '/swagger/', headers: { accept: 'text/html' } });
      expect(withCaptcha.body).toContain('name="Code"');
      expect(withCaptcha.body).toContain('name="CodeId"');
      expect(body(await submit(t.app, { UserName: 'superadmin', Password: DEFAULT_PASSWORD })).code).toBe(
        'D0008',
      );
      const { codeId, code } = await solvedCaptcha(t.app);
      const res = await submit(t.app, {
        UserName: 'superadmin',
        Password: DEFAULT_PASSWORD,
        CodeId: codeId,
        Code: code,
      });
      expect(body(res)).toMatchObject({ code: 200, result: true });
    } finally {
      await setConfig(t.app, 'sys_captcha', 'false');
    }
  });

  it('opens the docs for a day after an administrator signs in', async () => {
    const res = await submit(t.app, { UserName: 'admin', Password: DEFAULT_PASSWORD });
    expect(body(res)).toMatchObject({ code: 200, result: true });
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).toContain('Path=/swagger');
    expect(setCookie).toContain('Max-Age=86400');
    const cookie = cookieOf(res.headers['set-cookie']);

    const doc = await t.app.inject({ url: '/swagger/json', headers: { cookie } });
    expect(doc.statusCode).toBe(200);
    const paths = Object.keys((doc.json() as { paths: Record<string, unknown> }).paths);
    expect(paths).toEqual(
      expect.arrayContaining(['/api/sysAuth/login', '/api/sysOpenAccess/page', '/api/auth/token']),
    );
    const ui = await t.app.inject({ url: '/swagger/', headers: { cookie } });
    expect(ui.statusCode).toBe(200);
    expect(ui.body).toContain('swagger-ui');
    expect(
      body(await t.app.inject({ method: 'POST', url: '/swagger/checkUrl', headers: { cookie } })),
    ).toMatchObject({
      code: 200,
      result: true,
    });

    // A tampered cookie is worthless; so is the cookie of an account that has been disabled since.
    const forged = cookie.replace(/\.(\d+)\./, (_m, exp: string) => `.${Number(exp) + 1000}.`);
    expect((await t.app.inject({ url: '/swagger/json', headers: { cookie: forged } })).statusCode).toBe(401);
    await t.app.ctx.db.updateTable('sys_user').set({ status: 2 }).where('account', '=', 'admin').execute();
    expect((await t.app.inject({ url: '/swagger/json', headers: { cookie } })).statusCode).toBe(401);
    await t.app.ctx.db.updateTable('sys_user').set({ status: 1 }).where('account', '=', 'admin').execute();
  });

  it('serves a browser form post with pages: the form again with the error, or a redirect to the docs', async () => {
    const html = { accept: 'text/html,application/xhtml+xml', 'accept-language': 'en' };
    const wrong = await submit(t.app, { UserName: 'superadmin', Password: 'bad' }, html);
    expect(wrong.statusCode).toBe(200);
    expect(wrong.headers['content-type']).toContain('text/html');
    expect(wrong.body).toContain('role="alert"');
    expect(wrong.body).toContain('value="superadmin"');
    expect(wrong.body).not.toContain('name="CodeId"');
    // Once the throttling asks for a captcha, the form carries one.
    const again = await submit(t.app, { UserName: 'superadmin', Password: 'bad' }, html);
    expect(again.body).toContain('name="CodeId"');
    expect(again.body).toContain('<img src="data:image/png;base64,');
    const { codeId, code } = await solvedCaptcha(t.app);
    const right = await submit(
      t.app,
      { UserName: 'superadmin', Password: DEFAULT_PASSWORD, CodeId: codeId, Code: code },
      html,
    );
    expect(right.statusCode).toBe(303);
    expect(right.headers.location).toBe('/swagger/');
    const cookie = cookieOf(right.headers['set-cookie']);
    expect((await t.app.inject({ url: '/swagger/json', headers: { cookie } })).statusCode).toBe(200);
  });
});

describe('SWAGGER=off', () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await createTestApp({ env: { SWAGGER: 'off' } });
  });
  afterAll(async () => {
    await off?.close();
  });

  it('answers every docs path with 404 and D1026', async () => {
    for (const [method, url] of [
      ['GET', '/swagger'],
      ['GET', '/swagger/'],
      ['GET', '/swagger/json'],
      ['POST', '/swagger/submitUrl'],
      ['POST', '/swagger/checkUrl'],
    ] as const) {
      const res = await off.app.inject({ method, url, headers: { 'accept-language': 'en' } });
      expect(res.statusCode, url).toBe(404);
      expect(body(res)).toMatchObject({ code: 'D1026', message: 'The API documentation is switched off' });
    }
  });

  it('refuses other values of SWAGGER at start', async () => {
    expect(() => loadConfig({ DATA_DIR: off.testEnv.dataDir, SWAGGER: 'maybe' })).toThrow(/SWAGGER/);
  });
});
