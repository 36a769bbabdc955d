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

export type Upload = {
  data: Buffer;
  fileName: string;
  /** Plain form fields sent before the file. */
  fields: Record<string, string>;
};

/** The one file of a multipart request, at most `maxBytes` long: D8000 when none, D8002 when larger. */
export async function readUpload(req: FastifyRequest, maxBytes: number): Promise<Upload> {
  if (!req.isMultipart()) throw new AppError('D8000');
  // One byte over the limit is read, so "exactly the limit" is allowed and anything longer is refused.
  const part = await req.file({ limits: { fileSize: maxBytes + 1, files: 1 }, throwFileSizeLimit: false });
  if (!part) throw new AppError('D8000');
  const data = await part.toBuffer();
  if (part.file.truncated || data.length > maxBytes) {
    throw new AppError('D8002', { max: formatBytes(maxBytes) });
  }
  // Field names are the caller's: no prototype for `__proto__` to reach.
  const fields: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(part.fields)) {
    if (value && !Array.isArray(value) && value.type === 'field' && typeof value.value === 'string') {
      fields[name] = value.value;
    }
  }
  return { data, fileName: part.filename ?? '', fields };
}
