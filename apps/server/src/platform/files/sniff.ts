import { open } from 'node:fs/promises';
import { readDirectory, ZipError } from '../xlsx/zip-read.ts';

/** A file kind recognised from its leading bytes, with the suffix and content type it is stored under. */
export type SniffedKind = { kind: string; suffix: string; contentType: string };

/**
 * Bytes to sniff, read a piece at a time: an upload on disk is never read whole into memory (its head for
 * magic numbers, its tail and central directory for zips, 64 KB chunks for text).
 */
export type ByteSource = { size: number; read(position: number, length: number): Promise<Buffer> };

export function bufferSource(data: Buffer): ByteSource {
  return { size: data.length, read: async (position, length) => data.subarray(position, position + length) };
}

/** Opens the file at `path` as a ByteSource for `use`, closing it afterwards. */
export async function withFileSource<T>(path: string, use: (source: ByteSource) => Promise<T>): Promise<T> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    return await use({
      size,
      async read(position, length) {
        const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - position)));
        const { bytesRead } = await file.read(buffer, 0, buffer.length, position);
        return buffer.subarray(0, bytesRead);
      },
    });
  } finally {
    await file.close();
  }
}

const sourceOf = (bytes: Buffer | ByteSource): ByteSource =>
  Buffer.isBuffer(bytes) ? bufferSource(bytes) : bytes;

const HEAD = 16;
const CHUNK = 64 * 1024;

type Signature = SniffedKind & { test: (head: Buffer) => boolean };

const startsWith = (head: Buffer, bytes: number[], offset = 0) =>
  head.length >= offset + bytes.length && bytes.every((byte, i) => head[offset + i] === byte);

/**
 * Magic numbers of the kinds uploads may be. The client's name and content type are not trusted: a text file
 * renamed to .png is refused. Office, zip and text kinds are checked against the name's suffix by `matchSuffix`.
 */
const SIGNATURES: Signature[] = [
  {
    kind: 'png',
    suffix: '.png',
    contentType: 'image/png',
    test: (h) => startsWith(h, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  { kind: 'jpg', suffix: '.jpg', contentType: 'image/jpeg', test: (h) => startsWith(h, [0xff, 0xd8, 0xff]) },
  {
    kind: 'webp',
    suffix: '.webp',
    contentType: 'image/webp',
    // RIFF....WEBP
    test: (h) => startsWith(h, [0x52, 0x49, 0x46, 0x46]) && startsWith(h, [0x57, 0x45, 0x42, 0x50], 8),
  },
  {
    kind: 'gif',
    suffix: '.gif',
    contentType: 'image/gif',
    test: (h) => startsWith(h, [0x47, 0x49, 0x46, 0x38]),
  },
  {
    kind: 'pdf',
    suffix: '.pdf',
    contentType: 'application/pdf',
    test: (h) => startsWith(h, [0x25, 0x50, 0x44, 0x46, 0x2d]),
  },
];

/** The kind of `bytes` among `allowed`, or null when it is none of them. */
export async function sniffKind(
  bytes: Buffer | ByteSource,
  allowed: readonly string[],
): Promise<SniffedKind | null> {
  const head = await sourceOf(bytes).read(0, HEAD);
  for (const signature of SIGNATURES) {
    if (allowed.includes(signature.kind) && signature.test(head)) {
      return { kind: signature.kind, suffix: signature.suffix, contentType: signature.contentType };
    }
  }
  return null;
}

const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const ZIP_LOCAL = [0x50, 0x4b, 0x03, 0x04];
const ZIP_EMPTY = [0x50, 0x4b, 0x05, 0x06];

/**
 * The entry names of a zip archive, read from its central directory (platform/xlsx/zip-read.ts, ZIP64
 * included); null when the bytes are not a complete zip (a truncated or merely "PK"-prefixed file).
 */
export async function zipEntryNames(bytes: Buffer | ByteSource): Promise<string[] | null> {
  const source = sourceOf(bytes);
  const head = await source.read(0, 4);
  if (!startsWith(head, ZIP_LOCAL) && !startsWith(head, ZIP_EMPTY)) return null;
  try {
    return (await readDirectory(source)).map((entry) => entry.name);
  } catch (error) {
    if (error instanceof ZipError) return null;
    throw error;
  }
}

/**
 * The charset of plain text: no NUL byte and no other control character than tab, line breaks, form feed
 * and Ctrl-Z, decoding as UTF-8 (a BOM is fine) or else as GB18030 (GBK text from Chinese Excel and
 * Notepad); null for anything else. Read in chunks, decoded as a stream.
 */
export async function textCharset(bytes: Buffer | ByteSource): Promise<'utf-8' | 'gb18030' | null> {
  const source = sourceOf(bytes);
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  let isUtf8 = true;
  for (let position = 0; position < source.size; position += CHUNK) {
    const chunk = await source.read(position, CHUNK);
    for (const byte of chunk) {
      if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c && byte !== 0x1a) {
        return null;
      }
      if (byte === 0x7f) return null;
    }
    if (isUtf8) isUtf8 = decodes(utf8, chunk);
  }
  if (isUtf8 && decodes(utf8)) return 'utf-8';
  const gb18030 = new TextDecoder('gb18030', { fatal: true });
  for (let position = 0; position < source.size; position += CHUNK) {
    if (!decodes(gb18030, await source.read(position, CHUNK))) return null;
  }
  return decodes(gb18030) ? 'gb18030' : null;
}

/** Feeds a fatal decoder one chunk (or, without one, ends the stream); false when the bytes do not decode. */
function decodes(decoder: InstanceType<typeof TextDecoder>, chunk?: Buffer): boolean {
  try {
    if (chunk) decoder.decode(chunk, { stream: true });
    else decoder.decode();
    return true;
  } catch {
    return false;
  }
}

const OOXML_PART: Record<string, string> = { docx: 'word/', xlsx: 'xl/', pptx: 'ppt/' };

/** Content types of the kinds recognised by suffix (the image kinds and pdf come from SIGNATURES). */
const CONTENT_TYPES: Record<string, string> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
  zip: 'application/zip',
  txt: 'text/plain',
  csv: 'text/csv',
};

/** Suffixes whose content `matchSuffix` can check; any other suffix is refused whatever the config says. */
export const CHECKABLE_KINDS = [
  ...SIGNATURES.map((s) => s.kind),
  ...Object.keys(CONTENT_TYPES),
] as readonly string[];

/**
 * The kind of `bytes` when it is what the suffix `kind` (without dot, `jpeg` already read as `jpg`) claims,
 * else null: images and pdf by their magic number; docx, xlsx, pptx as zips holding `word/`, `xl/`, `ppt/`
 * parts; doc, xls, ppt as OLE compound files (the suffix tells which); zip as any complete zip; txt and
 * csv as text (`textCharset`). `suffix` is the name's own (`.jpeg` stays `.jpeg`).
 */
export async function matchSuffix(
  bytes: Buffer | ByteSource,
  kind: string,
  suffix = `.${kind}`,
): Promise<SniffedKind | null> {
  const source = sourceOf(bytes);
  const head = await source.read(0, HEAD);
  const signature = SIGNATURES.find((s) => s.kind === kind);
  if (signature) {
    return signature.test(head) ? { kind, suffix, contentType: signature.contentType } : null;
  }
  const contentType = CONTENT_TYPES[kind];
  if (!contentType) return null;
  if (kind === 'doc' || kind === 'xls' || kind === 'ppt') {
    return startsWith(head, OLE) ? { kind, suffix, contentType } : null;
  }
  if (kind === 'txt' || kind === 'csv') {
    const charset = await textCharset(source);
    return charset ? { kind, suffix, contentType: `${contentType}; charset=${charset}` } : null;
  }
  const names = await zipEntryNames(source);
  if (!names) return null;
  const part = OOXML_PART[kind];
  if (part && !names.some((name) => name.startsWith(part))) return null;
  return { kind, suffix, contentType };
}
