/**
 * Menu-driven views (SPEC §2): a menu's `component` (e.g. `/system/userCenter/index`) is matched against the
 * registered views and used only when exactly one view matches.
 */

/** Strips a leading slash, a file extension and a trailing `/index`: `/system/user/index.vue` → `system/user`. */
export function normalizeComponentPath(path: string): string {
  return path
    .trim()
    .replace(/\\/g, '/')
    .replace(/^\/+/, '')
    .replace(/\.(vue|tsx|jsx|ts|js)$/i, '')
    .replace(/\/+$/, '')
    .replace(/(^|\/)index$/, '')
    .replace(/\/+$/, '');
}

function matches(key: string, component: string): boolean {
  return key === component || key.endsWith(`/${component}`) || component.endsWith(`/${key}`);
}

/** The registry key of the single view the component names, or null when none or several match. */
export function matchViewKey(keys: readonly string[], component: string | null | undefined): string | null {
  if (!component) return null;
  const wanted = normalizeComponentPath(component);
  if (!wanted) return null;
  const found = keys.filter((key) => matches(normalizeComponentPath(key), wanted));
  return found.length === 1 ? found[0] : null;
}
