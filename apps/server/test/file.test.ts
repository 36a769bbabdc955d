import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PageResult } from '@shuzhi/contracts/envelope';
import type { FileRow } from '@shuzhi/contracts/file';
import type { UploadedFile } from '@shuzhi/contracts/user-center';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zip } from '../../../e2e/fixtures/office.ts';
import { formatDate } from '../src/platform/db/time.ts';
import { matchSuffix, textCharset, zipEntryNames } from '../src/platform/files/sniff.ts';
import { contentDisposition } from '../src/platform/files/storage.ts';
import { apiCalls, authed, body, createTestApp, login, setConfig, type TestApp } from './helpers.ts';
import { multipart, PNG_1X1 } from './upload.fixture.ts';

/** Issue 4 §5: uploadFile, downloads, the file page with data scope, rename, delete, files of a record. */

// ---- Real files, made here ----

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n' +
    'trailer<</Root 1 0 R>>\n%%EOF\n',
);
const DOCX = zip({
  '[Content_Types].xml':
    '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
  'word/document.xml': '<?xml version="1.0"?><w:document/>',
});
const OLE = Buffer.concat([
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
  Buffer.alloc(504, 1),
]);
const EXE = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00'), Buffer.alloc(200)]);

async function xlsx(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet('数据').addRow(['区县', '数量']);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

// ---- The app ----

let t: TestApp;
let admin: string;
let fgwStaff: string; // 区发改委, no file permissions
let njdStaff: string; // 南京东路街道, no file permissions
let gzlStaff: string; // 贵州路居委, no file permissions
let njdLeader: string; // scope 2 on 南京东路街道, granted file management below
let otherTenant: string;
const users: Record<string, number> = {};

const { call, ok, code } = apiCalls(() => t.app);

function upload(token: string, fileName: string, data: Buffer, fields: Record<string, string> = {}) {
  const { payload, headers } = multipart(fileName, data, 'application/octet-stream', fields);
  return authed(t.app, token, { method: 'POST', url: '/api/sysFile/uploadFile', payload, headers });
}
async function uploaded(token: string, fileName: string, data: Buffer, fields: Record<string, string> = {}) {
  const envelope = body<UploadedFile>(await upload(token, fileName, data, fields));
  expect(envelope.code, JSON.stringify(envelope)).toBe(200);
  return envelope.result as UploadedFile;
}
async function refusal(token: string, fileName: string, data: Buffer, fields: Record<string, string> = {}) {
  return body(await upload(token, fileName, data, fields));
}

/** Rows and stored files: a refusal must leave both as they were. */
async function stored(): Promise<{ rows: number; files: number }> {
  const rows = await t.app.ctx.db
    .selectFrom('sys_file')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  const walk = (dir: string): number =>
    existsSync(dir)
      ? readdirSync(dir, { withFileTypes: true }).reduce(
          (n, entry) => n + (entry.isDirectory() ? walk(join(dir, entry.name)) : 1),
          0,
        )
      : 0;
  return { rows: Number(rows.n), files: walk(join(t.testEnv.dataDir, 'upload')) };
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.app.ctx.db;
  for (const u of await db.selectFrom('sys_user').select(['id', 'account']).execute())
    users[u.account] = u.id;
  const role = await db
    .selectFrom('sys_role')
    .select('id')
    .where('code', '=', 'dept_town_leader')
    .executeTakeFirstOrThrow();
  const menus = await db
    .selectFrom('sys_menu')
    .select('id')
    .where((eb) =>
      eb.or([
        eb('name', '=', 'sysFile'),
        eb('permission', 'in', ['sysFile:page', 'sysFile:update', 'sysFile:delete', 'sysFile:download']),
      ]),
    )
    .execute();
  await db
    .insertInto('sys_role_menu')
    .values(menus.map((m) => ({ id: t.app.ctx.newId(), role_id: role.id, menu_id: m.id })))
    .execute();
  const template = await db
    .selectFrom('sys_user')
    .selectAll()
    .where('account', '=', 'admin')
    .executeTakeFirstOrThrow();
  const tenant2 = t.app.ctx.newId();
  await db
    .insertInto('sys_tenant')
    .values({
      id: tenant2,
      create_time: '2026-01-01 00:00:00',
      is_delete: 0,
      code: 'file2',
      name: '文件租户',
      status: 1,
      order_no: 9,
    } as never)
    .execute();
  await db
    .insertInto('sys_user')
    .values({ ...template, id: t.app.ctx.newId(), tenant_id: tenant2, account: 'fileadmin2' })
    .execute();
  admin = (await login(t.app, 'admin')).accessToken;
  fgwStaff = (await login(t.app, 'fgwstaff')).accessToken;
  njdStaff = (await login(t.app, 'njdlstaff')).accessToken;
  gzlStaff = (await login(t.app, 'gzlstaff')).accessToken;
  njdLeader = (await login(t.app, 'njdleader')).accessToken;
  otherTenant = (await login(t.app, 'fileadmin2')).accessToken;
});

afterAll(async () => {
  await t?.close();
});

describe('content checks (sniff.ts)', () => {
  it('recognises office, zip, OLE and text kinds by content, with the suffix deciding among look-alikes', async () => {
    const book = await xlsx();
    expect((await zipEntryNames(book))?.some((n) => n.startsWith('xl/'))).toBe(true);
    expect((await matchSuffix(book, 'xlsx'))?.contentType).toContain('spreadsheetml');
    expect(await matchSuffix(book, 'docx')).toBeNull();
    expect((await matchSuffix(book, 'zip'))?.kind).toBe('zip');
    expect((await matchSuffix(DOCX, 'docx'))?.contentType).toContain('wordprocessingml');
    expect(await matchSuffix(DOCX, 'pptx')).toBeNull();
    expect((await matchSuffix(OLE, 'xls'))?.contentType).toBe('application/vnd.ms-excel');
    expect((await matchSuffix(OLE, 'doc'))?.contentType).toBe('application/msword');
    expect(await matchSuffix(OLE, 'docx')).toBeNull();
    expect(await matchSuffix(Buffer.from('PK\x03\x04garbage'), 'zip')).toBeNull();
    expect(await matchSuffix(PNG_1X1, 'jpg')).toBeNull();
    expect(await matchSuffix(Buffer.from([0xff, 0xd8, 0xff, 0xe0]), 'jpg', '.jpeg')).toMatchObject({
      kind: 'jpg',
      suffix: '.jpeg',
    });
    expect(await textCharset(Buffer.from('区县,数量\n黄浦,1\n'))).toBe('utf-8');
    expect(await textCharset(Buffer.from([0xc4, 0xe3, 0xba, 0xc3, 0x0a]))).toBe('gb18030');
    expect(await textCharset(Buffer.from('abc\u0000def'))).toBeNull();
    expect(await textCharset(EXE)).toBeNull();
    // Text is read in 64 KB chunks: a character split between two of them still decodes.
    expect(await textCharset(Buffer.concat([Buffer.alloc(64 * 1024 - 1, 0x61), Buffer.from('区县\n')]))).toBe(
      'utf-8',
    );
    expect((await matchSuffix(Buffer.from('a,b\n1,2\n'), 'csv'))?.contentType).toBe(
      'text/csv; charset=utf-8',
    );
  });

  it('names downloads with filename* and an ASCII fallback', () => {
    expect(contentDisposition('attachment', '2026年 统计(终).xlsx')).toBe(
      `attachment; filename="2026_ _(_).xlsx"; filename*=UTF-8''2026%E5%B9%B4%20%E7%BB%9F%E8%AE%A1%28%E7%BB%88%29.xlsx`,
    );
    expect(contentDisposition('inline', '报告.pdf')).toMatch(/^inline; filename="file\.pdf"; /);
    expect(contentDisposition('attachment', 'a"b;c.txt')).toContain('filename="a_b_c.txt"');
  });
});

describe('uploadFile', () => {
  it('stores a pdf with md5, a date path, the uploader’s org and the form fields', async () => {
    const pdf = await uploaded(fgwStaff, '2026年统计报告.pdf', PDF, { remark: '年报', belongId: '9001' });
    expect(pdf).toMatchObject({ fileName: '2026年统计报告.pdf', suffix: '.pdf', size: PDF.length });
    const row = await t.app.ctx.db
      .selectFrom('sys_file')
      .selectAll()
      .where('id', '=', pdf.id)
      .executeTakeFirstOrThrow();
    const fgw = await t.app.ctx.db
      .selectFrom('sys_user')
      .select('org_id')
      .where('account', '=', 'fgwstaff')
      .executeTakeFirstOrThrow();
    const day = formatDate().replaceAll('-', '/');
    expect(row).toMatchObject({
      file_path: `upload/${day}/${pdf.id}.pdf`,
      file_md5: createHash('md5').update(PDF).digest('hex'),
      create_org_id: fgw.org_id,
      create_user_id: users.fgwstaff,
      belong_id: 9001,
      file_type: 'attachment',
      remark: '年报',
      is_public: 0,
      content_type: 'application/pdf',
    });
    expect(readFileSync(join(t.testEnv.dataDir, ...row.file_path.split('/')))).toEqual(PDF);
  });

  it('takes xlsx, docx, xls, csv (UTF-8 and GBK), zip and .jpeg by content; fields after the file count too', async () => {
    const sheet = await uploaded(njdStaff, '数据.xlsx', await xlsx());
    expect(sheet.contentType).toContain('spreadsheetml');
    expect((await uploaded(njdStaff, '说明.docx', DOCX)).contentType).toContain('wordprocessingml');
    expect((await uploaded(njdStaff, 'old.xls', OLE)).contentType).toBe('application/vnd.ms-excel');
    expect((await uploaded(njdStaff, 'a.csv', Buffer.from('区县,数量\n'))).contentType).toBe(
      'text/csv; charset=utf-8',
    );
    expect((await uploaded(njdStaff, 'gbk.txt', Buffer.from([0xc4, 0xe3, 0xba, 0xc3]))).contentType).toBe(
      'text/plain; charset=gb18030',
    );
    expect((await uploaded(njdStaff, 'pack.ZIP', DOCX)).suffix).toBe('.zip');
    expect((await uploaded(njdStaff, 'photo.jpeg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2]))).suffix).toBe(
      '.jpeg',
    );
    // The form field after the file part.
    const boundary = '----after';
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="b.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      PDF,
      Buffer.from(
        `\r\n--${boundary}\r\nContent-Disposition: form-data; name="fileType"\r\n\r\nreport\r\n--${boundary}--\r\n`,
      ),
    ]);
    const after = body<UploadedFile>(
      await authed(t.app, njdStaff, {
        method: 'POST',
        url: '/api/sysFile/uploadFile',
        payload,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      }),
    );
    expect(after.code).toBe(200);
    const row = await t.app.ctx.db
      .selectFrom('sys_file')
      .select('file_type')
      .where('id', '=', after.result?.id as number)
      .executeTakeFirstOrThrow();
    expect(row.file_type).toBe('report');
  });

  it('refuses bad uploads with a clear code and stores nothing', async () => {
    const before = await stored();
    const cases: [string, Buffer, string, Record<string, string>?][] = [
      ['setup.pdf', EXE, 'D8005'], // an exe renamed .pdf
      ['page.txt', Buffer.from('<html>\u0000<script>alert(1)</script>'), 'D8005'], // NUL: not text
      ['fake.png', Buffer.from('<script>alert(1)</script>'), 'D8005'],
      ['book.xlsx', DOCX, 'D8005'], // a docx renamed .xlsx
      ['book.docx', OLE, 'D8005'],
      ['setup.exe', EXE, 'D8001'], // suffix not allowed
      ['noext', PDF, 'D8001'],
      ['page.html', Buffer.from('<html></html>'), 'D8001'],
      ['empty.pdf', Buffer.alloc(0), 'D8000'],
      ['../x.pdf', PDF, 'D8003'],
      ['..\\..\\x.pdf', PDF, 'D8003'],
      ['a/b.pdf', PDF, 'D8003'],
      ['C:x.pdf', PDF, 'D8003'],
      ['ok.pdf', PDF, '400', { fileType: 'avatar' }], // reserved: would make it readable tenant-wide
      ['ok.pdf', PDF, '400', { belongId: 'abc' }],
    ];
    for (const [name, data, expected, fields] of cases) {
      const envelope = await refusal(fgwStaff, name, data, fields);
      expect(String(envelope.code), `${name}: ${JSON.stringify(envelope)}`).toBe(expected);
    }
    const exe = await refusal(fgwStaff, 'setup.exe', EXE);
    expect(exe.message).toContain('pdf');
    const mismatch = await refusal(fgwStaff, 'setup.pdf', EXE);
    expect(mismatch.message).toContain('.pdf');
    // Not multipart at all, or a form without a file.
    expect(await code(fgwStaff, 'POST', '/api/sysFile/uploadFile', {})).toBe('D8000');
    const { payload, headers } = multipart('x.pdf', PDF);
    const noFile = payload
      .toString('latin1')
      .replace('name="file"; filename="x.pdf"\r\nContent-Type: application/octet-stream', 'name="other"');
    expect(
      body(
        await authed(t.app, fgwStaff, {
          method: 'POST',
          url: '/api/sysFile/uploadFile',
          payload: Buffer.from(noFile, 'latin1'),
          headers,
        }),
      ).code,
    ).toBe('D8000');
    expect(await stored()).toEqual(before);
  });

  it('follows sys_file_max_size_mb and sys_file_allowed_types', async () => {
    const before = await stored();
    await setConfig(t.app, 'sys_file_max_size_mb', '1');
    const big = Buffer.concat([PDF, Buffer.alloc(1024 * 1024 + 1 - PDF.length, 0x20)]);
    const over = await refusal(fgwStaff, 'big.pdf', big);
    expect(over.code).toBe('D8002');
    expect(over.message).toContain('1 MB');
    expect(await stored()).toEqual(before);
    const exact = await uploaded(fgwStaff, 'exact.pdf', big.subarray(0, 1024 * 1024));
    expect(exact.size).toBe(1024 * 1024);
    await setConfig(t.app, 'sys_file_max_size_mb', '50');

    await setConfig(t.app, 'sys_file_allowed_types', 'pdf, .XLSX');
    expect((await refusal(fgwStaff, 'a.docx', DOCX)).code).toBe('D8001');
    expect((await uploaded(fgwStaff, 'b.xlsx', await xlsx())).suffix).toBe('.xlsx');
    // A suffix whose content cannot be checked is never accepted, whatever the config says.
    await setConfig(t.app, 'sys_file_allowed_types', 'pdf,exe');
    expect((await refusal(fgwStaff, 'setup.exe', EXE)).code).toBe('D8001');
    await setConfig(
      t.app,
      'sys_file_allowed_types',
      'pdf,doc,docx,xls,xlsx,ppt,pptx,txt,csv,png,jpg,jpeg,gif,webp,zip',
    );
  });

  it('needs a signed-in caller', async () => {
    const { payload, headers } = multipart('a.pdf', PDF);
    const response = await t.app.inject({ method: 'POST', url: '/api/sysFile/uploadFile', payload, headers });
    expect(response.statusCode).toBe(401);
  });
});

describe('reading and downloading', () => {
  let own: UploadedFile; // fgwstaff's private pdf
  let njd: UploadedFile; // njdlstaff's private xlsx
  let shared: UploadedFile; // fgwstaff's public docx

  beforeAll(async () => {
    own = await uploaded(fgwStaff, '发改委 内部(草稿).pdf', PDF, { belongId: '7001' });
    njd = await uploaded(njdStaff, '街道台账.xlsx', await xlsx(), { belongId: '7001' });
    shared = await uploaded(fgwStaff, '公开说明.docx', DOCX, { belongId: '7001', isPublic: 'true' });
  });

  it('downloads under the original (Chinese) name, by GET and by the Admin.NET POST', async () => {
    const get = await authed(t.app, fgwStaff, { method: 'GET', url: `/api/sysFile/download/${own.id}` });
    expect(get.statusCode).toBe(200);
    expect(get.headers['content-type']).toBe('application/pdf');
    expect(get.headers['x-content-type-options']).toBe('nosniff');
    const disposition = String(get.headers['content-disposition']);
    expect(disposition.startsWith('attachment; filename="')).toBe(true);
    const star = /filename\*=UTF-8''(.+)$/.exec(disposition)?.[1] as string;
    expect(decodeURIComponent(star)).toBe('发改委 内部(草稿).pdf');
    expect(get.rawPayload).toEqual(PDF);
    const post = await call(fgwStaff, 'POST', '/api/sysFile/downloadFile', { id: own.id });
    expect(post.statusCode).toBe(200);
    expect(post.rawPayload).toEqual(PDF);
    const preview = await authed(t.app, fgwStaff, { method: 'GET', url: own.url });
    expect(String(preview.headers['content-disposition']).startsWith('inline;')).toBe(true);
  });

  it('lets others read only public files, file administrators those inside their scope', async () => {
    // gzlstaff: no permission; public yes, private no.
    expect(await code(gzlStaff, 'GET', `/api/sysFile/download/${own.id}`)).toBe('D1002');
    expect(await code(gzlStaff, 'POST', '/api/sysFile/downloadFile', { id: njd.id })).toBe('D1002');
    expect((await call(gzlStaff, 'GET', `/api/sysFile/download/${shared.id}`)).statusCode).toBe(200);
    // njdleader (scope: 南京东路街道 and below, sysFile:page): the street's files, not the district office's.
    expect((await call(njdLeader, 'GET', `/api/sysFile/download/${njd.id}`)).statusCode).toBe(200);
    expect((await call(njdLeader, 'GET', `/api/sysFile/preview/${njd.id}`)).statusCode).toBe(200);
    expect(await code(njdLeader, 'GET', `/api/sysFile/download/${own.id}`)).toBe('D1002');
    // admin (888): the whole tenant.
    expect((await call(admin, 'GET', `/api/sysFile/download/${own.id}`)).statusCode).toBe(200);
    // Another tenant: nothing.
    expect(await code(otherTenant, 'GET', `/api/sysFile/download/${own.id}`)).toBe('D1002');
    expect(await code(otherTenant, 'POST', '/api/sysFile/downloadFile', { id: shared.id })).toBe('D1002');
    // Bad ids and no caller.
    expect(await code(admin, 'GET', '/api/sysFile/download/999999999')).toBe('D1002');
    expect(await code(admin, 'GET', '/api/sysFile/download/abc')).toBe(400);
    expect(await code(admin, 'POST', '/api/sysFile/downloadFile', { id: -1 })).toBe(400);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/sysFile/download/${shared.id}` })).statusCode,
    ).toBe(401);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/sysFile/downloadFile', payload: { id: shared.id } }))
        .statusCode,
    ).toBe(401);
  });

  it('lists the files of a record that the caller may read', async () => {
    const mine = await ok<FileRow[]>(fgwStaff, 'GET', '/api/sysFile/listByBelong?belongId=7001');
    expect(mine.map((f) => f.id)).toEqual([own.id, shared.id]);
    const other = await ok<FileRow[]>(gzlStaff, 'GET', '/api/sysFile/listByBelong?belongId=7001');
    expect(other.map((f) => f.id)).toEqual([shared.id]);
    const leader = await ok<FileRow[]>(njdLeader, 'GET', '/api/sysFile/listByBelong?belongId=7001');
    expect(leader.map((f) => f.id)).toEqual([njd.id, shared.id]);
    const all = await ok<FileRow[]>(
      admin,
      'GET',
      '/api/sysFile/listByBelong?belongId=7001&fileType=attachment',
    );
    expect(all.map((f) => f.id)).toEqual([own.id, njd.id, shared.id]);
    expect(all[0]).toMatchObject({ fileName: '发改委 内部(草稿).pdf', suffix: '.pdf', belongId: 7001 });
    expect(await ok<FileRow[]>(otherTenant, 'GET', '/api/sysFile/listByBelong?belongId=7001')).toEqual([]);
    expect(await code(admin, 'GET', '/api/sysFile/listByBelong')).toBe(400);
    expect(await code(admin, 'GET', '/api/sysFile/listByBelong?belongId=x')).toBe(400);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/sysFile/listByBelong?belongId=7001' })).statusCode,
    ).toBe(401);
  });

  it('pages the tenant’s files within the data scope, with filters', async () => {
    const all = await ok<PageResult<FileRow>>(admin, 'POST', '/api/sysFile/page', { pageSize: 100 });
    const ids = all.items.map((f) => f.id);
    expect(ids).toEqual(expect.arrayContaining([own.id, njd.id, shared.id]));
    const scoped = await ok<PageResult<FileRow>>(njdLeader, 'POST', '/api/sysFile/page', { pageSize: 100 });
    expect(scoped.items.map((f) => f.id)).toContain(njd.id);
    expect(scoped.items.map((f) => f.id)).not.toContain(own.id);
    const byName = await ok<PageResult<FileRow>>(admin, 'POST', '/api/sysFile/page', { fileName: '台账' });
    expect(byName.items.map((f) => f.id)).toEqual([njd.id]);
    const bySuffix = await ok<PageResult<FileRow>>(
      admin,
      'GET',
      '/api/sysFile/page?suffix=DOCX&belongId=7001',
    );
    expect(bySuffix.items.map((f) => f.id)).toEqual([shared.id]);
    const today = new Date().toISOString().slice(0, 10);
    const byTime = await ok<PageResult<FileRow>>(admin, 'POST', '/api/sysFile/page', {
      createTime: ['2000-01-01', '2000-01-02'],
    });
    expect(byTime.total).toBe(0);
    const byType = await ok<PageResult<FileRow>>(admin, 'POST', '/api/sysFile/page', {
      fileType: 'report',
      createTime: [null, `${Number(today.slice(0, 4)) + 1}-12-31`],
    });
    expect(byType.items.every((f) => f.fileType === 'report')).toBe(true);
    expect(byType.total).toBeGreaterThan(0);
    const sorted = await ok<PageResult<FileRow>>(admin, 'POST', '/api/sysFile/page', {
      field: 'size',
      order: 'ascending',
      pageSize: 100,
    });
    const sizes = sorted.items.map((f) => f.size);
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
    // Without the permission, another tenant, no caller, bad filters.
    expect((await call(fgwStaff, 'POST', '/api/sysFile/page', {})).statusCode).toBe(403);
    // The other tenant's admin holds no file menus (the access matrix checks tenants with every menu).
    expect((await call(otherTenant, 'POST', '/api/sysFile/page', {})).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/api/sysFile/page', payload: {} })).statusCode).toBe(
      401,
    );
    expect(await code(admin, 'POST', '/api/sysFile/page', { createTime: ['yesterday', null] })).toBe(400);
    expect(await code(admin, 'POST', '/api/sysFile/page', { belongId: 'x' })).toBe(400);
  });

  it('renames (keeping the suffix), changes remark and public flag; refuses folders and other scopes', async () => {
    await ok(njdLeader, 'POST', '/api/sysFile/update', {
      id: njd.id,
      fileName: '街道台账（终稿）',
      remark: '终稿',
    });
    let row = await ok<FileRow>(admin, 'GET', `/api/sysFile/detail?Id=${njd.id}`);
    expect(row).toMatchObject({ fileName: '街道台账（终稿）.xlsx', remark: '终稿', isPublic: 0 });
    await ok(admin, 'POST', '/api/sysFile/update', { id: njd.id, fileName: '台账.XLSX', isPublic: true });
    row = await ok<FileRow>(admin, 'GET', `/api/sysFile/detail?Id=${njd.id}`);
    expect(row).toMatchObject({ fileName: '台账.XLSX', isPublic: 1, remark: '终稿' });
    const download = await call(admin, 'GET', `/api/sysFile/download/${njd.id}`);
    expect(decodeURIComponent(String(download.headers['content-disposition']).split("''")[1] as string)).toBe(
      '台账.XLSX',
    );
    // Now public: readable by everyone of the tenant.
    expect((await call(gzlStaff, 'GET', `/api/sysFile/download/${njd.id}`)).statusCode).toBe(200);
    expect(await code(admin, 'POST', '/api/sysFile/update', { id: njd.id, fileName: '../etc/passwd' })).toBe(
      'D8003',
    );
    expect(await code(admin, 'POST', '/api/sysFile/update', { id: njd.id, fileName: '  ' })).toBe(400);
    expect(await code(admin, 'POST', '/api/sysFile/update', { id: njd.id, isPublic: 'maybe' })).toBe(400);
    expect(await code(njdLeader, 'POST', '/api/sysFile/update', { id: own.id, remark: 'x' })).toBe('D1002');
    expect(await code(otherTenant, 'POST', '/api/sysFile/update', { id: own.id, remark: 'x' })).toBe(403);
    expect(
      (await call(gzlStaff, 'POST', '/api/sysFile/update', { id: own.id, remark: 'x' })).statusCode,
    ).toBe(403);
  });
});

describe('deleting', () => {
  const pathOf = async (id: number) =>
    join(
      t.testEnv.dataDir,
      ...(
        await t.app.ctx.db
          .selectFrom('sys_file')
          .select('file_path')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).file_path.split('/'),
    );

  it('deletes the row and the stored file, one or a batch (all or nothing)', async () => {
    const a = await uploaded(njdStaff, 'a.pdf', PDF);
    const b = await uploaded(njdStaff, 'b.pdf', PDF);
    const c = await uploaded(fgwStaff, 'c.pdf', PDF);
    const [pa, pb, pc] = [await pathOf(a.id), await pathOf(b.id), await pathOf(c.id)];
    expect(existsSync(pa)).toBe(true);
    await ok(njdLeader, 'POST', '/api/sysFile/delete', { id: a.id });
    expect(existsSync(pa)).toBe(false);
    expect(await code(admin, 'GET', `/api/sysFile/download/${a.id}`)).toBe('D1002');
    expect(await code(njdLeader, 'POST', '/api/sysFile/delete', { id: a.id })).toBe('D1002');
    // c is outside njdleader's scope: the batch fails whole, b stays.
    expect(await code(njdLeader, 'POST', '/api/sysFile/batchDelete', { ids: [b.id, c.id] })).toBe('D1002');
    expect(existsSync(pb)).toBe(true);
    await ok(admin, 'POST', '/api/sysFile/batchDelete', [b.id, c.id]);
    expect(existsSync(pb) || existsSync(pc)).toBe(false);
    expect((await call(fgwStaff, 'POST', '/api/sysFile/delete', { id: b.id })).statusCode).toBe(403);
    expect(await code(otherTenant, 'POST', '/api/sysFile/delete', { id: b.id })).toBe(403);
    expect(await code(admin, 'POST', '/api/sysFile/batchDelete', { ids: [] })).toBe(400);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/sysFile/delete', payload: { id: 1 } })).statusCode,
    ).toBe(401);
  });

  it('refuses to delete a file in use as an avatar (D8004), and keeps avatar uploads working', async () => {
    const { payload, headers } = multipart('我.png', PNG_1X1, 'image/png');
    const avatar = body<UploadedFile>(
      await authed(t.app, njdStaff, { method: 'POST', url: '/api/sysFile/uploadAvatar', payload, headers }),
    );
    expect(avatar.code).toBe(200);
    const id = avatar.result?.id as number;
    const path = await pathOf(id);
    const row = await t.app.ctx.db
      .selectFrom('sys_file')
      .select(['create_org_id', 'file_type'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.file_type).toBe('avatar');
    expect(row.create_org_id).not.toBeNull();
    // Readable tenant-wide, listed on the page, not deletable while in use.
    expect((await call(gzlStaff, 'GET', `/api/sysFile/preview/${id}`)).statusCode).toBe(200);
    expect(await code(admin, 'POST', '/api/sysFile/delete', { id })).toBe('D8004');
    const other = await uploaded(njdStaff, 'x.pdf', PDF);
    expect(await code(admin, 'POST', '/api/sysFile/batchDelete', { ids: [other.id, id] })).toBe('D8004');
    expect(existsSync(path)).toBe(true);
    expect((await call(admin, 'GET', `/api/sysFile/download/${other.id}`)).statusCode).toBe(200);
  });
});
