import { z } from 'zod';
import { filterText } from './crud.ts';
import { idSchema, pageInputSchema } from './envelope.ts';

/** Online users (`/api/sysOnlineUser/…`): the live sessions of the tenant, and forcing one off. */
export const onlineUserSchema = z.object({
  /** The session id (what forceOffline takes). */
  id: z.number(),
  tenantId: z.number(),
  userId: z.number(),
  account: z.string(),
  realName: z.string().nullable(),
  orgId: z.number().nullable(),
  orgName: z.string().nullable(),
  ip: z.string().nullable(),
  browser: z.string().nullable(),
  os: z.string().nullable(),
  loginType: z.number().nullable(),
  /** When the session was opened (sign-in time). */
  loginTime: z.string(),
  lastActiveTime: z.string(),
  /** A browser of this session holds a realtime connection right now. */
  online: z.boolean(),
  /** The caller's own session (it cannot be forced off). */
  current: z.boolean(),
});
export type OnlineUser = z.infer<typeof onlineUserSchema>;

export const onlineUserPageInputSchema = pageInputSchema.extend({
  account: filterText,
  realName: filterText,
});
export type OnlineUserPageInput = z.input<typeof onlineUserPageInputSchema>;

export const forceOfflineInputSchema = z.object({ id: idSchema });

/** Unlocking the lock screen: the password, SM2-encrypted like at login. */
export const unlockScreenInputSchema = z.object({ password: z.string().min(1).max(1024) });
