import { CONST_TYPE_NAMES, CONSTANTS, type ConstOutput, type ConstTypeName } from '@shuzhi/contracts/const';
import type { Locale } from '@shuzhi/contracts/i18n';

export function constTypes(locale: Locale): ConstOutput[] {
  return (Object.keys(CONSTANTS) as ConstTypeName[]).map((code) => ({
    name: CONST_TYPE_NAMES[code][locale],
    code,
  }));
}

/** Items of one constant list; an unknown type name has no items. */
export function constData(typeName: string, locale: Locale): ConstOutput[] {
  if (!Object.hasOwn(CONSTANTS, typeName)) return [];
  return CONSTANTS[typeName as ConstTypeName].map((item) => ({ name: item.name[locale], code: item.code }));
}
