/** A file kind recognised from its leading bytes, with the suffix and content type it is stored under. */
export type SniffedKind = { kind: string; suffix: string; contentType: string };

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

/** The kind of `data` among `allowed`, or null when it is none of them. */
export function sniffKind(data: Buffer, allowed: readonly string[]): SniffedKind | null {
  const head = data.subarray(0, 16);
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
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_ENTRY = 0x02014b50;

/**
 * The entry names of a zip archive, read from its central directory; null when `data` is not a complete
 * zip (a truncated or merely "PK"-prefixed file, ZIP64 archives included, is not accepted as one).
 */
export function zipEntryNames(data: Buffer): string[] | null {
  if (!startsWith(data, ZIP_LOCAL) && !startsWith(data, ZIP_EMPTY)) return null;
  if (data.length < 22) return null;
  const lowest = Math.max(0, data.length - 22 - 0xffff);
  for (let end = data.length - 22; end >= lowest; end--) {
    if (data.readUInt32LE(end) !== END_OF_CENTRAL_DIRECTORY) continue;
    const count = data.readUInt16LE(end + 10);
    let offset = data.readUInt32LE(end + 16);
    const names: string[] = [];
    for (let i = 0; i < count; i++) {
      if (offset + 46 > data.length || data.readUInt32LE(offset) !== CENTRAL_ENTRY) return null;
      const nameLength = data.readUInt16LE(offset + 28);
      const extraLength = data.readUInt16LE(offset + 30);
      const commentLength = data.readUInt16LE(offset + 32);
      if (offset + 46 + nameLength > data.length) return null;
      names.push(data.toString('utf8', offset + 46, offset + 46 + nameLength));
      offset += 46 + nameLength + extraLength + commentLength;
    }
    return names;
  }
  return null;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const gb18030 = new TextDecoder('gb18030', { fatal: true });

/**
 * The charset of plain text: no NUL byte and no other control character than tab, line breaks, form feed
 * and Ctrl-Z, decoding as UTF-8 (a BOM is fine) or else as GB18030 (GBK text from Chinese Excel and
 * Notepad); null for anything else.
 */
export function textCharset(data: Buffer): 'utf-8' | 'gb18030' | null {
  for (const byte of data) {
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c && byte !== 0x1a) {
      return null;
    }
    if (byte === 0x7f) return null;
  }
  try {
    utf8.decode(data);
    return 'utf-8';
  } catch {
    try {
      gb18030.decode(data);
      return 'gb18030';
    } catch {
      return null;
    }
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
 * The kind of `data` when it is what the suffix `kind` (without dot, `jpeg` already read as `jpg`) claims,
 * else null: images and pdf by their magic number; docx, xlsx, pptx as zips holding `word/`, `xl/`, `ppt/`
 * parts; doc, xls, ppt as OLE compound files (the suffix tells which); zip as any complete zip; txt and
 * csv as text (`textCharset`). `suffix` is the name's own (`.jpeg` stays `.jpeg`).
 */
export function matchSuffix(data: Buffer, kind: string, suffix = `.${kind}`): SniffedKind | null {
  const signature = SIGNATURES.find((s) => s.kind === kind);
  if (signature) {
    return signature.test(data.subarray(0, 16)) ? { kind, suffix, contentType: signature.contentType } : null;
  }
  const contentType = CONTENT_TYPES[kind];
  if (!contentType) return null;
  if (kind === 'doc' || kind === 'xls' || kind === 'ppt') {
    return startsWith(data, OLE) ? { kind, suffix, contentType } : null;
  }
  if (kind === 'txt' || kind === 'csv') {
    const charset = textCharset(data);
    return charset ? { kind, suffix, contentType: `${contentType}; charset=${charset}` } : null;
  }
  const names = zipEntryNames(data);
  if (!names) return null;
  const part = OOXML_PART[kind];
  if (part && !names.some((name) => name.startsWith(part))) return null;
  return { kind, suffix, contentType };
}
