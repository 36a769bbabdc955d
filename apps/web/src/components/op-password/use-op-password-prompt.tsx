import { SafetyOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Input, Modal, Typography } from 'antd';
import { type ReactNode, useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { encryptPassword } from '../../platform/crypto/password-cipher.ts';
import { http } from '../../platform/http/http.ts';
import { HttpError, hasErrorCode } from '../../platform/http/http-client.ts';
import { sessionApi } from '../../platform/session/session.api.ts';

/** Where the user sets an operation password: the user centre's tab. */
const OP_PASSWORD_SETUP_PATH = '/system/userCenter?tab=opPassword';

type Pending = { resolve: (cipher: string | null) => void };

/**
 * Asks for the operation password before a sensitive action. `ask()` opens a dialog; it resolves with the
 * SM2 cipher once the server confirmed the password (POST /api/sysUser/checkOpPassword), or null when the
 * user cancelled. Send the cipher along with the action: its route calls `verifyOpPassword` again.
 *
 *   const [askOpPassword, opPasswordDialog] = useOpPasswordPrompt();
 *   const cipher = await askOpPassword(); if (!cipher) return; await api.remove(id, cipher);
 *   return <>{opPasswordDialog}…</>;
 */
export function useOpPasswordPrompt(): [() => Promise<string | null>, ReactNode] {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<{ opPassword: string }>();
  const [open, setOpen] = useState(false);
  const [checking, setChecking] = useState(false);
  const [notSet, setNotSet] = useState(false);
  const pending = useRef<Pending | null>(null);

  const ask = useCallback(
    () =>
      new Promise<string | null>((resolve) => {
        pending.current?.resolve(null);
        pending.current = { resolve };
        setNotSet(false);
        setOpen(true);
      }),
    [],
  );

  const finish = (cipher: string | null) => {
    pending.current?.resolve(cipher);
    pending.current = null;
    setOpen(false);
    form.resetFields();
  };

  const submit = async ({ opPassword }: { opPassword: string }) => {
    if (checking) return;
    setChecking(true);
    try {
      const { publicKey } = await sessionApi.loginConfig();
      const cipher = encryptPassword(opPassword, publicKey);
      await http.post<true>('/api/sysUser/checkOpPassword', { opPassword: cipher }, { silent: true });
      finish(cipher);
    } catch (error) {
      if (hasErrorCode(error, 'D1012')) setNotSet(true);
      else if (error instanceof HttpError) form.setFields([{ name: 'opPassword', errors: [error.message] }]);
    } finally {
      setChecking(false);
    }
  };

  const dialog = (
    <Modal
      open={open}
      title={
        <span>
          <SafetyOutlined /> {t('opPassword.promptTitle')}
        </span>
      }
      width={400}
      onCancel={() => finish(null)}
      onOk={() => form.submit()}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: checking, disabled: notSet }}
      destroyOnHidden
      mask={{ closable: false }}
    >
      {notSet ? (
        <Alert
          type="warning"
          showIcon
          title={t('opPassword.promptNotSet')}
          action={
            <Button
              size="small"
              type="link"
              onClick={() => {
                finish(null);
                navigate(OP_PASSWORD_SETUP_PATH);
              }}
            >
              {t('opPassword.goSet')}
            </Button>
          }
        />
      ) : (
        <>
          <Typography.Paragraph type="secondary">{t('opPassword.promptHint')}</Typography.Paragraph>
          <Form form={form} onFinish={submit} autoComplete="off">
            <Form.Item
              name="opPassword"
              rules={[{ required: true, message: t('opPassword.newRequired') }]}
              style={{ marginBottom: 0 }}
            >
              <Input.Password
                autoFocus
                placeholder={t('opPassword.promptPlaceholder')}
                onPressEnter={() => form.submit()}
                data-testid="op-password-prompt-input"
              />
            </Form.Item>
          </Form>
        </>
      )}
    </Modal>
  );

  return [ask, dialog];
}
