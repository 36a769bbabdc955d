import { App, type FormInstance } from 'antd';
import { useState } from 'react';
import { serverFieldErrors } from '../../platform/data/field-errors.ts';

/**
 * The submit of a task form (create, hand on, transfer): validates, sends, toasts what `send` answers, and on a
 * refusal puts the server's field messages under their fields and toasts the rest. `send` answers null when there
 * is nothing to send.
 */
export function useTaskSubmit<Values>(
  form: FormInstance<Values>,
  fields: readonly string[],
  send: (values: Values) => Promise<string | null>,
  onDone: () => void,
): { saving: boolean; submit: () => Promise<void> } {
  const { message } = App.useApp();
  const [saving, setSaving] = useState(false);
  const submit = async () => {
    // A field the form refuses shows its message; nothing is sent.
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      const done = await send(values);
      if (done === null) return;
      message.success(done);
      form.resetFields();
      onDone();
    } catch (error) {
      const { fields: errors, rest } = serverFieldErrors(error, fields);
      if (errors.length > 0) form.setFields(errors as Parameters<typeof form.setFields>[0]);
      if (rest.length > 0 || errors.length === 0) message.error(rest.join(' ') || (error as Error).message);
    } finally {
      setSaving(false);
    }
  };
  return { saving, submit };
}
