/**
 * A feature's or shared component's own texts (`features/<domain>/<domain>.locale.ts`,
 * `components/<name>/<name>.locale.ts`), under top-level keys of its own, in every language.
 *
 * zh-CN gives the shape; en and zh-TW must have exactly its keys, so a text missing or left over in
 * one language fails `npm run check` where it is written.
 */
export function defineLocale<Shape extends Texts>(locale: {
  'zh-CN': Shape;
  en: NoInfer<Shape>;
  'zh-TW': NoInfer<Shape>;
}): { 'zh-CN': Shape; en: Shape; 'zh-TW': Shape } {
  return locale;
}

type Texts = { readonly [key: string]: string | Texts };
