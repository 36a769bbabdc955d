import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.ts';
import { formatBytes } from '../files/storage.ts';

/**
 * multipart/form-data for the whole API, registered once. Nothing is parsed until a route asks for its file
 * (`readUpload`), so JSON routes are unaffected and every upload route sets its own size limit.
 */
export async function installMultipart(app: FastifyInstance): Promise<void> {
  await app.register(multipart, { limits: { files: 1, fields: 20, fieldSize: 64 * 1024, parts: 30 } });
}

/** Uploads are streamed here (DATA_DIR/tmp), never held in memory, then moved into place or removed. */
export const UPLOAD_TMP_DIR = 'tmp';
/** How an upload's file name in DATA_DIR/tmp starts (the rest is random); the sweep removes only these. */
export const UPLOAD_TMP_PREFIX = 'upload-';

export type Upload = {
  /** The file on disk in DATA_DIR/tmp: `moveFile` (files/storage.ts) keeps it; `withUpload` removes what is left. */
  path: string;
  size: number;
  md5: string;
  /** The client's name, folders included, so that `../x.pdf` can be refused rather than quietly shortened. */
  fileName: string;
  /** The client's content type: a hint only, the content is sniffed. */
  mimetype: string;
  /** Plain form fields, whether sent before or after the file. */
  fields: Record<string, string>;
};

/**
 * Streams the one file of a multipart request to DATA_DIR/tmp, at most `maxBytes` long, with every plain
 * field. D8000 when there is no file or the form cannot be read (a client that went away included), D8002
 * past the limit. The limit is enforced while the bytes arrive; on any refusal nothing stays on disk.
 */
export async function readUpload(req: FastifyRequest, maxBytes: number): Promise<Upload> {
  if (!req.isMultipart()) throw new AppError('D8000');
  const dir = join(req.server.ctx.config.dataDir, UPLOAD_TMP_DIR);
  await mkdir(dir, { recursive: true });
  // Field names are the caller's: no prototype for `__proto__` to reach.
  const fields: Record<string, string> = Object.create(null);
  let file: Omit<Upload, 'fields'> | null = null;
  let truncated = false;
  const written: string[] = [];
  try {
    // One byte over the limit is let through, so "exactly the limit" is allowed and anything longer is
    // refused; a longer file is truncated, not thrown, so the refusal is D8002 with the limit in it.
    const options: Parameters<typeof req.parts>[0] & { throwFileSizeLimit: boolean } = {
      limits: { fileSize: maxBytes + 1, files: 1 },
      throwFileSizeLimit: false,
      preservePath: true,
    };
    for await (const part of req.parts(options)) {
      if (part.type !== 'file') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      if (file || truncated) {
        part.file.resume();
        continue;
      }
      const path = join(dir, `${UPLOAD_TMP_PREFIX}${randomUUID()}`);
      written.push(path);
      const hash = createHash('md5');
      let size = 0;
      const count = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          hash.update(chunk);
          done(null, chunk);
        },
      });
      await pipeline(part.file, count, createWriteStream(path, { flags: 'wx' }));
      if (part.file.truncated || size > maxBytes) {
        // The rest of the request is still read (and dropped) so that the client gets the answer.
        truncated = true;
        await rm(path, { force: true });
        continue;
      }
      file = {
        path,
        size,
        md5: hash.digest('hex'),
        fileName: part.filename ?? '',
        mimetype: part.mimetype ?? '',
      };
    }
  } catch (error) {
    await Promise.all(written.map((path) => rm(path, { force: true })));
    // A disk that cannot take the file is the server's fault; anything else is a form that cannot be read.
    if (error instanceof AppError || (error as NodeJS.ErrnoException).syscall) throw error;
    throw new AppError('D8000');
  }
  if (truncated) throw new AppError('D8002', { max: formatBytes(maxBytes) });
  if (!file) throw new AppError('D8000');
  return { ...file, fields };
}

/** Removes what is left of an upload in DATA_DIR/tmp (nothing when it was moved into place). */
export async function discardUpload(upload: Pick<Upload, 'path'>): Promise<void> {
  await rm(upload.path, { force: true });
}

/** `readUpload`, then `use`, then the temporary file is removed whatever happened (unless it was moved). */
export async function withUpload<T>(
  req: FastifyRequest,
  maxBytes: number,
  use: (upload: Upload) => Promise<T>,
): Promise<T> {
  const upload = await readUpload(req, maxBytes);
  try {
    return await use(upload);
  } finally {
    await discardUpload(upload);
  }
}
