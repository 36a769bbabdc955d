import type { PageResult } from '@shuzhi/contracts/envelope';
import type {
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
import type { RoleOption } from '@shuzhi/contracts/role';
import { createResource } from '../../platform/data/resource.ts';
import { http } from '../../platform/http/http.ts';

export type { NoticeDetail, NoticeRow, ReceivedNotice, ReceivedNoticeDetail, UnreadList };
export type NoticeFilters = Pick<NoticePageInput, 'title' | 'type' | 'status'>;
export type InboxFilters = Pick<ReceivedPageInput, 'title' | 'type' | 'readStatus'>;

export const noticeResource = createResource<NoticeRow, NoticeFilters>('sysNotice');

/** A user as the recipient picker shows it (`POST /api/sysUser/page` items). */
export type PickableUser = { id: number; account: string; realName: string; orgName: string | null };

const silent = { silent: true } as const;

export const noticeApi = {
  detail: (id: number) => http.get<NoticeDetail>('/api/sysNotice/detail', { Id: id }, silent),
  add: (body: NoticeAddInput) => http.post<number>('/api/sysNotice/add', body, silent),
  update: (body: NoticeUpdateInput) => http.post<null>('/api/sysNotice/update', body, silent),
  /** Now, or at `publishAt` (`yyyy-MM-dd HH:mm:ss`). */
  publish: (id: number, publishAt?: string) =>
    http.post<null>('/api/sysNotice/public', publishAt ? { id, publishAt } : { id }, silent),
  withdraw: (id: number) => http.post<null>('/api/sysNotice/withdraw', { id }, silent),

  unread: () => http.get<UnreadList>('/api/sysNotice/unReadList', undefined, silent),
  pageReceived: (query: InboxFilters & { page: number; pageSize: number }) =>
    http.get<PageResult<ReceivedNotice>>('/api/sysNotice/pageReceived', query, silent),
  /** One received notice with its body; the server marks it read. */
  received: (id: number) => http.get<ReceivedNoticeDetail>('/api/sysNotice/received', { id }, silent),
  setRead: (id: number) => http.post<null>('/api/sysNotice/setRead', { id }, silent),
  setAllRead: () => http.post<null>('/api/sysNotice/setAllRead', undefined, silent),

  roles: () => http.get<RoleOption[]>('/api/sysRole/list', undefined, silent),
  /** Users of the caller's scope matching a keyword (account, name, phone), for the recipient picker. */
  searchUsers: (keyword: string) =>
    http.post<PageResult<PickableUser>>(
      '/api/sysUser/page',
      { keyword, page: 1, pageSize: 20, descStr: 'descending' },
      silent,
    ),
};

/** Every key starts with the service, so one invalidation of `['sysNotice']` refreshes them all. */
export const NOTICE_KEYS = {
  all: ['sysNotice'] as const,
  detail: (id: number) => ['sysNotice', 'detail', id] as const,
  unread: ['sysNotice', 'unread'] as const,
  inbox: (query: object) => ['sysNotice', 'inbox', query] as const,
  received: (id: number) => ['sysNotice', 'received', id] as const,
  roles: ['sysRole', 'list', 'notice'] as const,
  users: (keyword: string) => ['sysUser', 'pick', 'notice', keyword] as const,
};
