/** Browser and operating system named from a User-Agent header, for the logs. No dependency, no I/O. */
export type ClientInfo = { browser: string | null; os: string | null };

// Order matters: embedded browsers and Edge also claim to be Chrome and Safari.
const BROWSERS: readonly [RegExp, string][] = [
  [/MicroMessenger\/([\d.]+)/, 'WeChat'],
  [/QQBrowser\/([\d.]+)/, 'QQ Browser'],
  [/\bQQ\/([\d.]+)/, 'QQ'],
  [/360SE|360EE|QIHU 360/i, '360'],
  [/Edg(?:e|A|iOS)?\/([\d.]+)/, 'Edge'],
  [/(?:OPR|Opera)\/([\d.]+)/, 'Opera'],
  [/(?:Firefox|FxiOS)\/([\d.]+)/, 'Firefox'],
  [/(?:Chrome|CriOS)\/([\d.]+)/, 'Chrome'],
  [/Version\/([\d.]+).*Safari\//, 'Safari'],
  [/MSIE ([\d.]+)|Trident\/.*rv:([\d.]+)/, 'IE'],
];

const WINDOWS: Record<string, string> = {
  '10.0': '10',
  '6.3': '8.1',
  '6.2': '8',
  '6.1': '7',
  '6.0': 'Vista',
  '5.1': 'XP',
};

function os(ua: string): string | null {
  let m = /Windows NT ([\d.]+)/.exec(ua);
  if (m) return `Windows ${WINDOWS[m[1] as string] ?? m[1]}`;
  if (/Windows/.test(ua)) return 'Windows';
  m = /(?:iPhone|iPad|iPod).*? OS ([\d_]+)/.exec(ua);
  if (m) return `iOS ${(m[1] as string).replace(/_/g, '.')}`;
  m = /Android ([\d.]+)/.exec(ua);
  if (m) return `Android ${m[1]}`;
  if (/Android/.test(ua)) return 'Android';
  m = /Mac OS X ([\d_.]+)/.exec(ua);
  if (m) return `macOS ${(m[1] as string).replace(/_/g, '.')}`;
  if (/Macintosh/.test(ua)) return 'macOS';
  if (/Linux|X11|CrOS/.test(ua)) return 'Linux';
  return null;
}

function browser(ua: string): string | null {
  for (const [pattern, name] of BROWSERS) {
    const m = pattern.exec(ua);
    if (!m) continue;
    const version = m[1] ?? m[2];
    return version ? `${name} ${version.split('.')[0]}` : name;
  }
  return null;
}

// A district's users come with a handful of browsers: remember recent answers instead of running the regexes
// on every logged request.
const recent = new Map<string, Readonly<ClientInfo>>();
const RECENT_LIMIT = 256;
const UNKNOWN: Readonly<ClientInfo> = Object.freeze({ browser: null, os: null });

/** Like `parseUserAgent`, but the shared, frozen answer of the cache (no copy): for the per-request log rows. */
export function clientInfo(userAgent: string | null | undefined): Readonly<ClientInfo> {
  if (!userAgent) return UNKNOWN;
  const known = recent.get(userAgent);
  if (known) return known;
  const info = Object.freeze({ browser: browser(userAgent), os: os(userAgent) });
  if (recent.size >= RECENT_LIMIT) recent.delete(recent.keys().next().value as string);
  recent.set(userAgent, info);
  return info;
}

/** `{ browser: 'Chrome 126', os: 'Windows 10' }`; null parts when the agent is missing or unknown. */
export function parseUserAgent(userAgent: string | null | undefined): ClientInfo {
  return { ...clientInfo(userAgent) };
}
