import {
  posAddInputSchema,
  posPageInputSchema,
  posRowSchema,
  posUpdateInputSchema,
} from '@shuzhi/contracts/pos';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { defineCrud } from '../../platform/crud/crud.ts';
import { FIELD_LABELS as L } from '../../platform/crud/labels.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { forgetAllUserInfo } from '../auth/user-info.service.ts';

/** `/api/sysPos/…`: positions of the caller's tenant, all from the CRUD factory. */
export function posRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineCrud(app, ctx, {
    resource: 'sysPos',
    table: 'sys_pos',
    tenant: true,
    sensitive: true,
    title: { 'zh-CN': '职位', en: 'Positions', 'zh-TW': '職位' },
    item: posRowSchema,
    page: posPageInputSchema,
    filters: { name: { like: 'name' }, code: { like: 'code' }, status: { eq: 'status' } },
    sortable: ['code', 'name', 'orderNo', 'status', 'createTime', 'updateTime'],
    listOrder: [
      ['order_no', 'asc'],
      ['id', 'asc'],
    ],
    add: posAddInputSchema,
    update: posUpdateInputSchema,
    unique: [{ field: 'code', label: L.code }],
    setStatus: true,
    export: [
      { field: 'name', label: L.name, width: 20 },
      { field: 'code', label: L.code, width: 20 },
      { field: 'orderNo', label: L.orderNo },
      { field: 'status', label: L.status, constant: 'status' },
      { field: 'remark', label: L.remark, width: 30 },
      { field: 'createTime', label: L.createTime, width: 20 },
    ],
    hooks: {
      async beforeDelete({ trx, rows }) {
        const ids = rows.map((r) => (r as { id: number }).id);
        const holder = await trx
          .selectFrom('sys_user')
          .select('id')
          .where('pos_id', 'in', ids)
          .where('is_delete', '=', 0)
          .executeTakeFirst();
        const extHolder =
          holder ??
          (await trx
            .selectFrom('sys_user_ext_org as e')
            .innerJoin('sys_user as u', 'u.id', 'e.user_id')
            .select('u.id')
            .where('e.pos_id', 'in', ids)
            .where('u.is_delete', '=', 0)
            .executeTakeFirst());
        if (extHolder) throw new AppError('D2004');
      },
      // userInfo carries the position's name.
      afterChange: ({ ctx }) => forgetAllUserInfo(ctx),
    },
  });
}
