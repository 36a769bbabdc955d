import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInflateRaw } from 'node:zlib';
import { IMPORT_MAX_RATIO, IMPORT_MAX_UNPACKED_BYTES } from '@shuzhi/contracts/diy-import';
import { AppError } from '../errors/app-error.ts';

/**
 * Zip archives read from their central directory before anything is unpacked (docs/import.md "Upload
 * checks"). `readDirectory` lists the entries of any zip, ZIP64 included (some spreadsheet writers mark small
 * workbooks ZIP64 too); `openZip` also holds a workbook upload to the zip-bomb limits: F1030 when the bytes are
 * no zip (or a broken one), F1031 when there are too many entries, the declared sizes add up to too much, or
 * one entry packs too well. Entries are inflated as streams that stop at the declared size, so a directory
 * that lies about its sizes cannot expand further either.
 */

export type ZipEntry = {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  compressed: number;
  size: number;
  /** Where the entry's local header starts. */
  offset: number;
};

/** Bytes read a piece at a time (a file on disk or a buffer). */
export type ZipSource = { size: number; read(position: number, length: number): Promise<Buffer> };

export type ZipLimits = {
  /** Most entries in the directory. */
  entries: number;
  /** Most bytes all entries may declare unpacked. */
  unpacked: number;
  /** Largest unpacked : packed ratio of an entry larger than `ratioFloor`. */
  ratio: number;
  ratioFloor: number;
};

/** The limits of a workbook upload: sheet XML packs 10–30 : 1, bombs 1000 : 1 and more. */
export const WORKBOOK_LIMITS: ZipLimits = {
  entries: 10_000,
  unpacked: IMPORT_MAX_UNPACKED_BYTES,
  ratio: IMPORT_MAX_RATIO,
  // Entries smaller than this may pack as well as they like (an empty sheet is mostly repetition).
  ratioFloor: 1024 * 1024,
};

/** Why a directory could not be used: `format` (no zip, or a broken one) or `limit` (a zip bomb). */
export class ZipError extends Error {
  constructor(
    readonly kind: 'format' | 'limit',
    message: string,
  ) {
    super(message);
  }
}

const EOCD = 0x06054b50;
const EOCD64_LOCATOR = 0x07064b50;
const EOCD64 = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const ZIP64_EXTRA = 0x0001;
const MAX_16 = 0xffff;
const MAX_32 = 0xffff_ffff;
const CHUNK = 64 * 1024;

/** Reads a region of a source through a 64 KB window, so a central directory costs few reads and little memory. */
class Window {
  private start = 0;
  private bytes: Buffer = Buffer.alloc(0);
  constructor(private readonly source: ZipSource) {}
  async at(position: number, length: number): Promise<Buffer> {
    if (position + length > this.source.size) throw new ZipError('format', 'directory past the end');
    if (position < this.start || position + length > this.start + this.bytes.length) {
      this.start = position;
      this.bytes = await this.source.read(position, Math.max(length, CHUNK));
    }
    return this.bytes.subarray(position - this.start, position - this.start + length);
  }
}

function uint64(buffer: Buffer, at: number): number {
  const value = buffer.readBigUInt64LE(at);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new ZipError('format', 'ZIP64 value out of range');
  return Number(value);
}

type Directory = { count: number; size: number; offset: number };

/** The end-of-directory record (or its ZIP64 record when the 16/32-bit fields overflowed). */
async function findDirectory(source: ZipSource): Promise<Directory> {
  const size = source.size;
  if (size < 22) throw new ZipError('format', 'too short for a zip');
  const tailStart = Math.max(0, size - 22 - MAX_16);
  const tail = await source.read(tailStart, size - tailStart);
  let end = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new ZipError('format', 'no end of central directory');
  const directory = {
    count: tail.readUInt16LE(end + 10),
    size: tail.readUInt32LE(end + 12),
    offset: tail.readUInt32LE(end + 16),
  };
  const zip64 = directory.count === MAX_16 || directory.size === MAX_32 || directory.offset === MAX_32;
  if (!zip64) return directory;
  const locatorAt = tailStart + end - 20;
  if (locatorAt < 0) throw new ZipError('format', 'ZIP64 locator missing');
  const locator = await source.read(locatorAt, 20);
  if (locator.readUInt32LE(0) !== EOCD64_LOCATOR) throw new ZipError('format', 'ZIP64 locator missing');
  const recordAt = uint64(locator, 8);
  if (recordAt + 56 > locatorAt) throw new ZipError('format', 'ZIP64 record out of place');
  const record = await source.read(recordAt, 56);
  if (record.readUInt32LE(0) !== EOCD64) throw new ZipError('format', 'ZIP64 record missing');
  return { count: uint64(record, 32), size: uint64(record, 40), offset: uint64(record, 48) };
}

/** Sizes and offset from an entry's ZIP64 extra field, for those its 32-bit fields left at 0xffffffff. */
function zip64Fields(extra: Buffer, entry: ZipEntry): void {
  for (let at = 0; at + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(at);
    const length = extra.readUInt16LE(at + 2);
    if (id === ZIP64_EXTRA) {
      let p = at + 4;
      const next = () => {
        if (p + 8 > at + 4 + length) throw new ZipError('format', 'ZIP64 extra field too short');
        const value = uint64(extra, p);
        p += 8;
        return value;
      };
      if (entry.size === MAX_32) entry.size = next();
      if (entry.compressed === MAX_32) entry.compressed = next();
      if (entry.offset === MAX_32) entry.offset = next();
      return;
    }
    at += 4 + length;
  }
  if (entry.size === MAX_32 || entry.compressed === MAX_32 || entry.offset === MAX_32)
    throw new ZipError('format', 'ZIP64 sizes without their extra field');
}

/**
 * The entries of the zip in `source`, from its central directory; ZipError `format` when it is no complete
 * zip, `limit` when it lists more than `maxEntries` (checked before the directory is read).
 */
export async function readDirectory(
  source: ZipSource,
  maxEntries = Number.POSITIVE_INFINITY,
): Promise<ZipEntry[]> {
  const directory = await findDirectory(source);
  if (directory.count > maxEntries) throw new ZipError('limit', `${directory.count} entries`);
  if (directory.offset + directory.size > source.size) throw new ZipError('format', 'directory past the end');
  const window = new Window(source);
  const entries: ZipEntry[] = [];
  let at = directory.offset;
  for (let n = 0; n < directory.count; n++) {
    const record = await window.at(at, 46);
    if (record.readUInt32LE(0) !== CENTRAL) throw new ZipError('format', 'broken central directory');
    const nameLength = record.readUInt16LE(28);
    const extraLength = record.readUInt16LE(30);
    const commentLength = record.readUInt16LE(32);
    const entry: ZipEntry = {
      name: '',
      method: record.readUInt16LE(10),
      compressed: record.readUInt32LE(20),
      size: record.readUInt32LE(24),
      offset: record.readUInt32LE(42),
    };
    entry.name = (await window.at(at + 46, nameLength)).toString('utf8');
    if (entry.size === MAX_32 || entry.compressed === MAX_32 || entry.offset === MAX_32)
      zip64Fields(Buffer.from(await window.at(at + 46 + nameLength, extraLength)), entry);
    entries.push(entry);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** ZipError `limit` when the entries add up to more than `limits` allow; `format` for an unknown method. */
export function checkLimits(entries: readonly ZipEntry[], limits: ZipLimits): void {
  if (entries.length > limits.entries) throw new ZipError('limit', `${entries.length} entries`);
  let total = 0;
  for (const entry of entries) {
    total += entry.size;
    if (total > limits.unpacked) throw new ZipError('limit', 'unpacked size');
    if (entry.size > limits.ratioFloor && entry.size > entry.compressed * limits.ratio)
      throw new ZipError('limit', `ratio of ${entry.name}`);
    if (entry.method !== 0 && entry.method !== 8) throw new ZipError('format', `method ${entry.method}`);
  }
}

export type ZipIndex = { path: string; entries: Map<string, ZipEntry> };

const appError = (error: unknown) =>
  error instanceof ZipError ? new AppError(error.kind === 'limit' ? 'F1031' : 'F1030') : error;

/** Reads the directory of the zip at `path` and holds it to `limits`: F1030 no (good) zip, F1031 a bomb. */
export async function openZip(path: string, limits: ZipLimits = WORKBOOK_LIMITS): Promise<ZipIndex> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const source: ZipSource = {
      size,
      async read(position, length) {
        const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - position)));
        const { bytesRead } = await file.read(buffer, 0, buffer.length, position);
        return buffer.subarray(0, bytesRead);
      },
    };
    const entries = await readDirectory(source, limits.entries);
    checkLimits(entries, limits);
    return { path, entries: new Map(entries.map((e) => [e.name, e])) };
  } catch (error) {
    throw appError(error);
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
