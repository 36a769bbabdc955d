import type { Dirent } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { UPLOAD_TMP_DIR, UPLOAD_TMP_PREFIX } from './multipart.ts';

/**
 * How long an upload may sit in DATA_DIR/tmp untouched before it counts as left behind. A request streams
 * its upload there and moves or removes it before answering, and the file's time moves on while bytes
 * arrive; a day is far beyond the slowest upload, and safe when several servers share DATA_DIR.
 */
export const UPLOAD_TMP_MAX_AGE_MS = 24 * 60 * 60_000;
const SWEEP_MS = 60 * 60_000;

/**
 * Removes the uploads in DATA_DIR/tmp last written more than `maxAgeMs` ago (what a killed process left);
 * answers how many. Only this server's upload files are touched; a missing folder is nothing to sweep.
 */
export async function sweepTempUploads(
  dataDir: string,
  maxAgeMs = UPLOAD_TMP_MAX_AGE_MS,
  now = Date.now(),
): Promise<number> {
  const dir = join(dataDir, UPLOAD_TMP_DIR);
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let removed = 0;
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.startsWith(UPLOAD_TMP_PREFIX)) continue;
    const path = join(dir, entry.name);
    // Gone already: its request finished meanwhile.
    const info = await stat(path).catch(() => null);
    if (!info || now - info.mtimeMs <= maxAgeMs) continue;
    await rm(path, { force: true });
    removed++;
  }
  return removed;
}

/** Sweeps the temp uploads once the server is ready, then every hour while it runs. */
export function installUploadSweep(app: FastifyInstance, ctx: AppContext): void {
  const sweep = async () => {
    try {
      const removed = await sweepTempUploads(ctx.config.dataDir);
      if (removed > 0) ctx.log.info({ removed }, 'removed temp uploads left behind');
    } catch (err) {
      ctx.log.warn({ err }, 'temp upload sweep failed');
    }
  };
  const timer = setInterval(() => void sweep(), SWEEP_MS);
  timer.unref();
  app.addHook('onReady', sweep);
  app.addHook('onClose', async () => clearInterval(timer));
}
