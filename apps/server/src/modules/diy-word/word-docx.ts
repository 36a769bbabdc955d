import { inflateRawSync } from 'node:zlib';
import {
  WORD_TEMPLATE_MAX_ENTRIES,
  WORD_TEMPLATE_MAX_UNPACKED,
  type WordName,
} from '@shuzhi/contracts/diy-word';
import Docxtemplater from 'docxtemplater';
import PizZip from 'pizzip';
import { AppError } from '../../platform/errors/app-error.ts';
import { checkLimits, readDirectory, type ZipEntry, ZipError } from '../../platform/xlsx/zip-read.ts';

/**
 * The .docx side of Word documents: a template is unpacked under limits (zip bombs), compiled by docxtemplater
 * (a broken document or unbalanced tags → W1002), its placeholders listed and checked against the names of
 * its source (W1003), and rendered with values. Placeholders are names or `name op literal` comparisons read by
 * the small parser below: nothing in a template is ever evaluated as code.
 */

/** An entry packing better than this (and over a megabyte) is a bomb, not a document. */
const MAX_RATIO = 200;

/** The placeholders of a template were checked and some name nothing: the names, for the answer's `errors`. */
export class WordPlaceholderError extends AppError {
  constructor(readonly names: string[]) {
    super('W1003', { names: names.join(', ') });
  }
}

const broken = (reason: string) => new AppError('W1002', { reason });

/** The entries of a .docx, unpacked one by one, none beyond the size its directory declares. */
async function unpack(bytes: Buffer): Promise<PizZip> {
  let entries: ZipEntry[];
  try {
    const source = {
      size: bytes.length,
      read: async (position: number, length: number) => bytes.subarray(position, position + length),
    };
    entries = await readDirectory(source, WORD_TEMPLATE_MAX_ENTRIES);
    checkLimits(entries, {
      entries: WORD_TEMPLATE_MAX_ENTRIES,
      unpacked: WORD_TEMPLATE_MAX_UNPACKED,
      ratio: MAX_RATIO,
      ratioFloor: 1024 * 1024,
    });
  } catch (error) {
    if (error instanceof ZipError) throw error.kind === 'limit' ? new AppError('W1004') : broken('zip');
    throw error;
  }
  const zip = new PizZip();
  for (const entry of entries) {
    if (entry.name.endsWith('/')) continue;
    const header = bytes.subarray(entry.offset, entry.offset + 30);
    if (header.length < 30 || header.readUInt32LE(0) !== 0x04034b50) throw broken('zip');
    const start = entry.offset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
    const packed = bytes.subarray(start, start + entry.compressed);
    if (packed.length !== entry.compressed) throw broken('zip');
    let data: Buffer;
    try {
      data =
        entry.method === 0 ? packed : inflateRawSync(packed, { maxOutputLength: Math.max(entry.size, 1) });
    } catch (error) {
      // More than declared is a directory that lies: a bomb.
      if (error instanceof RangeError) throw new AppError('W1004');
      throw broken('zip');
    }
    if (data.length !== entry.size) throw new AppError('W1004');
    zip.file(entry.name, data);
  }
  if (!zip.file('word/document.xml')) throw broken('word/document.xml');
  return zip;
}

// ---------------------------------------------------------------------------------------------------------
// Placeholders

type Op = '==' | '!=' | '>' | '>=' | '<' | '<=';
type Tag = { name: string; op: Op | null; literal: string | number | null };

const NAME = /^[$A-Za-z_\u4e00-\u9fff][\w$.\u4e00-\u9fff-]{0,63}$/u;
const COMPARISON = /^(\S+?)\s*(==|!=|>=|<=|>|<)\s*(?:"([^"]*)"|'([^']*)'|(-?\d+(?:\.\d+)?))$/u;

/** A placeholder's text as a name or a comparison; null when it is neither (W1003 names it). */
export function parseTag(text: string): Tag | null {
  const tag = text.trim();
  if (tag === '.') return { name: '.', op: null, literal: null };
  const compared = COMPARISON.exec(tag);
  if (compared) {
    const name = compared[1] as string;
    if (!NAME.test(name)) return null;
    const literal = compared[5] !== undefined ? Number(compared[5]) : (compared[3] ?? compared[4] ?? '');
    return { name, op: compared[2] as Op, literal };
  }
  return NAME.test(tag) ? { name: tag, op: null, literal: null } : null;
}

function compare(value: unknown, op: Op, literal: string | number): boolean {
  if (typeof literal === 'number') {
    const n = typeof value === 'number' ? value : Number(value);
    if (value === null || value === undefined || value === '' || !Number.isFinite(n)) return op === '!=';
    if (op === '==') return n === literal;
    if (op === '!=') return n !== literal;
    if (op === '>') return n > literal;
    if (op === '>=') return n >= literal;
    if (op === '<') return n < literal;
    return n <= literal;
  }
  const text = value === null || value === undefined ? '' : String(value);
  if (op === '==') return text === literal;
  if (op === '!=') return text !== literal;
  if (op === '>') return text > literal;
  if (op === '>=') return text >= literal;
  if (op === '<') return text < literal;
  return text <= literal;
}

/**
 * Where a scope keeps the stored values of fields it prints by label (options, dictionaries, orgs): a condition
 * matches either, so `{#result == "fix"}` and `{#result == "限期整改"}` both work.
 */
export const STORED = Symbol('stored values');

/** docxtemplater's parser: a name is looked up (undefined sends the lookup to the enclosing scope). */
function parser(text: string) {
  const tag = parseTag(text);
  return {
    get(scope: unknown) {
      if (!tag) return undefined;
      if (tag.name === '.') return scope;
      if (scope === null || typeof scope !== 'object' || !Object.hasOwn(scope, tag.name)) return undefined;
      const value = (scope as Record<string, unknown>)[tag.name];
      if (!tag.op) return value;
      const literal = tag.literal as string | number;
      const stored = (scope as { [STORED]?: Record<string, unknown> })[STORED]?.[tag.name];
      if (stored === undefined || tag.op === '!=' || typeof literal === 'number')
        return compare(value, tag.op, literal) && (stored === undefined || compare(stored, tag.op, literal));
      return compare(value, tag.op, literal) || compare(stored, tag.op, literal);
    },
  };
}

type DxtPart = { type: string; value: string; module?: string; subparsed?: DxtPart[] };

function explain(error: unknown): string {
  const props = (error as { properties?: { errors?: unknown[]; id?: string; xtag?: string } }).properties;
  const list = props?.errors?.length ? props.errors : [error];
  return list
    .slice(0, 5)
    .map((e) => {
      const p = (e as { properties?: { id?: string; xtag?: string } }).properties;
      return p?.xtag ? `${p.id ?? 'error'} {${p.xtag}}` : (p?.id ?? 'docx');
    })
    .join('; ');
}

/** A compiled template: its placeholders as written (`#hazards`, `desc`, `/hazards` left out) and its parts. */
export type Compiled = { doc: Docxtemplater; parts: DxtPart[]; placeholders: string[] };

/** Unpacks (W1004 bombs, W1002 no .docx) and compiles (W1002 broken tags) a template. */
export async function compileTemplate(bytes: Buffer): Promise<Compiled> {
  const zip = await unpack(bytes);
  let doc: Docxtemplater;
  try {
    doc = new Docxtemplater(zip, {
      paragraphLoop: true,
      linebreaks: true,
      parser,
      nullGetter: () => '',
      errorLogging: false,
    });
  } catch (error) {
    throw broken(explain(error));
  }
  // The compiled parts of every templated file (the document, headers, footers), as docxtemplater holds them.
  const files = (doc as unknown as { compiled: Record<string, { postparsed: DxtPart[] }> }).compiled;
  const parts = Object.values(files).flatMap((file) => file.postparsed);
  const placeholders: string[] = [];
  const walk = (list: DxtPart[]) => {
    for (const part of list) {
      if (part.type !== 'placeholder') continue;
      const prefix = part.module === 'loop' ? '#' : part.module === 'rawxml' ? '@' : '';
      const text = `${prefix}${part.value}`;
      if (!placeholders.includes(text)) placeholders.push(text);
      if (part.subparsed) walk(part.subparsed);
    }
  };
  walk(parts);
  return { doc, parts, placeholders };
}

/**
 * Placeholder names that name nothing: a top-level name must be one of `names`; inside a loop over a list
 * name, also the list's inner names; inside a condition, the enclosing names. Raw XML (`{@x}`) is refused.
 */
export function unknownNames(parts: DxtPart[], names: readonly WordName[]): string[] {
  const top = new Map(names.map((n) => [n.name, n]));
  const bad: string[] = [];
  const walk = (list: DxtPart[], scope: Set<string>) => {
    for (const part of list) {
      if (part.type !== 'placeholder') continue;
      const tag = parseTag(part.value);
      const known = tag && (tag.name === '.' || scope.has(tag.name));
      if (!known || part.module === 'rawxml') {
        if (!bad.includes(part.value)) bad.push(part.value);
      }
      if (!part.subparsed) continue;
      const loop = tag && !tag.op ? top.get(tag.name) : undefined;
      const inner = loop?.kind === 'loop' ? new Set([...scope, ...loop.inner.map((i) => i.name)]) : scope;
      walk(part.subparsed, inner);
    }
  };
  walk(parts, new Set(top.keys()));
  return bad;
}

/** The filled document. */
export function render(compiled: Compiled, data: Record<string, unknown>): Buffer {
  try {
    compiled.doc.render(data);
  } catch (error) {
    throw new AppError('W1009', { reason: explain(error) });
  }
  return compiled.doc.getZip().generate({ type: 'nodebuffer', compression: 'DEFLATE' });
}
