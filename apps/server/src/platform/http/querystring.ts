/**
 * Query strings as Admin.NET-family clients send them (REFERENCE "Routes"): a GET whose client passes a body
 * gets it as `name[key]=value`, arrays as `name[]=a&name[]=b` or `name[0]=a&name[1]=b`. Those become nested
 * objects and arrays; plain keys behave as Fastify's default parser (a repeated key gives an array).
 */
const MAX_DEPTH = 5;
const MAX_INDEX = 1000;
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

type Node = Record<string, unknown> | unknown[];

function put(target: Node, key: string, value: unknown): void {
  if (Array.isArray(target)) {
    if (key === '') target.push(value);
    else target[Number(key)] = value;
    return;
  }
  const existing = Object.hasOwn(target, key) ? target[key] : undefined;
  if (existing === undefined) target[key] = value;
  else if (Array.isArray(existing) && typeof value === 'string') existing.push(value);
  else if (typeof existing === 'string' && typeof value === 'string') target[key] = [existing, value];
}

/** The object or array under `key`, created when missing; null when a plain value is there already. */
function child(target: Node, key: string, nextIsIndex: boolean): Node | null {
  const current = Array.isArray(target)
    ? target[key === '' ? target.length : Number(key)]
    : Object.hasOwn(target, key)
      ? target[key]
      : undefined;
  if (current !== undefined)
    return current !== null && typeof current === 'object' ? (current as Node) : null;
  const created: Node = nextIsIndex ? [] : {};
  put(target, key, created);
  return created;
}

const isIndex = (part: string) => part === '' || (/^\d+$/.test(part) && Number(part) <= MAX_INDEX);

export function parseQueryString(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])+)$/.exec(rawKey);
    const parts = match ? [match[1] as string, ...(match[2] as string).slice(1, -1).split('][')] : [rawKey];
    if (parts.length > MAX_DEPTH + 1 || parts.some((p) => FORBIDDEN.has(p))) continue;
    // A key like `a[x]` after a plain `a=1` (or the reverse) keeps the first shape.
    let target: Node = out;
    let ok = true;
    for (let i = 0; i < parts.length - 1; i++) {
      const part = parts[i] as string;
      if (Array.isArray(target) && !isIndex(part)) {
        ok = false;
        break;
      }
      const next = child(target, part, isIndex(parts[i + 1] as string));
      if (next === null) {
        ok = false;
        break;
      }
      target = next;
    }
    const last = parts[parts.length - 1] as string;
    if (!ok || (Array.isArray(target) && !isIndex(last))) continue;
    put(target, last, value);
  }
  return withLowerCamelKeys(out);
}

/**
 * The family's generated clients send GET parameters in PascalCase (`Page`, `PageSize`, `Title`); Shuzhi's
 * schemas name them in lowerCamelCase. Each top-level PascalCase key is also given under its lowerCamelCase
 * name unless that is present; the original stays, for schemas that read `Id` or `Code`.
 */
function withLowerCamelKeys(query: Record<string, unknown>): Record<string, unknown> {
  for (const key of Object.keys(query)) {
    const first = key.charAt(0);
    if (first === first.toLowerCase()) continue;
    const camel = first.toLowerCase() + key.slice(1);
    if (!Object.hasOwn(query, camel) && !FORBIDDEN.has(camel)) query[camel] = query[key];
  }
  return query;
}
