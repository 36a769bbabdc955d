import type { ParseKeys, TFunction, TypeOptions } from 'i18next';

/**
 * The key of a text every language defines (the keys are declared in src/i18next.d.ts). A key built at
 * run time (`sysRole.scope.${n}`) is not one: look it up in a table of literal keys checked against this
 * (`as const satisfies Record<…, TextKey>`), or, where it comes from the server, read it with serverText.
 */
export type TextKey = ParseKeys;

type Texts = TypeOptions['resources']['translation'];

/**
 * A top-level key whose texts hold every one of `Keys`: a shared component given a feature's texts
 * (`texts="sysRole"`) reads `${texts}.granted` and the check sees that each feature passed has them.
 */
export type TextsWith<Keys extends string> = {
  [Top in keyof Texts & string]: `${Top}.${Keys}` extends TextKey ? Top : never;
}[keyof Texts & string];

type PlainT = (key: string, options?: Record<string, unknown>) => string;

/**
 * t() of a key held in a variable typed `TextKey` (a table's value, a prop). Calling t() with it directly
 * is as right, but makes the checker work out t()'s answer for each of the ~2,200 keys at every such call
 * (each costs about a quarter of the web's whole typecheck); the key was checked where it was written.
 */
export function textOf(t: TFunction, key: TextKey, options?: Record<string, unknown>): string {
  return (t as unknown as PlainT)(key, options);
}

/**
 * t() of a key made from a value the server sends (a menu name, a logged field, a type it may add later):
 * such a key may name no text, so the caller says what shows then.
 */
export function serverText(
  t: TFunction,
  key: string,
  options: { defaultValue: string } & Record<string, unknown>,
): string {
  return (t as unknown as PlainT)(key, options);
}
