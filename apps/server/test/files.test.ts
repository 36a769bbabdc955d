import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AVATAR_MAX_BYTES, type UploadedFile } from '@shuzhi/contracts/user-center';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDate } from '../src/platform/db/time.ts';
import { storedPath } from '../src/platform/files/storage.ts';
import { authed, body, createTestApp, login, type TestApp } from './helpers.ts';
import { multipart, PNG_1X1 } from './upload.fixture.ts';

/** Issue 3 §4: file storage under DATA_DIR/upload, content sniffing, limits, serving with tenant checks. */
let t: TestApp;
let admin: string;
let staff: string;
let otherTenant: string;

function upload(token: string, url: string, fileName: string, data: Buffer, type = 'image/png') {
  const { payload, headers } = multipart(fileName, data, type);
  return authed(t.app, token, { method: 'POST', url, payload, headers });
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.app.ctx.db;
  const template = await db
    .selectFrom('sys_user')
    .selectAll()
    .where('account', '=', 'admin')
    .executeTakeFirstOrThrow();
  // A second tenant with one user: files of the seeded tenant must not exist for them.
  const tenant2 = t.app.ctx.newId();
  await db
    .insertInto('sys_tenant')
    .values({
      id: tenant2,
      create_time: '2026-01-01 00:00:00',
      is_delete: 0,
      code: 'files2',
      name: '文件租户',
      status: 1,
      order_no: 9,
    } as never)
    .execute();
  await db
    .insertInto('sys_user')
    .values({ ...template, id: t.app.ctx.newId(), tenant_id: tenant2, account: 'filesadmin2' })
    .execute();
  admin = (await login(t.app, 'admin')).accessToken;
  staff = (await login(t.app, 'fgwstaff')).accessToken;
  otherTenant = (await login(t.app, 'filesadmin2')).accessToken;
});

afterAll(async () => {
  await t?.close();
});

describe('avatar upload', () => {
  let file: UploadedFile;

  it('stores a real PNG under upload/yyyy/MM/dd with its sys_file row and sets the avatar', async () => {
    const response = await upload(admin, '/api/sysFile/uploadAvatar', '../../我的头像.png', PNG_1X1);
    const envelope = body<UploadedFile>(response);
    expect(envelope.code).toBe(200);
    file = envelope.result as UploadedFile;
    expect(file).toMatchObject({
      url: `/api/sysFile/preview/${file.id}`,
      fileName: '我的头像.png',
      suffix: '.png',
      size: PNG_1X1.length,
      contentType: 'image/png',
    });

    const row = await t.app.ctx.db
      .selectFrom('sys_file')
      .selectAll()
      .where('id', '=', file.id)
      .executeTakeFirstOrThrow();
    // The product zone's date (TIME_ZONE), not the machine's.
    const day = formatDate().replaceAll('-', '/');
    expect(row).toMatchObject({
      provider: 'local',
      file_type: 'avatar',
      file_path: `upload/${day}/${file.id}.png`,
      size: PNG_1X1.length,
      is_public: 0,
      is_delete: 0,
    });
    expect(row.file_md5).toMatch(/^[0-9a-f]{32}$/);
    const onDisk = join(t.testEnv.dataDir, 'upload', ...day.split('/'), `${file.id}.png`);
    expect(readFileSync(onDisk).equals(PNG_1X1)).toBe(true);

    const info = body<{ avatar: string }>(
      await authed(t.app, admin, { method: 'GET', url: '/api/sysAuth/userInfo' }),
    );
    expect(info.result?.avatar).toBe(file.url);
  });

  it('serves the same bytes to any signed-in user of the tenant', async () => {
    for (const token of [admin, staff]) {
      const response = await authed(t.app, token, { method: 'GET', url: file.url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/png');
      expect(response.rawPayload.equals(PNG_1X1)).toBe(true);
    }
  });

  it('does not exist for another tenant, nor for anonymous callers', async () => {
    const other = body(await authed(t.app, otherTenant, { method: 'GET', url: file.url }));
    expect(other.code).toBe('D1002');
    const anonymous = await t.app.inject({ method: 'GET', url: file.url });
    expect(anonymous.statusCode).toBe(401);
  });

  it('retires the previous avatar when a new one is uploaded', async () => {
    const first = await t.app.ctx.db
      .selectFrom('sys_file')
      .selectAll()
      .where('id', '=', file.id)
      .executeTakeFirstOrThrow();
    const second = body<UploadedFile>(
      await upload(admin, '/api/sysFile/uploadAvatar', 'b.png', PNG_1X1),
    ).result;
    expect(second?.id).not.toBe(file.id);
    const old = await t.app.ctx.db
      .selectFrom('sys_file')
      .select('is_delete')
      .where('id', '=', file.id)
      .executeTakeFirstOrThrow();
    expect(old.is_delete).toBe(1);
    expect(existsSync(join(t.testEnv.dataDir, ...first.file_path.split('/')))).toBe(false);
    expect(body(await authed(t.app, admin, { method: 'GET', url: file.url })).code).toBe('D1002');
  });
});

describe('refusals', () => {
  const countFiles = async () =>
    Number(
      (
        await t.app.ctx.db
          .selectFrom('sys_file')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('refuses a text file named .png (content sniffing, not the extension)', async () => {
    const before = await countFiles();
    const envelope = body(
      await upload(admin, '/api/sysFile/uploadAvatar', 'fake.png', Buffer.from('<script>alert(1)</script>')),
    );
    expect(envelope.code).toBe('D8001');
    expect(envelope.message).toContain('png');
    expect(await countFiles()).toBe(before);
  });

  it('refuses a PDF even when it is a real file of a known kind', async () => {
    const envelope = body(
      await upload(admin, '/api/sysFile/uploadSignature', 'sig.png', Buffer.from('%PDF-1.7\n%âãÏÓ\n')),
    );
    expect(envelope.code).toBe('D8001');
  });

  it('refuses a file over the size limit, without writing anything', async () => {
    const before = await countFiles();
    const big = Buffer.concat([PNG_1X1, Buffer.alloc(AVATAR_MAX_BYTES)]);
    const envelope = body(await upload(admin, '/api/sysFile/uploadAvatar', 'big.png', big));
    expect(envelope.code).toBe('D8002');
    expect(envelope.message).toContain('2 MB');
    expect(await countFiles()).toBe(before);
  });

  it('refuses a request without a file (D8000) and an empty file', async () => {
    const json = body(
      await authed(t.app, admin, { method: 'POST', url: '/api/sysFile/uploadAvatar', payload: {} }),
    );
    expect(json.code).toBe('D8000');
    const empty = body(await upload(admin, '/api/sysFile/uploadAvatar', 'empty.png', Buffer.alloc(0)));
    expect(empty.code).toBe('D8000');
  });

  it('answers D1002 for a missing id and refuses paths outside the upload folder', async () => {
    expect(body(await authed(t.app, admin, { method: 'GET', url: '/api/sysFile/preview/1' })).code).toBe(
      'D1002',
    );
    expect(storedPath(t.app.ctx, 'upload/../keys.json')).toBeNull();
    expect(storedPath(t.app.ctx, '../etc/passwd')).toBeNull();
    expect(storedPath(t.app.ctx, '/etc/passwd')).toBeNull();
    expect(storedPath(t.app.ctx, 'upload/2026/01/01/1.png')).toBe(
      join(t.testEnv.dataDir, 'upload', '2026', '01', '01', '1.png'),
    );
  });

  it('does not serve a row whose path was tampered with', async () => {
    const id = t.app.ctx.newId();
    const tenant = await t.app.ctx.db
      .selectFrom('sys_user')
      .select('tenant_id')
      .where('account', '=', 'admin')
      .executeTakeFirstOrThrow();
    await t.app.ctx.db
      .insertInto('sys_file')
      .values({
        id,
        tenant_id: tenant.tenant_id,
        create_time: '2026-01-01 00:00:00',
        is_delete: 0,
        provider: 'local',
        file_name: 'x',
        file_path: 'upload/../keys.json',
        size: 1,
        file_type: 'avatar',
        is_public: 1,
      } as never)
      .execute();
    expect(body(await authed(t.app, admin, { method: 'GET', url: `/api/sysFile/preview/${id}` })).code).toBe(
      'D1002',
    );
  });
});

describe('signature upload', () => {
  it('stores a signature image and points sys_user.signature at it', async () => {
    const envelope = body<UploadedFile>(
      await upload(staff, '/api/sysFile/uploadSignature', 'sign.png', PNG_1X1),
    );
    expect(envelope.code).toBe(200);
    const user = await t.app.ctx.db
      .selectFrom('sys_user')
      .select('signature')
      .where('account', '=', 'fgwstaff')
      .executeTakeFirstOrThrow();
    expect(user.signature).toBe(envelope.result?.url);
    const served = await authed(t.app, admin, { method: 'GET', url: envelope.result?.url ?? '' });
    expect(served.rawPayload.equals(PNG_1X1)).toBe(true);
  });
});
