import { randomUUID } from 'node:crypto';
import svgCaptcha from 'svg-captcha';
import type { AppContext } from '../context.ts';

const TTL_SECONDS = 60;
const key = (id: string) => `captcha:${id}`;

/** A new image captcha: the answer is kept for 60 s, for one attempt. */
export async function createCaptcha(ctx: AppContext): Promise<{ id: string; img: string }> {
  const captcha = svgCaptcha.create({
    size: 4,
    noise: 2,
    ignoreChars: '0oO1iIlL',
    width: 120,
    height: 40,
    color: true,
  });
  const id = randomUUID();
  await ctx.cache.set(key(id), captcha.text.toLowerCase(), TTL_SECONDS);
  return { id, img: `data:image/svg+xml;base64,${Buffer.from(captcha.data).toString('base64')}` };
}

/** Checks an answer, case-insensitively; the captcha is used up whatever the outcome. */
export async function checkCaptcha(ctx: AppContext, id: string, answer: string): Promise<boolean> {
  const expected = await ctx.cache.take<string>(key(id));
  return expected !== undefined && expected === answer.trim().toLowerCase();
}
