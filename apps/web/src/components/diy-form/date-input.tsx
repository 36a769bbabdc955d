import { DatePicker, Input } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { FieldInputProps } from './field-input.tsx';

const DATE_FORMATS = {
  date: 'YYYY-MM-DD',
  datetime: 'YYYY-MM-DD HH:mm:ss',
  month: 'YYYY-MM',
  year: 'YYYY',
} as const;

/** A stored date text (the contract's formats, `2024-Q3` for quarters) as a dayjs value. */
function parseDateValue(type: string, value: unknown): Dayjs | null {
  if (typeof value !== 'string' || !value) return null;
  if (type === 'quarter') {
    const m = /^(\d{4})-Q([1-4])$/.exec(value);
    return m ? dayjs(`${m[1]}-${String((Number(m[2]) - 1) * 3 + 1).padStart(2, '0')}-01`) : null;
  }
  const parsed = dayjs(type === 'year' ? `${value}-01-01` : value);
  return parsed.isValid() ? parsed : null;
}

/** A dayjs value as the stored text of a date field. */
function formatDateValue(type: string, value: Dayjs | null): string | null {
  if (!value) return null;
  if (type === 'quarter') return `${value.year()}-Q${Math.floor(value.month() / 3) + 1}`;
  return value.format(DATE_FORMATS[type as keyof typeof DATE_FORMATS] ?? DATE_FORMATS.date);
}

/** Types the phone's own picker fills (`<input type=…>`), and the value shape of each. */
const NATIVE_DATE_TYPES: Partial<Record<string, 'date' | 'datetime-local' | 'month'>> = {
  date: 'date',
  datetime: 'datetime-local',
  month: 'month',
};

/** A stored date text as a native input's value (`2024-05-01 08:30:00` → `2024-05-01T08:30:00`), and back. */
const toNativeDate = (value: unknown) => (typeof value === 'string' ? value.replace(' ', 'T') : '');
function fromNativeDate(type: string, text: string): string | null {
  if (!text) return null;
  if (type !== 'datetime') return text;
  const joined = text.replace('T', ' ');
  return /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(joined) ? `${joined}:00` : joined;
}

/**
 * Date, date-time, month, quarter and year fields: antd's picker, or at phone width the phone's own date, date-time
 * and month wheels (`<input type=…>`, issue 22 §3); the stored text is the same either way.
 */
export function DateInput(
  props: FieldInputProps & { status?: 'error'; placeholder: string; testId: string },
) {
  const { field, value, onChange, onBlur, id, disabled, status } = props;
  const type = field.type;
  const picker = type === 'datetime' ? 'date' : (type as 'date' | 'month' | 'quarter' | 'year');
  const bound = (edge: unknown) => (typeof edge === 'string' && edge ? edge : null);
  const [min, max] = [bound(field.min), bound(field.max)];
  const native = props.phone ? NATIVE_DATE_TYPES[type] : undefined;
  if (native) {
    return (
      <Input
        id={id}
        data-testid={props.testId}
        type={native}
        value={toNativeDate(value)}
        onChange={(e) => onChange(fromNativeDate(type, e.target.value))}
        onBlur={onBlur}
        min={min ? toNativeDate(min) : undefined}
        max={max ? toNativeDate(max) : undefined}
        step={type === 'datetime' ? 1 : undefined}
        disabled={disabled}
        status={status}
        style={{ width: '100%' }}
      />
    );
  }
  return (
    <DatePicker
      id={id}
      data-testid={props.testId}
      picker={picker}
      showTime={type === 'datetime' ? { format: 'HH:mm:ss' } : undefined}
      value={parseDateValue(type, value)}
      onChange={(next) => onChange(formatDateValue(type, next))}
      onBlur={onBlur}
      onOpenChange={(open) => !open && onBlur()}
      disabledDate={
        min || max
          ? (d) => {
              const stored = formatDateValue(type, d) ?? '';
              return (min !== null && stored < min) || (max !== null && stored > max);
            }
          : undefined
      }
      placeholder={props.placeholder}
      disabled={disabled}
      status={status}
      style={{ width: '100%' }}
      inputReadOnly={props.phone}
    />
  );
}
