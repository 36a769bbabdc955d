import { randomBytes } from 'node:crypto';
import smCrypto from 'sm-crypto';

const HEX = /^[0-9a-f]+$/;

/**
 * Encrypts a short secret for storage with the server's SM4 data key (CBC, a fresh IV each time, PKCS#7):
 * `{iv hex}:{cipher hex}`. Used where the plain value must be recovered (an HMAC key), so a hash will not do.
 */
export function sm4Seal(plain: string, key: string): string {
  const iv = randomBytes(16).toString('hex');
  return `${iv}:${smCrypto.sm4.encrypt(plain, key, { mode: 'cbc', iv })}`;
}

/** The plain text of `sm4Seal`; null when the value is malformed or was sealed with another key. */
export function sm4Open(sealed: string, key: string): string | null {
  const [iv, cipher, extra] = sealed.split(':');
  if (extra !== undefined || !iv || !cipher || iv.length !== 32 || !HEX.test(iv) || !HEX.test(cipher))
    return null;
  try {
    const plain = smCrypto.sm4.decrypt(cipher, key, { mode: 'cbc', iv });
    return plain === '' ? null : plain;
  } catch {
    return null;
  }
}
