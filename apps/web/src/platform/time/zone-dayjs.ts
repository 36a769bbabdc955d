import { wallDateTime } from '@shuzhi/contracts/time-zone';
import dayjs, { type Dayjs } from 'dayjs';
import { wallClockNow } from './time-zone.ts';

/**
 * A dayjs whose fields show the zone's wall clock, like the dayjs values date pickers make from the server's
 * times: for "today" and "now" bounds of pickers and presets. Not a moment to send anywhere.
 */
export const zoneDayjs = (date: Date | number = Date.now()): Dayjs => dayjs(wallDateTime(wallClockNow(date)));
