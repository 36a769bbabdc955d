/**
 * Notices (通知公告): this file is the module's face to other modules. Its parts: the rows a caller may see
 * (`notice-store.ts`), the administrators' page (`notice-admin.ts`), audiences and their pickers
 * (`notice-audience.ts`), publishing and withdrawing (`notice-publish.ts`), inbox rows (`notice-delivery.ts`)
 * and the caller's inbox (`notice-inbox.ts`).
 */

export { sanitizeNoticeHtml } from './notice.sanitize.ts';
export { announcePublished, publishDueNotices } from './notice-publish.ts';
export {
  type NoticeSender,
  type OrgNotice,
  publishToOrgUsers,
  publishToUsers,
} from './notice-system.ts';
