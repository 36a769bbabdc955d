/**
 * Notices (通知公告): this file is the module's face to other modules. Its parts: the rows a caller may see
 * (`notice-store.ts`), the administrators' page (`notice-admin.ts`), audiences and their pickers
 * (`notice-audience.ts`), publishing and withdrawing (`notice-publish.ts`), inbox rows (`notice-delivery.ts`)
 * and the caller's inbox (`notice-inbox.ts`).
 */

export { publishDueNotices } from './notice-publish.ts';
