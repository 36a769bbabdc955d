import type { TFunction } from 'i18next';

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

/** Bytes in binary units with up to one decimal: 1536 → "1.5 KB". */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return '-';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const text =
    unit === 0 ? String(Math.round(value)) : value.toFixed(value >= 100 ? 0 : 1).replace(/\.0$/, '');
  return `${text} ${UNITS[unit]}`;
}

/** Seconds as its two largest non-zero units, translated: 93784 → "1 天 2 小时". */
export function formatDuration(t: TFunction, totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const parts = [
    ['d', Math.floor(s / 86400)],
    ['h', Math.floor((s % 86400) / 3600)],
    ['m', Math.floor((s % 3600) / 60)],
    ['s', s % 60],
  ] as const;
  const first = parts.findIndex(([, n]) => n > 0);
  if (first < 0) return t('monitor.duration.s', { count: 0 });
  return parts
    .slice(first, first + 2)
    .filter(([, n]) => n > 0)
    .map(([unit, n]) => t(`monitor.duration.${unit}`, { count: n }))
    .join(' ');
}

/** Progress colour by load: calm below 70 %, warning below 90 %, alarm above. */
export function usageStatus(percent: number): 'normal' | 'warning' | 'danger' {
  if (percent >= 90) return 'danger';
  if (percent >= 70) return 'warning';
  return 'normal';
}
