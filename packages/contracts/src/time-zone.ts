/**
 * The product's one time zone (issue 16 §1): the server computes periods, due dates, numbers by date and
 * cron runs in it, writes `yyyy-MM-dd HH:mm:ss` in it, and the browser shows every time in it instead of its
 * own. Wall-clock arithmetic goes through Intl, never through the process's or the browser's own zone.
 */

export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';

/** A moment as a clock on the wall of the zone shows it (month 1–12). */
export type WallClock = {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
};

/** Whether `name` is an IANA zone this runtime knows (`Asia/Shanghai`, `UTC`, `America/New_York`). */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `yyyy-MM-dd` of a wall clock. */
const wallDate = (w: WallClock) => `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;

/** `yyyy-MM-dd HH:mm:ss` of a wall clock. */
export const wallDateTime = (w: WallClock) =>
  `${wallDate(w)} ${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;

/** Reads `yyyy-MM-dd[ HH:mm[:ss]]` (a `T` also separates); missing parts are the start of the day. */
export function parseWallClock(text: string): WallClock {
  const [day = '', time = ''] = text.trim().split(/[ T]/);
  const [year, month, dayOfMonth] = day.split('-').map(Number);
  const [hour, minute, second] = time.split(':').map((part) => Number.parseInt(part, 10));
  return {
    year: year || 1970,
    month: month || 1,
    day: dayOfMonth || 1,
    hour: hour || 0,
    minute: minute || 0,
    second: second || 0,
  };
}

/** Offsets are looked up once per quarter hour of UTC (every zone in use changes its offset on one). */
const BUCKET_MS = 15 * 60_000;
const CACHE_LIMIT = 4096;

/**
 * Wall-clock conversions in one zone. The zone's offset at a moment is read through Intl once per quarter
 * hour and kept, so a conversion costs a map lookup and UTC arithmetic (the server formats a time on every
 * write).
 */
export class ZoneClock {
  private readonly parts: Intl.DateTimeFormat;
  private readonly offsets = new Map<number, number>();

  constructor(readonly timeZone: string) {
    if (!isTimeZone(timeZone)) throw new RangeError(`unknown time zone "${timeZone}"`);
    this.parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  }

  /** The zone's offset from UTC at `epochMs`, in ms (Shanghai: +28,800,000). */
  offsetAt(epochMs: number): number {
    const bucket = Math.floor(epochMs / BUCKET_MS);
    const cached = this.offsets.get(bucket);
    if (cached !== undefined) return cached;
    const start = bucket * BUCKET_MS;
    const offset = this.exactOffset(start);
    // A bucket whose two ends differ holds a change at an odd moment (old local mean times): not cached.
    if (this.exactOffset(start + BUCKET_MS - 1000) !== offset) return this.exactOffset(epochMs);
    if (this.offsets.size >= CACHE_LIMIT) this.offsets.clear();
    this.offsets.set(bucket, offset);
    return offset;
  }

  private exactOffset(epochMs: number): number {
    const seconds = Math.floor(epochMs / 1000) * 1000;
    const w = this.readParts(seconds);
    return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - seconds;
  }

  private readParts(epochMs: number): WallClock {
    const w: WallClock = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
    for (const part of this.parts.formatToParts(epochMs)) {
      if (part.type in w) w[part.type as keyof WallClock] = Number(part.value);
    }
    return w;
  }

  /** The wall clock of the zone at `date`. */
  wallClock(date: Date | number): WallClock {
    const epoch = typeof date === 'number' ? date : date.getTime();
    const shifted = new Date(epoch + this.offsetAt(epoch));
    return {
      year: shifted.getUTCFullYear(),
      month: shifted.getUTCMonth() + 1,
      day: shifted.getUTCDate(),
      hour: shifted.getUTCHours(),
      minute: shifted.getUTCMinutes(),
      second: shifted.getUTCSeconds(),
    };
  }

  /**
   * The moment the zone's clocks show `w`. A time skipped by a clock going forward is read with the offset
   * before the change (an hour later); a time shown twice when it goes back is the first of the two.
   */
  instant(w: WallClock): Date {
    const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
    const before = this.offsetAt(asUtc - 86_400_000);
    const after = this.offsetAt(asUtc + 86_400_000);
    const first = asUtc - before;
    if (before === after || this.offsetAt(first) === before) return new Date(first);
    const second = asUtc - after;
    return new Date(this.offsetAt(second) === after ? second : first);
  }

  /** `yyyy-MM-dd HH:mm:ss` in the zone. */
  formatDateTime(date: Date | number): string {
    return wallDateTime(this.wallClock(date));
  }

  /** `yyyy-MM-dd` in the zone. */
  formatDate(date: Date | number): string {
    return wallDate(this.wallClock(date));
  }
}
