import { randomBytes } from 'node:crypto';
import type { LoginResult } from '@shuzhi/contracts/auth';
import {
  SCAN_LOGIN_PATH,
  SCAN_LOGIN_TTL_SECONDS,
  type ScanLoginCreateResult,
  type ScanLoginStatus,
} from '@shuzhi/contracts/login-modes';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { type Client, completeLogin, type Signer, withVisitLog } from './complete-login.ts';

/**
 * Scan login: the desktop shows a QR code of a ticket; a phone signed in as someone opens it, marks it
 * scanned and confirms; the desktop, polling, then receives a session of its own for that user. Tickets live
 * in the shared cache, so desktop, phone and polling may hit different processes.
 */
export const scanKeys = {
  ticket: (id: string) => `scan:${id}`,
  tokens: (id: string) => `scan-tokens:${id}`,
};

type Ticket = {
  status: 'waiting' | 'scanned' | 'confirmed';
  expiresAt: number;
  /** The desktop that asked, for its session row and the visit log. */
  client: Client;
  userId?: number;
  realName?: string;
};

const secondsLeft = (ticket: Ticket) => Math.ceil((ticket.expiresAt - Date.now()) / 1000);

async function readTicket(ctx: AppContext, id: string): Promise<Ticket | null> {
  const ticket = await ctx.cache.get<Ticket>(scanKeys.ticket(id));
  return ticket && secondsLeft(ticket) > 0 ? ticket : null;
}

/** Stores a ticket for the rest of its life; false when it has just run out. */
async function storeTicket(ctx: AppContext, id: string, ticket: Ticket): Promise<boolean> {
  const ttl = secondsLeft(ticket);
  if (ttl <= 0) return false;
  await ctx.cache.set(scanKeys.ticket(id), ticket, ttl);
  return true;
}

export async function createScanLogin(ctx: AppContext, client: Client): Promise<ScanLoginCreateResult> {
  // 192 random bits: the id is the only secret between the QR code and the desktop that shows it.
  const id = randomBytes(24).toString('base64url');
  const ticket: Ticket = { status: 'waiting', expiresAt: Date.now() + SCAN_LOGIN_TTL_SECONDS * 1000, client };
  await ctx.cache.set(scanKeys.ticket(id), ticket, SCAN_LOGIN_TTL_SECONDS);
  return {
    id,
    url: `${SCAN_LOGIN_PATH}?id=${encodeURIComponent(id)}`,
    expireSeconds: SCAN_LOGIN_TTL_SECONDS,
  };
}

/** What the polling desktop sees; the tokens come out once (taken from the cache), on the first read after confirm. */
export async function scanLoginStatus(ctx: AppContext, id: string): Promise<ScanLoginStatus> {
  const ticket = await readTicket(ctx, id);
  if (!ticket) return { status: 'expired' };
  if (ticket.status === 'waiting') return { status: 'waiting' };
  const realName = ticket.realName ?? '';
  if (ticket.status === 'scanned') return { status: 'scanned', realName };
  const tokens = await ctx.cache.take<LoginResult>(scanKeys.tokens(id));
  return tokens ? { status: 'confirmed', realName, ...tokens } : { status: 'confirmed', realName };
}

/** The phone opened the QR code: binds the ticket to its user. A ticket already taken by someone else is spent. */
export async function scanScanLogin(ctx: AppContext, user: AuthUser, id: string): Promise<ScanLoginStatus> {
  const ticket = await readTicket(ctx, id);
  if (!ticket || ticket.status === 'confirmed') throw new AppError('D1018');
  if (ticket.status === 'scanned' && ticket.userId !== user.userId) throw new AppError('D1018');
  const scanned: Ticket = { ...ticket, status: 'scanned', userId: user.userId, realName: user.realName };
  if (!(await storeTicket(ctx, id, scanned))) throw new AppError('D1018');
  return { status: 'scanned', realName: user.realName };
}

/**
 * The phone confirmed: the desktop gets a new session for the phone's user (never the phone's own tokens).
 * The ticket is taken out of the cache first, so two confirmations cannot open two sessions.
 */
export async function confirmScanLogin(ctx: AppContext, user: AuthUser, id: string): Promise<null> {
  const key = scanKeys.ticket(id);
  const ticket = await ctx.cache.take<Ticket>(key);
  if (!ticket || secondsLeft(ticket) <= 0) throw new AppError('D1018');
  if (ticket.status !== 'scanned' || ticket.userId !== user.userId) {
    await storeTicket(ctx, id, ticket);
    throw new AppError('D1018');
  }
  const who: Signer = {
    userId: user.userId,
    tenantId: user.tenantId,
    account: user.account,
    realName: user.realName,
  };
  // A refused sign-in (user disabled meanwhile…) leaves the ticket gone: the desktop shows it expired.
  const result = await withVisitLog(ctx, ticket.client, who, () =>
    completeLogin(ctx, user.userId, { ...ticket.client, loginType: null }, who),
  );
  const ttl = Math.max(1, secondsLeft(ticket));
  await ctx.cache.set(scanKeys.tokens(id), result, ttl);
  await ctx.cache.set(key, { ...ticket, status: 'confirmed' } satisfies Ticket, ttl);
  return null;
}

/** The phone declined: the ticket is dropped and the desktop sees it expired. Quiet when it is already gone. */
export async function cancelScanLogin(ctx: AppContext, user: AuthUser, id: string): Promise<null> {
  const ticket = await readTicket(ctx, id);
  if (!ticket) return null;
  if (ticket.status !== 'scanned' || ticket.userId !== user.userId) throw new AppError('D1018');
  await ctx.cache.del(scanKeys.ticket(id));
  return null;
}
