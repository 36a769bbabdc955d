import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_TMP_DIR } from '../src/platform/http/multipart.ts';
import { sweepTempUploads, UPLOAD_TMP_MAX_AGE_MS } from '../src/platform/http/upload-sweep.ts';
import { createTestApp, type TestApp } from './helpers.ts';

const HOUR = 3_600_000;

/** Writes a file into DATA_DIR/tmp last touched `ageMs` ago. */
function leave(dataDir: string, name: string, ageMs: number): string {
  const dir = join(dataDir, UPLOAD_TMP_DIR);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, 'partial upload');
  const when = new Date(Date.now() - ageMs);
  utimesSync(path, when, when);
  return path;
}

describe('sweeping the temp uploads a killed process left', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'shuzhi-sweep-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('removes uploads older than the safe age and keeps fresh ones and other files', async () => {
    const stale = leave(dataDir, 'upload-stale', UPLOAD_TMP_MAX_AGE_MS + HOUR);
    const fresh = leave(dataDir, 'upload-fresh', HOUR);
    const other = leave(dataDir, 'notes.txt', UPLOAD_TMP_MAX_AGE_MS + HOUR);
    expect(await sweepTempUploads(dataDir)).toBe(1);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    expect(existsSync(other)).toBe(true);
    // Later on, the fresh one is stale too.
    expect(await sweepTempUploads(dataDir, UPLOAD_TMP_MAX_AGE_MS, Date.now() + UPLOAD_TMP_MAX_AGE_MS)).toBe(
      1,
    );
    expect(existsSync(fresh)).toBe(false);
  });

  it('finds nothing to do without a temp folder', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'shuzhi-sweep-empty-'));
    try {
      expect(await sweepTempUploads(empty)).toBe(0);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('the temp upload sweep of a server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('runs when the server starts', async () => {
    const stale = leave(t.config.dataDir, 'upload-left-by-a-crash', UPLOAD_TMP_MAX_AGE_MS + HOUR);
    const fresh = leave(t.config.dataDir, 'upload-in-flight', 60_000);
    await t.app.ready();
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
  });
});
