const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `yyyy-MM-dd HH:mm:ss` in the server's time zone: the one date format on the wire and in the database. */
export function formatDateTime(date: Date = new Date()): string {
  return `${formatDate(date)} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

let nowSecond = Number.NaN;
let nowText = '';

/**
 * `formatDateTime()` of the current second, formatted once per second: every envelope carries it, and
 * within a second the same string object comes back, so callers may compare it by identity.
 */
export function currentDateTime(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== nowSecond) {
    nowText = formatDateTime(new Date(now));
    nowSecond = second;
  }
  return nowText;
}

export function formatDate(date: Date = new Date()): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Parses `yyyy-MM-dd HH:mm:ss` (server time zone). */
export function parseDateTime(text: string): Date {
  const [day = '', time = '00:00:00'] = text.split(/[ T]/);
  const [y, mo, d] = day.split('-').map(Number);
  const [h, mi, s] = time.split(':').map((part) => Number.parseInt(part, 10));
  return new Date(y ?? 1970, (mo ?? 1) - 1, d ?? 1, h ?? 0, mi ?? 0, s ?? 0);
}
