import type { MyFiling } from '@shuzhi/contracts/diy-collect';
import { RECORD_STATUS } from '@shuzhi/contracts/diy-form';

/** Submitted or approved: the caller's part of this period is done. */
export function isFiled(filing: Pick<MyFiling, 'recordStatus'>): boolean {
  return filing.recordStatus === RECORD_STATUS.submitted || filing.recordStatus === RECORD_STATUS.approved;
}

/** Late: submitted after the due date, or not submitted yet while the period is past it (in grace). */
export function isLate(filing: Pick<MyFiling, 'recordStatus' | 'late' | 'currentPeriod'>): boolean {
  return filing.late || (filing.currentPeriod.state === 'grace' && !isFiled(filing));
}

/** Days from `today` to the due date (both `YYYY-MM-DD` in the product's zone); negative once it passed. */
export function daysToDue(dueDate: string, today: string): number {
  const day = (text: string) =>
    Date.UTC(Number(text.slice(0, 4)), Number(text.slice(5, 7)) - 1, Number(text.slice(8, 10)));
  return Math.round((day(dueDate) - day(today)) / 86_400_000);
}
