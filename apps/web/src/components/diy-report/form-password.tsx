import { LockOutlined } from '@ant-design/icons';
import { Form, Input, Modal, Typography } from 'antd';
import { type ReactNode, useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { encryptPassword } from '../../platform/crypto/password-cipher.ts';
import { feedback } from '../../platform/feedback/feedback.ts';
import { HttpError } from '../../platform/http/http-client.ts';
import { sessionApi } from '../../platform/session/session.api.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';
import { storageKey } from '../../platform/storage/storage.ts';
import { diyReportApi } from './diy-report.api.ts';

/** SPEC §5 / §9: a form password has 6 to 12 characters. */
const FORM_PASSWORD_MIN = 6;
const FORM_PASSWORD_MAX = 12;

function verifiedKey(tableId: number): string {
  const userId = useSessionStore.getState().userInfo?.id ?? 0;
  return storageKey(`diy-form-pwd:${userId}:${tableId}`);
}

/**
 * Whether this browser session already verified the form's password (the server remembers it per session
 * too and answers F1007 when it does not; the record list then prompts again).
 */
export function isFormPasswordVerified(tableId: number): boolean {
  try {
    return window.sessionStorage.getItem(verifiedKey(tableId)) === '1';
  } catch {
    return false;
  }
}

export function markFormPasswordVerified(tableId: number): void {
  try {
    window.sessionStorage.setItem(verifiedKey(tableId), '1');
  } catch {
    // Private mode: the server still remembers the verification; the prompt may just show again.
  }
}

type Asked = { tableId: number; title?: string; resolve: (ok: boolean) => void };
type Values = { password?: string };

export type FormPasswordPrompt = {
  /** Asks for the form's password; true once the server verified it, false when the user cancelled. */
  prompt: (tableId: number, title?: string) => Promise<boolean>;
  /** Render it once in the page. */
  contextHolder: ReactNode;
};

/**
 * The form-password prompt of SPEC §4/§5: show/hide toggle, Enter submits, 6–12 characters, the password goes
 * SM2-encrypted to `POST /api/diyTable/CheckFormPwd`; code 200 shows 验证成功, any other answer the server's
 * message. Cancelling shows 你已关闭此操作. A second submit waits for the first.
 */
export function useFormPasswordPrompt(): FormPasswordPrompt {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [asked, setAsked] = useState<Asked | null>(null);
  const [checking, setChecking] = useState(false);
  const current = useRef<Asked | null>(null);
  const busy = useRef(false);

  const prompt = useCallback(
    (tableId: number, title?: string) =>
      new Promise<boolean>((resolve) => {
        current.current?.resolve(false);
        const next = { tableId, title, resolve };
        current.current = next;
        setAsked(next);
      }),
    [],
  );

  const close = (ok: boolean) => {
    current.current?.resolve(ok);
    current.current = null;
    setAsked(null);
    form.resetFields();
  };

  const cancel = () => {
    if (busy.current) return;
    feedback.info(t('diyReport.pwd.cancelled'));
    close(false);
  };

  const submit = async () => {
    const ask = current.current;
    if (!ask || busy.current) return;
    busy.current = true;
    // The key request shows its own errors; the check's are ours to show.
    let checked = false;
    try {
      const password: string = form.getFieldValue('password') ?? '';
      if (password === '') {
        feedback.warning(t('diyReport.pwd.empty'));
        await form.validateFields().catch(() => undefined);
        return;
      }
      const valid = await form.validateFields().then(
        () => true,
        () => false,
      );
      if (!valid) return;
      setChecking(true);
      const { publicKey } = await sessionApi.loginConfig();
      checked = true;
      await diyReportApi.checkFormPwd(ask.tableId, encryptPassword(password, publicKey));
      markFormPasswordVerified(ask.tableId);
      feedback.success(t('diyReport.pwd.verified'));
      close(true);
    } catch (error) {
      if (checked && error instanceof HttpError) feedback.error(error.message);
    } finally {
      busy.current = false;
      setChecking(false);
    }
  };

  const contextHolder = (
    <Modal
      open={asked !== null}
      title={
        <span>
          <LockOutlined /> {t('diyReport.pwd.title')}
        </span>
      }
      width={420}
      onCancel={cancel}
      onOk={() => void submit()}
      okText={t('diyReport.pwd.ok')}
      cancelText={t('diyReport.pwd.cancel')}
      okButtonProps={{ loading: checking, 'data-testid': 'form-pwd-ok' }}
      cancelButtonProps={{ disabled: checking, 'data-testid': 'form-pwd-cancel' }}
      destroyOnHidden
      mask={{ closable: false }}
      wrapClassName="form-pwd-modal"
    >
      {asked?.title ? (
        <Typography.Paragraph type="secondary">
          {t('diyReport.pwd.hint', { title: asked.title })}
        </Typography.Paragraph>
      ) : null}
      <Form form={form} autoComplete="off" onFinish={() => void submit()}>
        <Form.Item
          name="password"
          validateFirst
          rules={[
            { required: true, message: t('diyReport.pwd.required') },
            { min: FORM_PASSWORD_MIN, max: FORM_PASSWORD_MAX, message: t('diyReport.pwd.length') },
          ]}
          style={{ marginBottom: 0 }}
        >
          <Input.Password
            autoFocus
            maxLength={FORM_PASSWORD_MAX}
            placeholder={t('diyReport.pwd.placeholder')}
            onPressEnter={(event) => {
              event.preventDefault();
              void submit();
            }}
            data-testid="form-pwd-input"
          />
        </Form.Item>
      </Form>
    </Modal>
  );

  return { prompt, contextHolder };
}
