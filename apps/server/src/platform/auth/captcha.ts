import { randomInt } from 'node:crypto';
import type { AppContext } from '../context.ts';
import { CAPTCHA_ALPHABET, captchaPng } from './captcha-image.ts';

const TTL_SECONDS = 60;
const LENGTH = 4;
const key = (id: number | string) => `captcha:${id}`;

/**
 * A new image captcha: the answer is kept for 60 s, for one attempt. `id` is a number (the family's clients
 * send it back as a JSON number) and `img` bare base64 of a PNG (they put `data:image/png;base64,` in front).
 */
export async function createCaptcha(ctx: AppContext): Promise<{ id: number; img: string }> {
  let text = '';
  for (let i = 0; i < LENGTH; i++) text += CAPTCHA_ALPHABET[randomInt(CAPTCHA_ALPHABET.length)];
  const id = ctx.newId();
  await ctx.cache.set(key(id), text.toLowerCase(), TTL_SECONDS);
  return { id, img: captchaPng(text).toString('base64') };
}

/**
 * Checks an answer, case-insensitively; the captcha is used up whatever the outcome. `id` as the client sent
 * it: a number, a numeric string, or 0 / empty for none.
 */
export async function checkCaptcha(
  ctx: AppContext,
  id: number | string | null | undefined,
  answer: string | null | undefined,
): Promise<boolean> {
  const text = id === null || id === undefined ? '' : String(id).trim();
  if (!/^[1-9]\d{0,15}$/.test(text) || !answer) return false;
  const expected = await ctx.cache.take<string>(key(text));
  return expected !== undefined && expected === answer.trim().toLowerCase();
}
