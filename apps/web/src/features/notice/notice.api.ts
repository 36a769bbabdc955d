import type { PageResult } from '@shuzhi/contracts/envelope';
import type {
  AudienceRole,
  AudienceUser,
  NoticeAddInput,
  NoticeDetail,
  NoticePageInput,
  NoticeRow,
  NoticeUpdateInput,
  ReceivedNotice,
  ReceivedNoticeDetail,
  ReceivedPageInput,
  UnreadList,
} from '@shuzhi/contracts/notice';
import { createResource } from '../../platform/data/resource.ts';
import { http } from '../../platform/http/http.ts';

export type { NoticeDetail, NoticeRow, ReceivedNotice, ReceivedNoticeDetail, UnreadList };
export type NoticeFilters = Pick<NoticePageInput, 'title' | 'type' | 'status'>;
export type InboxFilters = Pick<ReceivedPageInput, 'title' | 'type' | 'readStatus'>;

export const noticeResource = createResource<NoticeRow, NoticeFilters>('sysNotice');

const silent = { silent: true } as const;

export const noticeApi = {
  detail: (id: number) => http.get<NoticeDetail>('/api/sysNotice/detail', { Id: id }, silent),
  add: (body: NoticeAddInput) => http.post<number>('/api/sysNotice/add', body, silent),
  update: (body: NoticeUpdateInput) => http.post<null>('/api/sysNotice/update', body, silent),
  /** Now, or at `publishAt` (`yyyy-MM-dd HH:mm:ss`). */
  publish: (id: number, publishAt?: string) =>
    http.post<null>('/api/sysNotice/public', publishAt ? { id, publishAt } : { id }, silent),
  withdraw: (id: number) => http.post<null>('/api/sysNotice/withdraw', { id }, silent),

  unread: () => http.get<UnreadList>('/api/sysNotice/unReadSummary', undefined, silent),
  pageReceived: (query: InboxFilters & { page: number; pageSize: number }) =>
    http.get<PageResult<ReceivedNotice>>('/api/sysNotice/pageReceived', query, silent),
  /** One received notice with its body; the server marks it read. */
  received: (id: number) => http.get<ReceivedNoticeDetail>('/api/sysNotice/received', { id }, silent),
  setRead: (id: number) => http.post<null>('/api/sysNotice/setRead', { id }, silent),
  setAllRead: () => http.post<null>('/api/sysNotice/setAllRead', undefined, silent),

  /** The tenant's enabled roles (the editor needs no role-admin permission). */
  roles: () => http.get<AudienceRole[]>('/api/sysNotice/audienceRoles', undefined, silent),
  /** Users of the caller's scope matching a keyword (account, name), for the recipient picker. */
  searchUsers: (keyword: string) =>
    http.get<AudienceUser[]>('/api/sysNotice/audienceUsers', keyword ? { keyword } : undefined, silent),
};

/** Every key starts with the service, so one invalidation of `['sysNotice']` refreshes them all. */
export const NOTICE_KEYS = {
  all: ['sysNotice'] as const,
  detail: (id: number) => ['sysNotice', 'detail', id] as const,
  unread: ['sysNotice', 'unread'] as const,
  inbox: (query: object) => ['sysNotice', 'inbox', query] as const,
  received: (id: number) => ['sysNotice', 'received', id] as const,
  roles: ['sysNotice', 'audienceRoles'] as const,
  users: (keyword: string) => ['sysNotice', 'audienceUsers', keyword] as const,
};
