import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import type { PageResult } from '@shuzhi/contracts/envelope';
import {
  type NoLoginAction,
  type NoLoginLink,
  type NoLoginMode,
  type NoLoginQrType,
  type NoLoginSheetItem,
  type NoLoginState,
  type NoLoginUse,
  type noLoginAddInputSchema,
  type noLoginPageInputSchema,
  type noLoginUsesInputSchema,
  SCANCODE_PATH,
} from '@shuzhi/contracts/no-login';
import QRCode from 'qrcode';
import type { z } from 'zod';
import type { SysNoLoginLinkTable } from '../../db/schema.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { likeContaining } from '../../platform/db/like.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { recordCan } from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { paged } from '../../platform/http/paging.ts';
import { findRow, openForm, recordFacts } from '../diy-data/diy-data.service.ts';
import { signLinkCode } from './no-login-code.ts';
import { epochOf } from './no-login-scope.ts';

/**
 * Staff side of login-free links (docs/no-login.md): publish, list, revoke, print (QR codes as PNG or SVG,
 * made here with `qrcode`), and the use log. A link is published only for what its publisher may do on the
 * form themselves (N1011): look at records for view links, add records for form fill links, change the record
 * for record fill links.
 */

const DAY_SECONDS = 24 * 3600;

/** Links of the caller's tenant (every tenant's for the super admin). */
function visible(ctx: AppContext, user: AuthUser) {
  let query = ctx.db
    .selectFrom('sys_nologin_link as l')
    .leftJoin('diy_table as t', 't.id', 'l.table_id')
    .selectAll('l')
    .select('t.title as table_title')
    .where('l.is_delete', '=', 0);
  if (user.accountType !== ACCOUNT_TYPE.superAdmin) query = query.where('l.tenant_id', '=', user.tenantId);
  return query;
}

type LinkRow = SysNoLoginLinkTable & { table_title: string | null };

/** The link's code: signed again from what is stored (the same bytes as when it was published). */
const codeOf = (ctx: AppContext, row: SysNoLoginLinkTable) =>
  signLinkCode(ctx, {
    tenantId: Number(row.tenant_id),
    linkId: Number(row.id),
    expires: epochOf(row.expire_time),
  });

export const urlOf = (ctx: AppContext, row: SysNoLoginLinkTable) =>
  `${SCANCODE_PATH}?${new URLSearchParams({ QrCodeType: row.qr_type, code: codeOf(ctx, row) }).toString()}`;

function stateOf(row: SysNoLoginLinkTable, now: string): NoLoginState {
  if (row.revoke_time !== null) return 'revoked';
  if (row.expire_time <= now) return 'expired';
  if (row.max_uses !== null && row.use_count >= row.max_uses) return 'usedUp';
  return 'active';
}

function toLink(ctx: AppContext, row: LinkRow, now: string): NoLoginLink {
  return {
    id: Number(row.id),
    title: row.title,
    qrType: row.qr_type as NoLoginQrType,
    tableId: Number(row.table_id),
    tableTitle: row.table_title,
    recordId: row.record_id === null ? null : Number(row.record_id),
    mode: row.mode as NoLoginMode,
    expireTime: row.expire_time,
    maxUses: row.max_uses,
    useCount: row.use_count,
    state: stateOf(row, now),
    remark: row.remark,
    url: urlOf(ctx, row),
    createTime: row.create_time,
    createUserName: row.create_user_name,
    revokeTime: row.revoke_time,
  };
}

/** Whether the publisher may do on the form (and record) what the link will do in their name. */
async function assertMayPublish(
  ctx: AppContext,
  user: AuthUser,
  input: z.output<typeof noLoginAddInputSchema>,
) {
  const open = await openForm(ctx, user, input.tableId);
  if (input.qrType === 'form') {
    const ok = input.mode === 'view' ? open.auth.query : open.auth.add;
    if (!ok) throw new AppError('N1011');
    return open;
  }
  if (!open.auth.query) throw new AppError('N1011');
  const row = await findRow(ctx.db, open, input.recordId ?? 0);
  if (input.mode === 'fillOne' && !recordCan(open.auth, open.caller, recordFacts(row)).update) {
    throw new AppError('N1011');
  }
  return open;
}

export async function addLink(
  ctx: AppContext,
  user: AuthUser,
  input: z.output<typeof noLoginAddInputSchema>,
): Promise<NoLoginLink> {
  const open = await assertMayPublish(ctx, user, input);
  const now = new Date();
  const expires = Math.floor(now.getTime() / 1000) + input.days * DAY_SECONDS;
  const row: SysNoLoginLinkTable = {
    id: ctx.newId(),
    tenant_id: open.form.tenant_id,
    title: input.title,
    qr_type: input.qrType,
    table_id: open.form.id,
    record_id: input.qrType === 'record' ? (input.recordId ?? null) : null,
    mode: input.mode,
    expire_time: formatDateTime(new Date(expires * 1000)),
    max_uses: input.mode === 'fillOne' ? 1 : (input.maxUses ?? null),
    use_count: 0,
    revoke_time: null,
    remark: input.remark ? input.remark : null,
    create_time: formatDateTime(now),
    create_user_id: user.userId,
    create_user_name: user.realName,
    is_delete: 0,
  };
  await ctx.db.insertInto('sys_nologin_link').values(row).execute();
  return toLink(ctx, { ...row, table_title: open.form.title }, formatDateTime(now));
}

export const LINK_SORTABLE: Record<string, string> = {
  title: 'l.title',
  expireTime: 'l.expire_time',
  useCount: 'l.use_count',
  createTime: 'l.create_time',
};

export async function linkPage(
  ctx: AppContext,
  user: AuthUser,
  input: z.output<typeof noLoginPageInputSchema>,
): Promise<PageResult<NoLoginLink>> {
  let query = visible(ctx, user);
  if (input.title) query = query.where('l.title', 'like', likeContaining(input.title));
  if (input.tableId) query = query.where('l.table_id', '=', input.tableId);
  const now = formatDateTime();
  return paged(query, input, {
    sortable: LINK_SORTABLE,
    defaultOrder: 'l.id',
    map: (row) => toLink(ctx, row as LinkRow, now),
  });
}

async function oneLink(ctx: AppContext, user: AuthUser, id: number): Promise<LinkRow> {
  const row = await visible(ctx, user).where('l.id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('N1008');
  return row as LinkRow;
}

/** Revokes a link at once: its code and every token it gave are refused from the next call (N1002). */
export async function revokeLink(ctx: AppContext, user: AuthUser, id: number): Promise<null> {
  const row = await oneLink(ctx, user, id);
  if (row.revoke_time === null) {
    await ctx.db
      .updateTable('sys_nologin_link')
      .set({ revoke_time: formatDateTime() })
      .where('id', '=', row.id)
      .where('revoke_time', 'is', null)
      .execute();
  }
  return null;
}

export async function usePage(
  ctx: AppContext,
  user: AuthUser,
  input: z.output<typeof noLoginUsesInputSchema>,
): Promise<PageResult<NoLoginUse>> {
  const link = await oneLink(ctx, user, input.linkId);
  const query = ctx.db.selectFrom('sys_nologin_use').selectAll().where('link_id', '=', link.id);
  return paged(query, input, {
    sortable: { createTime: 'create_time', action: 'action', ip: 'ip' },
    defaultOrder: 'id',
    map: (row) => ({
      id: Number(row.id),
      linkId: Number(row.link_id),
      action: row.action as NoLoginAction,
      recordId: row.record_id === null ? null : Number(row.record_id),
      code: row.code,
      ip: row.ip,
      userAgent: row.user_agent,
      createTime: row.create_time,
    }),
  });
}

const QR_OPTIONS = { errorCorrectionLevel: 'M', margin: 2 } as const;

/** The absolute address a QR code carries: the origin the staff member reached the server by. */
const absolute = (origin: string, path: string) => `${origin}${path}`;

export async function linkQr(
  ctx: AppContext,
  user: AuthUser,
  id: number,
  format: 'png' | 'svg',
  origin: string,
): Promise<Buffer | string> {
  const row = await oneLink(ctx, user, id);
  const text = absolute(origin, urlOf(ctx, row));
  if (format === 'png') return QRCode.toBuffer(text, { ...QR_OPTIONS, type: 'png', width: 512 });
  return QRCode.toString(text, { ...QR_OPTIONS, type: 'svg' });
}

/** The links of a printable sheet, each with its QR code as SVG, in the order asked (unknown ids left out). */
export async function linkSheet(
  ctx: AppContext,
  user: AuthUser,
  ids: number[],
  origin: string,
): Promise<NoLoginSheetItem[]> {
  const rows = (await visible(ctx, user).where('l.id', 'in', ids).execute()) as LinkRow[];
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  const items: NoLoginSheetItem[] = [];
  for (const id of ids) {
    const row = byId.get(id);
    if (!row) continue;
    const url = absolute(origin, urlOf(ctx, row));
    items.push({
      id,
      title: row.title,
      url,
      expireTime: row.expire_time,
      svg: await QRCode.toString(url, { ...QR_OPTIONS, type: 'svg' }),
    });
  }
  return items;
}
