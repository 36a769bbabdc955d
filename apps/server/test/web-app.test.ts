import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';

// A built web app as the build leaves it: hashed assets with brotli and gzip copies beside them.
const SCRIPT = `console.log(${JSON.stringify('数智'.repeat(2000))});\n`;
const INDEX = '<!doctype html><html><body><div id="root"></div></body></html>';

describe('the built web app', () => {
  let dist: string;
  let t: TestApp;

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'shuzhi-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), INDEX);
    const script = join(dist, 'assets', 'index-AbC123.js');
    writeFileSync(script, SCRIPT);
    writeFileSync(`${script}.br`, brotliCompressSync(SCRIPT));
    writeFileSync(`${script}.gz`, gzipSync(SCRIPT));
    writeFileSync(join(dist, 'assets', 'small-X1.css'), 'body{margin:0}');
    t = await createTestApp({ env: { WEB_DIST: dist } });
  });

  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });

  it('sends the brotli copy to a browser that accepts it, cached for a year', async () => {
    const response = await get('/assets/index-AbC123.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(SCRIPT);
    expect(response.rawPayload.length).toBeLessThan(Buffer.byteLength(SCRIPT) / 10);
  });

  it('sends the gzip copy where brotli is not accepted, and the file itself where nothing is', async () => {
    const gzip = await get('/assets/index-AbC123.js', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(SCRIPT);

    const plain = await get('/assets/index-AbC123.js', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it('sends a file without compressed copies as it is', async () => {
    const response = await get('/assets/small-X1.css', { 'accept-encoding': 'br, gzip' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe('body{margin:0}');
  });

  it('answers a page path with index.html, never cached', async () => {
    const response = await get('/system/user', { accept: 'text/html', 'accept-encoding': 'br' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toBe(INDEX);
  });

  it('answers a missing asset and an unknown API path with 404, never index.html', async () => {
    expect((await get('/assets/missing-Z9.js', { 'accept-encoding': 'br' })).statusCode).toBe(404);
    const api = await get('/api/nothing/here', { accept: 'text/html' });
    expect(api.statusCode).toBe(404);
    expect(api.body).not.toContain('<div id="root">');
  });
});
