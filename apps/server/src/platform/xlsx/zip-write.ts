import type { Writable } from 'node:stream';
import { constants, crc32, createDeflateRaw, type DeflateRaw } from 'node:zlib';
import { wallClockAt } from '../db/time.ts';

/**
 * A zip archive written entry by entry to a stream, each entry deflated as its text is written, with
 * backpressure down to the destination (an HTTP response or a file). Entries use data descriptors (sizes after
 * the data), so nothing needs to be known in advance. No ZIP64: an entry and the archive are limited to 4 GB
 * (a worksheet of about two million rows of 30 fields); beyond that the write fails with an error instead of
 * producing a broken file.
 */

const LIMIT_32 = 0xffff_ffff;

/** Resolves when `stream` wants more, or has closed (the client went away). */
export function writable(stream: Writable): Promise<void> {
  if (stream.destroyed || !stream.writableNeedDrain) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

/** The destination closed before the archive was complete (a download the client cancelled). */
export class ClientGoneError extends Error {
  constructor() {
    super('the client closed the download');
  }
}

type Entry = { name: Buffer; crc: number; size: number; compressed: number; offset: number };

/** An open entry: write its text with `write`, then `end`. */
export type ZipEntryWriter = { write: (text: string) => Promise<void>; end: () => Promise<void> };

export class ZipWriter {
  private offset = 0;
  private readonly entries: Entry[] = [];
  private readonly time: number;
  private readonly date: number;

  constructor(private readonly out: Writable) {
    // Zip times are wall-clock times without a zone: the product's.
    const now = wallClockAt();
    this.time = (now.hour << 11) | (now.minute << 5) | Math.floor(now.second / 2);
    this.date = ((now.year - 1980) << 9) | (now.month << 5) | now.day;
  }

  private async push(buffer: Buffer): Promise<void> {
    if (this.out.destroyed) throw new ClientGoneError();
    this.offset += buffer.length;
    if (!this.out.write(buffer)) await writable(this.out);
  }

  async open(name: string): Promise<ZipEntryWriter> {
    const entry: Entry = {
      name: Buffer.from(name, 'utf8'),
      crc: 0,
      size: 0,
      compressed: 0,
      offset: this.offset,
    };
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4); // version needed
    header.writeUInt16LE(0x0808, 6); // sizes in a data descriptor, UTF-8 names
    header.writeUInt16LE(8, 8); // deflate
    header.writeUInt16LE(this.time, 10);
    header.writeUInt16LE(this.date, 12);
    header.writeUInt16LE(entry.name.length, 26);
    await this.push(Buffer.concat([header, entry.name]));

    const deflate: DeflateRaw = createDeflateRaw({ level: constants.Z_BEST_SPEED + 2 });
    const out = this.out;
    const gone = () => deflate.destroy();
    out.once('close', gone);
    deflate.on('data', (chunk: Buffer) => {
      entry.compressed += chunk.length;
      if (!out.write(chunk)) {
        deflate.pause();
        void writable(out).then(() => deflate.resume());
      }
    });
    const finished = new Promise<void>((resolve, reject) => {
      deflate.once('end', resolve);
      deflate.once('error', reject);
      deflate.once('close', () => (out.destroyed ? reject(new ClientGoneError()) : resolve()));
    });
    // An entry left open when the client goes away is never ended: its failure is the writer's, not unhandled.
    finished.catch(() => undefined);
    return {
      write: async (text: string) => {
        if (out.destroyed) throw new ClientGoneError();
        const buffer = Buffer.from(text, 'utf8');
        entry.crc = crc32(buffer, entry.crc);
        entry.size += buffer.length;
        if (entry.size > LIMIT_32) throw new Error('worksheet too large for one zip entry (4 GB)');
        if (!deflate.write(buffer)) await writable(deflate);
      },
      end: async () => {
        deflate.end();
        await finished;
        out.off('close', gone);
        this.offset += entry.compressed;
        const descriptor = Buffer.alloc(16);
        descriptor.writeUInt32LE(0x08074b50, 0);
        descriptor.writeUInt32LE(entry.crc >>> 0, 4);
        descriptor.writeUInt32LE(entry.compressed, 8);
        descriptor.writeUInt32LE(entry.size, 12);
        this.entries.push(entry);
        await this.push(descriptor);
      },
    };
  }

  async file(name: string, text: string): Promise<void> {
    const entry = await this.open(name);
    await entry.write(text);
    await entry.end();
  }

  /** The central directory and its end record. */
  async finish(): Promise<void> {
    if (this.offset > LIMIT_32) throw new Error('workbook too large (4 GB)');
    const start = this.offset;
    const parts: Buffer[] = [];
    for (const e of this.entries) {
      const record = Buffer.alloc(46);
      record.writeUInt32LE(0x02014b50, 0);
      record.writeUInt16LE(20, 4);
      record.writeUInt16LE(20, 6);
      record.writeUInt16LE(0x0808, 8);
      record.writeUInt16LE(8, 10);
      record.writeUInt16LE(this.time, 12);
      record.writeUInt16LE(this.date, 14);
      record.writeUInt32LE(e.crc >>> 0, 16);
      record.writeUInt32LE(e.compressed, 20);
      record.writeUInt32LE(e.size, 24);
      record.writeUInt16LE(e.name.length, 28);
      record.writeUInt32LE(e.offset, 42);
      parts.push(record, e.name);
    }
    const directory = Buffer.concat(parts);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(start, 16);
    await this.push(Buffer.concat([directory, end]));
  }
}
