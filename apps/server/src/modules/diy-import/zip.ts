import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInflateRaw } from 'node:zlib';
import { IMPORT_MAX_RATIO, IMPORT_MAX_UNPACKED_BYTES } from '@shuzhi/contracts/diy-import';
import { AppError } from '../../platform/errors/app-error.ts';

/**
 * The zip container of an uploaded .xlsx, read from its central directory before anything is unpacked:
 * F1030 when the file is no zip or no workbook (a text file renamed .xlsx, a .docx, an old .xls), F1031 when
 * the declared sizes add up to more than `IMPORT_MAX_UNPACKED_BYTES` or one entry packs more than
 * `IMPORT_MAX_RATIO` : 1 (a zip bomb). Entries are inflated as streams that stop at the declared size, so a
 * directory that lies about its sizes cannot expand further either.
 */

export type ZipEntry = {
  name: string;
  method: number;
  compressed: number;
  size: number;
  offset: number;
};

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** Entries smaller than this may pack as well as they like (an empty sheet is mostly repetition). */
const RATIO_FLOOR = 1024 * 1024;
const MAX_ENTRIES = 10_000;

export type ZipIndex = { path: string; entries: Map<string, ZipEntry> };

/** Reads and checks the directory of the zip at `path`. */
export async function openZip(path: string): Promise<ZipIndex> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    if (size < 22) throw new AppError('F1030');
    const tailLength = Math.min(size, 22 + 0xffff);
    const tail = Buffer.alloc(tailLength);
    await file.read(tail, 0, tailLength, size - tailLength);
    let end = -1;
    for (let i = tailLength - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === EOCD) {
        end = i;
        break;
      }
    }
    if (end < 0) throw new AppError('F1030');
    const count = tail.readUInt16LE(end + 10);
    const dirSize = tail.readUInt32LE(end + 12);
    const dirOffset = tail.readUInt32LE(end + 16);
    // ZIP64 markers: no workbook within the upload limit needs them.
    if (count === 0xffff || dirSize === 0xffff_ffff || dirOffset === 0xffff_ffff) throw new AppError('F1031');
    if (count > MAX_ENTRIES) throw new AppError('F1031');
    if (dirOffset + dirSize > size) throw new AppError('F1030');
    const dir = Buffer.alloc(dirSize);
    await file.read(dir, 0, dirSize, dirOffset);
    const entries = new Map<string, ZipEntry>();
    let total = 0;
    let at = 0;
    for (let n = 0; n < count; n++) {
      if (at + 46 > dir.length || dir.readUInt32LE(at) !== CENTRAL) throw new AppError('F1030');
      const method = dir.readUInt16LE(at + 10);
      const compressed = dir.readUInt32LE(at + 20);
      const entrySize = dir.readUInt32LE(at + 24);
      const nameLength = dir.readUInt16LE(at + 28);
      const extraLength = dir.readUInt16LE(at + 30);
      const commentLength = dir.readUInt16LE(at + 32);
      const offset = dir.readUInt32LE(at + 42);
      const name = dir.toString('utf8', at + 46, at + 46 + nameLength);
      at += 46 + nameLength + extraLength + commentLength;
      if (compressed === 0xffff_ffff || entrySize === 0xffff_ffff) throw new AppError('F1031');
      total += entrySize;
      if (total > IMPORT_MAX_UNPACKED_BYTES) throw new AppError('F1031');
      if (entrySize > RATIO_FLOOR && entrySize > compressed * IMPORT_MAX_RATIO) throw new AppError('F1031');
      if (method !== 0 && method !== 8) throw new AppError('F1030');
      entries.set(name, { name, method, compressed, size: entrySize, offset });
    }
    if (!entries.has('xl/workbook.xml') || !entries.has('[Content_Types].xml')) throw new AppError('F1030');
    return { path, entries };
  } finally {
    await file.close();
  }
}

/** Where an entry's data starts (after its local header). */
async function dataStart(path: string, entry: ZipEntry): Promise<number> {
  const file = await open(path, 'r');
  try {
    const header = Buffer.alloc(30);
    await file.read(header, 0, 30, entry.offset);
    if (header.readUInt32LE(0) !== LOCAL) throw new AppError('F1030');
    return entry.offset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  } finally {
    await file.close();
  }
}

/** An entry's text, chunk by chunk (UTF-8 split safely); stops with F1031 past the declared size. */
export async function* entryText(zip: ZipIndex, name: string): AsyncGenerator<string> {
  const entry = zip.entries.get(name);
  if (!entry) throw new AppError('F1030');
  if (entry.compressed === 0) return;
  const start = await dataStart(zip.path, entry);
  const raw = createReadStream(zip.path, {
    start,
    end: start + entry.compressed - 1,
    highWaterMark: 256 * 1024,
  });
  const source = entry.method === 8 ? raw.pipe(createInflateRaw({ chunkSize: 256 * 1024 })) : raw;
  raw.on('error', (error) => source.destroy(error));
  const decoder = new TextDecoder('utf-8');
  let seen = 0;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      seen += chunk.length;
      if (seen > entry.size) throw new AppError('F1031');
      yield decoder.decode(chunk, { stream: true });
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('F1030');
  } finally {
    raw.destroy();
    source.destroy();
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

/** A whole (small) entry as text. */
export async function entryString(zip: ZipIndex, name: string): Promise<string> {
  let text = '';
  for await (const chunk of entryText(zip, name)) text += chunk;
  return text;
}
