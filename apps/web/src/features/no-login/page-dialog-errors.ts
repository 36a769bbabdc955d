import type { FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { serverFieldErrors } from '../../platform/data/field-errors.ts';
import { feedback } from '../../platform/feedback/feedback.ts';

/** A refused save of a statement or scene: field errors under their fields, anything else as a toast. */
export function showSaveError(form: FormInstance, fieldNames: readonly string[], error: Error): void {
  const { fields, rest } = serverFieldErrors(error, fieldNames);
  if (fields.length > 0) form.setFields(fields);
  if (fields.length === 0 || rest.length > 0) feedback.error(rest[0] ?? error.message);
}

/** The rule of a required field, its message naming the field. */
export function useRequiredRule(): (name: string) => { required: true; message: string }[] {
  const { t } = useTranslation();
  return (name) => [{ required: true, message: t('publicPages.required', { name }) }];
}
