/**
 * Realtime (socket.io, same port and origin as the API, path `/socket.io/`). The handshake carries the
 * access token as `auth.token`; a socket joins the rooms of its user, session and tenant.
 */
export const REALTIME_PATH = '/socket.io/';

/** Server → client events. */
export const REALTIME_EVENTS = {
  /** The session ended on the server (forced off, signed in elsewhere, disabled, signed out): go to /login. */
  forceOffline: 'forceOffline',
  /** Sessions of the tenant opened, ended, connected or disconnected: online-user lists refresh. */
  onlineUsersChanged: 'onlineUsersChanged',
  /** A notice was published to the user (contracts/notice.ts NoticeEventPayload): toast, unread count. */
  notice: 'notice',
  /** A notice left the user's inbox (withdrawn; NoticeWithdrawnPayload): the unread count refreshes. */
  noticeWithdrawn: 'noticeWithdrawn',
  /** Records the user filed were approved or returned (RecordReviewedPayload): toast, record lists refresh. */
  recordReviewed: 'recordReviewed',
} as const;

/** `recordReviewed`: which records of which form, approved or returned, with the reviewer's comment. */
export type RecordReviewedPayload = {
  tableId: number;
  tableTitle: string;
  ids: number[];
  action: 'approve' | 'return';
  comment: string | null;
  reviewerName: string;
};

/** Client → server events. */
export const REALTIME_CLIENT_EVENTS = {
  /** The user worked in the page (sent at most about once a minute): the session's last-active time. */
  active: 'active',
} as const;

/**
 * Why a session ended, as `revokeSession` / `revokeUserSessions` were told. `code` is the catalogue code the
 * client shows (D1025 for single login), absent when the reason has its own text or none (`logout`).
 */
export type ForceOfflinePayload = { reason: string; code?: string };

/** The handshake's refusal message (`connect_error`): the client renews its token and reconnects. */
export const REALTIME_UNAUTHORIZED = 'unauthorized';
