import type { PageResult } from '@shuzhi/contracts/envelope';
import {
  type PublicScene,
  SCENE_PATH,
  type Scene,
  type SceneEntry,
  type sceneAddInputSchema,
  type sceneEditInputSchema,
  type scenePageInputSchema,
} from '@shuzhi/contracts/no-login-pages';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import type { SysSceneTable } from '../../db/schema.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { likeContaining } from '../../platform/db/like.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { readableFile, sendStoredFile } from '../../platform/files/storage.ts';
import { paged } from '../../platform/http/paging.ts';
import { urlOf } from './no-login-links.service.ts';
import { actorOf } from './no-login-scope.ts';
import { countView, openedRow, pageCode, pageState, tenantOf } from './public-page-common.ts';
import { liveStatements, statementUrl } from './statement.service.ts';

/**
 * Custom scenes (issue 22 §2, docs/no-login.md): a page for an event or a campaign — title, banner, intro and
 * entries (forms to fill through login-free fill links, public statements, external addresses) — opened by
 * `/customScene?id=<signed code>` without login. Entries are checked when saved (same tenant, live) and again
 * when the page is shown: an entry whose link or statement has ended shows without an address.
 */

const DAY_MS = 24 * 3600 * 1000;
/** Banner images: kinds a browser shows and that carry no script (no SVG). */
const BANNER_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

function visible(ctx: AppContext, user: AuthUser) {
  let query = ctx.db.selectFrom('sys_scene').selectAll().where('is_delete', '=', 0);
  const tenant = tenantOf(user);
  if (tenant !== null) query = query.where('tenant_id', '=', tenant);
  return query;
}

export const sceneUrl = (ctx: AppContext, row: SysSceneTable) =>
  `${SCENE_PATH}?${new URLSearchParams({ id: pageCode(ctx, 'scene', row) }).toString()}`;

function toScene(ctx: AppContext, row: SysSceneTable, now: string): Scene {
  return {
    id: Number(row.id),
    title: row.title,
    intro: row.intro,
    bannerFileId: row.banner_file_id === null ? null : Number(row.banner_file_id),
    entries: JSON.parse(row.entries) as SceneEntry[],
    expireTime: row.expire_time,
    state: pageState(row, now),
    viewCount: row.view_count,
    url: sceneUrl(ctx, row),
    createTime: row.create_time,
    createUserName: row.create_user_name,
    withdrawTime: row.withdraw_time,
  };
}

/** The tenant's fill links among `ids` that can still be used (form links, fillOne or fillMany). */
async function liveFillLinks(ctx: AppContext, tenantId: number, ids: number[]) {
  if (ids.length === 0) return [];
  const rows = await ctx.db
    .selectFrom('sys_nologin_link')
    .selectAll()
    .where('id', 'in', ids)
    .where('tenant_id', '=', tenantId)
    .where('is_delete', '=', 0)
    .where('qr_type', '=', 'form')
    .where('mode', 'in', ['fillOne', 'fillMany'])
    .where('revoke_time', 'is', null)
    .where('expire_time', '>', formatDateTime())
    .where((eb) => eb.or([eb('max_uses', 'is', null), eb('use_count', '<', eb.ref('max_uses'))]))
    .execute();
  return rows.map((row) => ({ ...row, id: Number(row.id), tenant_id: Number(row.tenant_id) }));
}

/** Every entry of the tenant and live (N1027 links, N1028 statements), the banner an image it may read (N1029). */
async function checkContent(
  ctx: AppContext,
  user: AuthUser,
  tenantId: number,
  input: { entries: SceneEntry[]; bannerFileId?: number | null | undefined },
): Promise<void> {
  const linkIds = input.entries.flatMap((e) => (e.type === 'form' ? [e.linkId] : []));
  const statementIds = input.entries.flatMap((e) => (e.type === 'statement' ? [e.statementId] : []));
  const links = new Set((await liveFillLinks(ctx, tenantId, linkIds)).map((l) => l.id));
  const statements = new Set((await liveStatements(ctx, tenantId, statementIds)).map((s) => s.id));
  for (const entry of input.entries) {
    if (entry.type === 'form' && !links.has(entry.linkId))
      throw new AppError('N1027', { title: entry.title });
    if (entry.type === 'statement' && !statements.has(entry.statementId)) {
      throw new AppError('N1028', { title: entry.title });
    }
  }
  if (input.bannerFileId) {
    const file = await readableFile(ctx, user, input.bannerFileId).catch(() => null);
    if (!file || Number(file.tenant_id) !== tenantId || !BANNER_TYPES.includes(file.content_type ?? '')) {
      throw new AppError('N1029');
    }
  }
}

export async function addScene(
  ctx: AppContext,
  user: AuthUser,
  input: z.output<typeof sceneAddInputSchema>,
): Promise<Scene> {
  await checkContent(ctx, user, user.tenantId, input);
  const now = new Date();
  const row: SysSceneTable = {
    id: ctx.newId(),
    tenant_id: user.tenantId,
    title: input.title,
    intro: input.intro ? input.intro : null,
    banner_file_id: input.bannerFileId ?? null,
    entries: JSON.stringify(input.entries),
    expire_time: formatDateTime(new Date(Math.floor((now.getTime() + input.days * DAY_MS) / 1000) * 1000)),
    withdraw_time: null,
    view_count: 0,
    create_time: formatDateTime(now),
    create_user_id: user.userId,
    create_user_name: user.realName,
    update_time: null,
    is_delete: 0,
  };
  await ctx.db.insertInto('sys_scene').values(row).execute();
  return toScene(ctx, row, formatDateTime(now));
}

async function oneScene(ctx: AppContext, user: AuthUser, id: number): Promise<SysSceneTable> {
  const row = await visible(ctx, user).where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('N1025');
  return row;
}

export async function editScene(
  ctx: AppContext,
  user: AuthUser,
  input: z.output<typeof sceneEditInputSchema>,
): Promise<Scene> {
  const row = await oneScene(ctx, user, input.id);
  if (pageState(row, formatDateTime()) !== 'active') throw new AppError('N1032');
  await checkContent(ctx, user, Number(row.tenant_id), input);
  const changes = {
    title: input.title,
    intro: input.intro ? input.intro : null,
    banner_file_id: input.bannerFileId ?? null,
    entries: JSON.stringify(input.entries),
    update_time: formatDateTime(),
  };
  await ctx.db.updateTable('sys_scene').set(changes).where('id', '=', row.id).execute();
  return toScene(ctx, { ...row, ...changes }, formatDateTime());
}

export async function withdrawScene(ctx: AppContext, user: AuthUser, id: number): Promise<null> {
  const row = await oneScene(ctx, user, id);
  await ctx.db
    .updateTable('sys_scene')
    .set({ withdraw_time: formatDateTime() })
    .where('id', '=', row.id)
    .where('withdraw_time', 'is', null)
    .execute();
  return null;
}

export async function deleteScene(ctx: AppContext, user: AuthUser, id: number): Promise<null> {
  const row = await oneScene(ctx, user, id);
  await ctx.db.updateTable('sys_scene').set({ is_delete: 1 }).where('id', '=', row.id).execute();
  return null;
}

export async function scenePage(
  ctx: AppContext,
  user: AuthUser,
  input: z.output<typeof scenePageInputSchema>,
): Promise<PageResult<Scene>> {
  let query = visible(ctx, user);
  if (input.title) {
    query = query.where('title', 'like', likeContaining(input.title));
  }
  const now = formatDateTime();
  return paged(query, input, {
    sortable: {
      title: 'title',
      expireTime: 'expire_time',
      viewCount: 'view_count',
      createTime: 'create_time',
    },
    defaultOrder: 'id',
    map: (row) => toScene(ctx, row, now),
  });
}

const loadScene = (ctx: AppContext) => (id: number) =>
  ctx.db.selectFrom('sys_scene').selectAll().where('id', '=', id).executeTakeFirst();

/** `GET /api/noLogin/scene?id=…`: the scene; an entry whose link or statement has ended has no address. */
export async function publicScene(ctx: AppContext, code: string): Promise<PublicScene> {
  const row = await openedRow(ctx, 'scene', code, loadScene(ctx));
  const entries = JSON.parse(row.entries) as SceneEntry[];
  const links = new Map(
    (
      await liveFillLinks(
        ctx,
        row.tenant_id,
        entries.flatMap((e) => (e.type === 'form' ? [e.linkId] : [])),
      )
    ).map((link) => [link.id, link]),
  );
  const statements = new Map(
    (
      await liveStatements(
        ctx,
        row.tenant_id,
        entries.flatMap((e) => (e.type === 'statement' ? [e.statementId] : [])),
      )
    ).map((statement) => [statement.id, statement]),
  );
  const urlOfEntry = (entry: SceneEntry): string | null => {
    if (entry.type === 'link') return entry.url;
    if (entry.type === 'form') {
      const link = links.get(entry.linkId);
      return link ? urlOf(ctx, link) : null;
    }
    const statement = statements.get(entry.statementId);
    return statement ? statementUrl(ctx, statement) : null;
  };
  await countView(ctx, 'scene', row.id);
  return {
    title: row.title,
    intro: row.intro,
    bannerUrl:
      row.banner_file_id === null
        ? null
        : `/api/noLogin/sceneBanner?${new URLSearchParams({ id: code }).toString()}`,
    entries: entries.map((entry) => ({
      type: entry.type,
      title: entry.title,
      note: entry.note ? entry.note : null,
      url: urlOfEntry(entry),
    })),
    expireTime: row.expire_time,
  };
}

/** `GET /api/noLogin/sceneBanner?id=…`: the scene's banner image, read as its publisher. */
export async function sceneBanner(ctx: AppContext, code: string, reply: FastifyReply) {
  const row = await openedRow(ctx, 'scene', code, loadScene(ctx));
  if (row.banner_file_id === null) throw new AppError('N1029');
  const actor = await actorOf(ctx, row);
  const file = await readableFile(ctx, actor, Number(row.banner_file_id)).catch(() => null);
  if (!file || !BANNER_TYPES.includes(file.content_type ?? '')) throw new AppError('N1029');
  return sendStoredFile(ctx, reply, file, 'inline');
}
