import { HOME_LIST_SIZE, type HomeSummary } from '@shuzhi/contracts/dashboard';
import { RECORD_STATUS } from '@shuzhi/contracts/diy-form';
import type { Locale } from '@shuzhi/contracts/i18n';
import { NOTICE_READ } from '@shuzhi/contracts/notice';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { myFilings } from '../diy-collect/my-filings.ts';
import { auditPage } from '../diy-data/diy-review.ts';
import { tableList } from '../diy-table/diy-table.service.ts';
import { myTaskPage } from '../diy-task/task-read.ts';
import { receivedPage, unreadSummary } from '../notice/notice-inbox.ts';
import { formProgress } from './form-board.ts';

/** Open task parts read for the counts, at most (a unit with more sees the first ones counted). */
const OPEN_TASKS_READ = 200;
/** A task is due soon within this many days. */
const DUE_SOON_DAYS = 3;
/** Owned forms whose progress the home page shows, at most. */
const OWNED_LIMIT = 8;

/**
 * `GET /api/dashboard/home` (issue 20 §1): every count comes from the list the home page opens for it —
 * 我的任务 (`myTaskPage`, open parts), 报表审核 (`auditPage`, submitted records), 本期填报 (`myFilings`,
 * returned ones) and the inbox (`receivedPage`, `unreadSummary`) — so a number and its list never disagree.
 * The owned forms' progress is the roll-up's figure of each form (`formProgress`).
 */
export async function homeSummary(ctx: AppContext, user: AuthUser, locale: Locale): Promise<HomeSummary> {
  const now = formatDateTime();
  const soon = formatDateTime(new Date(Date.now() + DUE_SOON_DAYS * 86_400_000));
  const tasks = await myTaskPage(
    ctx,
    user,
    { page: 1, pageSize: OPEN_TASKS_READ, descStr: 'descending', open: true },
    locale,
  );
  const open = tasks.items
    .filter((t) => t.submittedForms < t.forms.length)
    .map((t) => ({ id: t.id, title: t.title, dueTime: t.myDueTime, overdue: t.overdue || t.myDueTime < now }))
    .sort((a, b) => a.dueTime.localeCompare(b.dueTime));
  const review = await auditPage(
    ctx,
    user,
    { page: 1, pageSize: 1, descStr: 'descending', status: RECORD_STATUS.submitted },
    locale,
  );
  const filings = await myFilings(ctx, user, locale);
  const owned: HomeSummary['owned'] = [];
  const items = await tableList(ctx, user, {}, locale);
  for (const item of items) {
    if (owned.length >= OWNED_LIMIT) break;
    if (item.reportType !== 1 || item.periodKind === 'none' || !item.currentPeriod || !item.myAuth.design)
      continue;
    const progress = await formProgress(ctx, user, item.id, locale).catch((error: unknown) => {
      // A form behind a password (F1007) or closed to the caller is left out, not a failed home page.
      if (error instanceof AppError) return null;
      throw error;
    });
    if (!progress) continue;
    owned.push({
      tableId: item.id,
      title: item.title,
      periodId: progress.period.id,
      periodName: progress.period.name,
      dueDate: item.currentPeriod.dueDate,
      records: progress.records,
      pending: progress.pending,
      expected: progress.expected,
      missing: progress.missing,
    });
  }
  const unread = await unreadSummary(ctx, user);
  const notices = await receivedPage(ctx, user, { page: 1, pageSize: HOME_LIST_SIZE, descStr: 'descending' });
  return {
    tasks: {
      open: open.length,
      overdue: open.filter((t) => t.overdue).length,
      dueSoon: open.filter((t) => !t.overdue && t.dueTime <= soon).length,
      items: open.slice(0, HOME_LIST_SIZE),
    },
    review: review.total > 0 || items.some((i) => i.myAuth.audit) ? review.total : null,
    returned: filings
      .filter((f) => f.recordStatus === RECORD_STATUS.returned)
      .map((f) => ({ tableId: f.id, title: f.title, periodName: f.currentPeriod.name })),
    owned,
    notices: {
      unread: unread.count,
      items: notices.items.map((n) => ({
        id: n.id,
        title: n.title,
        publicTime: n.publicTime,
        read: n.readStatus === NOTICE_READ.read,
      })),
    },
  };
}
