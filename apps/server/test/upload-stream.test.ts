import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { UploadedFile } from '@shuzhi/contracts/user-center';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedPath } from '../src/platform/files/storage.ts';
import { UPLOAD_TMP_DIR } from '../src/platform/http/multipart.ts';
import { createTestApp, login, setConfig, type TestApp } from './helpers.ts';

/** Issue 14 §5: uploads go to DATA_DIR/tmp as they arrive, with the limit enforced while streaming. */
let t: TestApp;
let token: string;
let base: string;
/** Requests still open when a test fails are dropped, so that closing the app does not wait for them. */
const open = new Set<ReturnType<typeof request>>();

const MB = 1024 * 1024;
const tmpDir = () => join(t.config.dataDir, UPLOAD_TMP_DIR);
const tmpFiles = () => (existsSync(tmpDir()) ? readdirSync(tmpDir()) : []);
const tmpBytes = () => tmpFiles().reduce((sum, name) => sum + statSync(join(tmpDir(), name)).size, 0);

async function until(test: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (test()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A PDF of `size` bytes (the magic number, then random bytes). */
const pdf = (size: number) => Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(size - 9)]);

/**
 * An upload over a real socket, of which the first `first` bytes are sent at once, so that a test can look
 * at the server meanwhile: `sendRest` sends the rest and resolves with the answer, `abort` drops the
 * connection instead.
 */
async function partlySentUpload(fileName: string, data: Buffer, first: number) {
  const boundary = `----shuzhi${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
      'Content-Type: application/pdf\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const url = new URL('/api/sysFile/uploadFile', base);
  const req = request(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(head.length + data.length + tail.length),
    },
  });
  open.add(req);
  req.on('close', () => open.delete(req));
  const answer = new Promise<{ code: number; result: UploadedFile }>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
    });
    req.on('error', reject);
  });
  req.write(Buffer.concat([head, data.subarray(0, first)]));
  return {
    sendRest: () => {
      req.end(Buffer.concat([data.subarray(first), tail]));
      return answer;
    },
    abort: () => {
      answer.catch(() => undefined);
      req.destroy();
    },
  };
}

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  token = (await login(t.app, 'fgwstaff')).accessToken;
  await setConfig(t.app, 'sys_file_max_size_mb', '4');
});

afterAll(async () => {
  for (const req of open) req.destroy();
  await t?.close();
});

describe('uploads streamed to DATA_DIR/tmp', () => {
  it('stores the exact bytes of a normal upload, streamed to a temporary file that is moved into place', async () => {
    const data = pdf(3 * MB);
    const upload = await partlySentUpload('report.pdf', data, 2 * MB);
    // While the client is still sending, what has arrived is on disk, not in memory.
    await until(() => tmpBytes() >= MB, 'the first part on disk');
    const answer = await upload.sendRest();
    expect(answer.code).toBe(200);
    expect(answer.result.size).toBe(data.length);
    const row = await t.app.ctx.db
      .selectFrom('sys_file')
      .select(['file_path', 'file_md5', 'size'])
      .where('id', '=', answer.result.id)
      .executeTakeFirstOrThrow();
    expect(row.file_md5).toBe(createHash('md5').update(data).digest('hex'));
    expect(readFileSync(storedPath(t.app.ctx, row.file_path) as string).equals(data)).toBe(true);
    expect(tmpFiles()).toEqual([]);
  });

  it('refuses a too-large upload with D8002 while it arrives and leaves no temporary file', async () => {
    const countFiles = () =>
      t.app.ctx.db
        .selectFrom('sys_file')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
    const before = await countFiles();
    const upload = await partlySentUpload('big.pdf', pdf(10 * MB), 2 * MB);
    await until(() => tmpBytes() >= MB, 'the first part on disk');
    const answer = await upload.sendRest();
    expect(answer.code).toBe('D8002');
    expect(String((answer as unknown as { message: string }).message)).toContain('4 MB');
    expect(tmpFiles()).toEqual([]);
    expect(await countFiles()).toEqual(before);
  });

  it('leaves no temporary file when the client aborts mid-upload', async () => {
    const upload = await partlySentUpload('gone.pdf', pdf(3 * MB), 2 * MB);
    await until(() => tmpBytes() >= MB, 'the first part on disk');
    upload.abort();
    await until(() => tmpFiles().length === 0, 'the aborted upload removed');
  });
});
