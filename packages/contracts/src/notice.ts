import { z } from 'zod';
import { auditFieldsSchema, filterNumber, filterText, MAX_BATCH } from './crud.ts';
import { idSchema, pageInputSchema } from './envelope.ts';
import { roleChoiceSchema } from './role.ts';
export const NOTICE_STATUS = { draft: 0, published: 1, withdrawn: 2, scheduled: 3 } as const;
export const NOTICE_AUDIENCE = { all: 1, orgs: 2, roles: 3, users: 4 } as const;
export const NOTICE_READ = { unread: 0, read: 1 } as const;

/** Longest body (HTML) accepted. */
const NOTICE_CONTENT_MAX = 200_000;
/** The newest unread notices `unReadList` returns (`unReadSummary` beside the count). */
export const UNREAD_LIST_SIZE = 5;

const noticeTypeSchema = z.union([z.literal(1), z.literal(2)]);
const noticeAudienceSchema = z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]);

const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/;
/** Whether `yyyy-MM-dd HH:mm[:ss]` names a real moment (no 2026-02-30, no 25:00). */
export function isCalendarTime(text: string): boolean {
  const [y, mo, d, h, mi, s = 0] = text.split(/[- :]/).map(Number) as number[];
  const date = new Date(Date.UTC(y as number, (mo as number) - 1, d, h, mi, s));
  return (
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === (mo as number) - 1 &&
    date.getUTCDate() === d &&
    date.getUTCHours() === h &&
    date.getUTCMinutes() === mi &&
    date.getUTCSeconds() === s
  );
}

/** `yyyy-MM-dd HH:mm[:ss]` in the server's time zone. */
const noticeDateTimeSchema = z.string().trim().regex(DATE_TIME).refine(isCalendarTime);

/** A notice as the admin page lists it (no body), with its audience resolved to names. */
export const noticeRowSchema = z
  .object({
    id: z.number(),
    title: z.string(),
    type: z.number(),
    status: z.number(),
    audience: z.number(),
    audienceIds: z.array(z.number()),
    /** Names of the audience's orgs, roles or users (empty for everyone), in the order of `audienceIds`. */
    audienceNames: z.array(z.string()),
    publishAt: z.string().nullable(),
    publicTime: z.string().nullable(),
    publicUserName: z.string().nullable(),
    publicOrgName: z.string().nullable(),
    cancelTime: z.string().nullable(),
    /** Inbox rows written at publishing (0 before), and how many of them are read. */
    recipientCount: z.number(),
    readCount: z.number(),
  })
  .extend(auditFieldsSchema.shape);
export type NoticeRow = z.infer<typeof noticeRowSchema>;

/** `GET /sysNotice/detail?Id=`: the row with its body. */
export const noticeDetailSchema = noticeRowSchema.extend({ content: z.string() });
export type NoticeDetail = z.infer<typeof noticeDetailSchema>;

/** The columns `list` and `export` return (the factory's row): no body, no audience ids. */
export const noticeListRowSchema = z
  .object({
    id: z.number(),
    title: z.string(),
    type: z.number(),
    status: z.number(),
    audience: z.number(),
    publishAt: z.string().nullable(),
    publicTime: z.string().nullable(),
    publicUserName: z.string().nullable(),
    publicOrgName: z.string().nullable(),
    cancelTime: z.string().nullable(),
  })
  .extend(auditFieldsSchema.shape);
export type NoticeListRow = z.infer<typeof noticeListRowSchema>;

const title = z.string().trim().min(1).max(128);
const content = z.string().max(NOTICE_CONTENT_MAX);
const audienceIds = z.array(idSchema).max(MAX_BATCH);

/** `POST /sysNotice/add`: a draft. Orgs, roles and users need `audienceIds` (D7003 when empty). */
export const noticeAddInputSchema = z.object({
  title,
  content,
  type: noticeTypeSchema.default(1),
  audience: noticeAudienceSchema.default(1),
  audienceIds: audienceIds.default([]),
});
export type NoticeAddInput = z.input<typeof noticeAddInputSchema>;

/** `POST /sysNotice/update`: fields left out keep their value. */
export const noticeUpdateInputSchema = z.object({
  id: idSchema,
  title: title.optional(),
  content: content.optional(),
  type: noticeTypeSchema.optional(),
  audience: noticeAudienceSchema.optional(),
  audienceIds: audienceIds.optional(),
});
export type NoticeUpdateInput = z.input<typeof noticeUpdateInputSchema>;

/** `sysNotice/page` (and `list`, `export`): title contains, type and status equal. */
export const noticePageInputSchema = pageInputSchema.extend({
  title: filterText,
  type: filterNumber,
  status: filterNumber,
});
export type NoticePageInput = z.input<typeof noticePageInputSchema>;

/** `POST /sysNotice/public`: now, or at `publishAt` (must lie ahead, D7002). */
export const noticePublishInputSchema = z.object({
  id: idSchema,
  publishAt: z.union([z.literal(''), z.null(), noticeDateTimeSchema]).optional(),
});

/** A notice in the caller's inbox. */
export const receivedNoticeSchema = z.object({
  id: z.number(),
  title: z.string(),
  type: z.number(),
  publicTime: z.string().nullable(),
  publicUserName: z.string().nullable(),
  publicOrgName: z.string().nullable(),
  readStatus: z.number(),
  readTime: z.string().nullable(),
});
export type ReceivedNotice = z.infer<typeof receivedNoticeSchema>;

/** `GET /sysNotice/received?id=`: one received notice with its body (reading it marks it read). */
export const receivedNoticeDetailSchema = receivedNoticeSchema.extend({ content: z.string() });
export type ReceivedNoticeDetail = z.infer<typeof receivedNoticeDetailSchema>;

/** `GET /sysNotice/pageReceived`: title contains, type, read status; newest first. */
export const receivedPageInputSchema = pageInputSchema.extend({
  title: filterText,
  type: filterNumber,
  readStatus: filterNumber,
});
export type ReceivedPageInput = z.input<typeof receivedPageInputSchema>;

/** `GET /sysNotice/unReadSummary`: how many are unread, and the newest of them. */
export const unreadListSchema = z.object({
  count: z.number(),
  items: z.array(receivedNoticeSchema),
});
export type UnreadList = z.infer<typeof unreadListSchema>;

export const noticeIdInputSchema = z.object({ id: idSchema });
export const noticeIdQuerySchema = z.object({ id: idSchema });

/** Realtime `notice`: a notice was published to the user. */
export type NoticeEventPayload = {
  id: number;
  title: string;
  type: number;
  publicTime: string;
  publicUserName: string | null;
};
/** Realtime `noticeWithdrawn`: a notice left the user's inbox. */
export type NoticeWithdrawnPayload = { id: number };

/** `GET /api/sysNotice/audienceUsers?keyword=&ids=`: users the editor may address (their data scope). */
export const audienceUsersQuerySchema = z.object({
  keyword: filterText,
  /** Comma-separated ids whose labels the editor needs. */
  ids: z
    .string()
    .max(20_000)
    .regex(/^[0-9]*(,[0-9]+)*$/)
    .optional(),
});
export const audienceUserSchema = z.object({
  id: z.number(),
  account: z.string(),
  realName: z.string(),
  orgName: z.string().nullable(),
});
export type AudienceUser = z.infer<typeof audienceUserSchema>;

/** `GET /api/sysNotice/audienceRoles`: the tenant's enabled roles. */
export const audienceRoleSchema = roleChoiceSchema;
export type AudienceRole = z.infer<typeof audienceRoleSchema>;

/** At most this many users per picker search. */
export const AUDIENCE_PICK_LIMIT = 20;
