import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { encryptPassword } from '../../platform/crypto/password-cipher.ts';
import { sessionApi } from '../../platform/session/session.api.ts';

/**
 * Submitting a password form: `send` gets the values and an `encrypt` with the server's SM2 public key (so no
 * password leaves the browser in clear), one request at a time. A refusal needs no handling here: the HTTP
 * client already showed the server's message.
 */
export function usePasswordSubmit<V>(send: (values: V, encrypt: (plain: string) => string) => Promise<void>) {
  const [saving, setSaving] = useState(false);
  const config = useQuery({
    queryKey: ['sysAuth', 'loginConfig'],
    queryFn: sessionApi.loginConfig,
    staleTime: 60_000,
  });

  const submit = async (values: V) => {
    const publicKey = config.data?.publicKey ?? (await config.refetch()).data?.publicKey;
    if (!publicKey || saving) return;
    setSaving(true);
    try {
      await send(values, (plain) => encryptPassword(plain, publicKey));
    } catch {
      // Shown by the HTTP client.
    } finally {
      setSaving(false);
    }
  };
  return { saving, submit };
}
