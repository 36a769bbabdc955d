/**
 * `npm run bench:login -w bench`: what the login page costs a browser on a cold cache. Opens /login in
 * Chromium against the built app and prints, for the scripts and for everything it fetched, the count, the
 * bytes as they crossed the wire (with the server's compression) and the raw and gzip-compressed sizes of
 * their bodies. Nothing here asserts a size; the figures are printed and kept in bench/results/login.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { launchShuzhi } from '../e2e/server.ts';

const here = dirname(fileURLToPath(import.meta.url));

type Fetched = { url: string; type: string; wire: number; raw: number; gzip: number; encoding: string };

const shuzhi = await launchShuzhi({ sys_captcha: 'false' });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
  ],
});
try {
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'zh-CN' });
  const page = await context.newPage();
  const pending: Promise<Fetched | null>[] = [];
  page.on('requestfinished', (request) => {
    pending.push(
      (async () => {
        const response = await request.response();
        if (!response) return null;
        const body = await response.body().catch(() => Buffer.alloc(0));
        const sizes = await request.sizes();
        return {
          url: new URL(request.url()).pathname,
          type: request.resourceType(),
          wire: sizes.responseBodySize,
          raw: body.length,
          gzip: gzipSync(body, { level: 9 }).length,
          encoding: response.headers()['content-encoding'] ?? 'none',
        };
      })().catch(() => null),
    );
  });
  const started = Date.now();
  await page.goto(`${shuzhi.baseUrl}/login`);
  await page.getByTestId('login-submit').waitFor();
  await page.waitForLoadState('networkidle');
  const shownAfter = Date.now() - started;
  const fetched = (await Promise.all(pending)).filter((entry): entry is Fetched => entry !== null);
  const sum = (entries: Fetched[], key: 'wire' | 'raw' | 'gzip') =>
    entries.reduce((total, entry) => total + entry[key], 0);
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const scripts = fetched.filter((entry) => entry.type === 'script');
  console.log('\n/login on a cold cache (Chromium, 1366×768)\n');
  for (const entry of scripts.sort((a, b) => b.raw - a.raw)) {
    console.log(
      `  ${entry.url.padEnd(48)} raw ${kb(entry.raw).padStart(10)}  gzip ${kb(entry.gzip).padStart(9)}  wire ${kb(entry.wire).padStart(9)} (${entry.encoding})`,
    );
  }
  const summary = {
    scripts: {
      count: scripts.length,
      raw: sum(scripts, 'raw'),
      gzip: sum(scripts, 'gzip'),
      wire: sum(scripts, 'wire'),
    },
    all: {
      count: fetched.length,
      raw: sum(fetched, 'raw'),
      gzip: sum(fetched, 'gzip'),
      wire: sum(fetched, 'wire'),
    },
    loginShownMs: shownAfter,
  };
  console.log(
    `\n  scripts: ${summary.scripts.count}, raw ${kb(summary.scripts.raw)}, gzip ${kb(summary.scripts.gzip)}, on the wire ${kb(summary.scripts.wire)}`,
  );
  console.log(
    `  everything: ${summary.all.count} requests, raw ${kb(summary.all.raw)}, on the wire ${kb(summary.all.wire)}; the form showed after ${shownAfter} ms\n`,
  );
  const target = 300 * 1024;
  console.log(
    `RESULT: the login route's scripts weigh ${kb(summary.scripts.gzip)} gzipped (target under ${kb(target)}): ${summary.scripts.gzip < target ? 'met' : 'NOT met'}\n`,
  );
  mkdirSync(join(here, 'results'), { recursive: true });
  writeFileSync(join(here, 'results', 'login.json'), JSON.stringify({ summary, fetched }, null, 2));
} finally {
  await browser.close();
  await shuzhi.stop();
}
