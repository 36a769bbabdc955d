import smCrypto from 'sm-crypto';

/** Parts of sm-crypto's SM2 API that its type package leaves out. */
type Sm2Extra = { getPublicKeyFromPrivateKey(privateKey: string): string };
const sm2 = smCrypto.sm2 as typeof smCrypto.sm2 & Sm2Extra;

const C1C3C2 = 1;
const HEX = /^[0-9a-fA-F]+$/;

export function generateSm2KeyPair(): { publicKey: string; privateKey: string } {
  const pair = sm2.generateKeyPairHex();
  return { publicKey: pair.publicKey, privateKey: pair.privateKey };
}

export function sm2PublicKeyOf(privateKey: string): string {
  return sm2.getPublicKeyFromPrivateKey(privateKey).toLowerCase();
}

/** Encrypts like the web client: C1C3C2, hex, without the leading 04. */
export function sm2Encrypt(plain: string, publicKey: string): string {
  return sm2.doEncrypt(plain, publicKey, C1C3C2);
}

/**
 * Decrypts a password sent by a client; null when it cannot be decrypted (garbage, wrong key, tampered).
 * Some clients keep the `04` point prefix, so that form is accepted too.
 */
export function sm2Decrypt(cipher: string, privateKey: string): string | null {
  if (!HEX.test(cipher) || cipher.length < 194 || cipher.length % 2 !== 0) return null;
  const attempt = (text: string): string | null => {
    try {
      const plain = sm2.doDecrypt(text, privateKey, C1C3C2);
      return typeof plain === 'string' && plain.length > 0 ? plain : null;
    } catch {
      return null;
    }
  };
  return attempt(cipher) ?? (cipher.startsWith('04') ? attempt(cipher.slice(2)) : null);
}
