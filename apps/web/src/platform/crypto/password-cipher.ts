import { sm2 } from 'sm-crypto';

const C1C3C2 = 1;

/** SM2-encrypts a password for transport: C1C3C2, hex, without the leading 04 (sm-crypto omits it). */
export function encryptPassword(password: string, publicKey: string): string {
  return sm2.doEncrypt(password, publicKey, C1C3C2);
}
