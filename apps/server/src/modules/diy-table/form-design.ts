import { DESIGN_PROBLEM_TEXTS, validateDesign } from '@shuzhi/contracts/diy-design-check';
import type { FormDesign } from '@shuzhi/contracts/diy-form';
import type { DesignSaveResult, designSaveInputSchema, FormDesignResult } from '@shuzhi/contracts/diy-table';
import { format, type Locale } from '@shuzhi/contracts/i18n';
import type { z } from 'zod';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { publishColumns } from '../../platform/diy/data-table.ts';
import { FieldErrorsError } from '../../platform/diy/field-errors.ts';
import { adminForm, parseDesign } from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { formQuery, type JoinedForm, toFormRow } from './form-rows.ts';
import { EMPTY_DESIGN, versionDesign } from './form-version.ts';

/** The form designer: the draft and published designs of a form, saving the draft, publishing a version. */

export async function formDesignResult(
  ctx: AppContext,
  user: AuthUser,
  id: number,
): Promise<FormDesignResult> {
  const { form } = await adminForm(ctx, user, id);
  const row = await formQuery(ctx.db).where('t.id', '=', form.id).executeTakeFirstOrThrow();
  const published = await versionDesign(ctx, ctx.db, form.id, form.version);
  const versions = await ctx.db
    .selectFrom('diy_table_version')
    .select(['version', 'publish_time', 'publish_user_name'])
    .where('table_id', '=', form.id)
    .orderBy('version', 'desc')
    .execute();
  return {
    form: toFormRow(row as JoinedForm),
    draft: parseDesign(form.draft_design) ?? published ?? EMPTY_DESIGN,
    revision: form.draft_revision,
    published,
    versions: versions.map((v) => ({
      version: v.version,
      publishTime: v.publish_time,
      publishUserName: v.publish_user_name,
    })),
  };
}

/** Design problems as field errors in the request's language. */
function designErrors(design: FormDesign, locale: Locale): Record<string, string[]> | null {
  const problems = validateDesign(design);
  if (problems.length === 0) return null;
  const errors: Record<string, string[]> = {};
  for (const p of problems) {
    const text = format(DESIGN_PROBLEM_TEXTS[p.code][locale], { detail: p.detail ?? '' });
    const list = errors[p.fieldId] ?? [];
    if (!list.includes(text)) list.push(text);
    errors[p.fieldId] = list;
  }
  return errors;
}

/**
 * Saves the draft design; with `publish`, also publishes it as the next version in the same transaction:
 * the version row, the data table (first publish) and the columns of new fields or changed storage kinds.
 * A save based on an older revision than the stored draft is refused (F1004).
 */
export async function saveDesign(
  ctx: AppContext,
  user: AuthUser,
  input: z.output<typeof designSaveInputSchema>,
  locale: Locale,
): Promise<DesignSaveResult> {
  const errors = designErrors(input.design, locale);
  if (errors) throw new FieldErrorsError(errors);
  if (input.publish && !user.permissions.has('diyTable:publish')) throw new AppError('F1001');
  return ctx.db.transaction().execute(async (trx) => {
    const { form, auth } = await adminForm(ctx, user, input.id, trx);
    if (!auth.design) throw new AppError('F1001');
    if (input.baseRevision !== undefined && input.baseRevision !== form.draft_revision) {
      throw new AppError('F1004');
    }
    const now = formatDateTime();
    const revision = form.draft_revision + 1;
    const version = input.publish ? form.version + 1 : form.version;
    // The row is claimed first: of two editors saving over the same revision, the second finds it gone.
    const claimed = await trx
      .updateTable('diy_table')
      .set({
        draft_design: input.publish ? null : JSON.stringify(input.design),
        draft_revision: revision,
        version,
        ...(input.publish ? { last_update_time: now } : {}),
        update_time: now,
        update_user_id: user.userId,
        update_user_name: user.realName,
      })
      .where('id', '=', form.id)
      .where('draft_revision', '=', form.draft_revision)
      .where('version', '=', form.version)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) throw new AppError('F1004');
    if (input.publish) {
      await publishColumns(trx, ctx.dialect, ctx.newId, form.id, input.design, version, now);
      await trx
        .insertInto('diy_table_version')
        .values({
          id: ctx.newId(),
          table_id: form.id,
          version,
          design: JSON.stringify(input.design),
          publish_user_id: user.userId,
          publish_user_name: user.realName,
          publish_time: now,
        })
        .execute();
    }
    return { revision, version };
  });
}
