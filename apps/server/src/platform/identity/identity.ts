import type { AppConfig } from '../config/config.ts';

/** What the browser brought back from the third-party system (SPEC §4, §7 autoLogin). */
export type IdentityRequest = { type: number; code: string; paramName: string | null; usi: string | null };

/**
 * Who the provider vouches for: exactly one way to find the local account. Nothing the browser sent is
 * trusted; only the provider's answer names the person.
 */
export type IdentityClaim =
  | { by: 'account'; value: string }
  | { by: 'phone'; value: string }
  | { by: 'idCardNum'; value: string }
  | { by: 'usi'; value: string };

/** Resolves a credential; null when the provider refused it, did not answer or answered nonsense. */
export type IdentityAdapter = {
  readonly name: string;
  resolve(request: IdentityRequest): Promise<IdentityClaim | null>;
};

/** Automatic login switched off: every credential is refused. */
export const noIdentityAdapter: IdentityAdapter = { name: 'none', resolve: async () => null };

const CLAIM_FIELDS = ['account', 'phone', 'idCardNum', 'usi'] as const;

/** Reads the provider's JSON answer: the first of account, phone, idCardNum, usi that is a non-empty string. */
export function claimFromAnswer(answer: unknown): IdentityClaim | null {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return null;
  const record = answer as Record<string, unknown>;
  for (const field of CLAIM_FIELDS) {
    const value = record[field];
    if (typeof value === 'string' && value.trim() !== '' && value.length <= 64) {
      return { by: field, value: value.trim() };
    }
  }
  return null;
}

/**
 * The generic adapter: POSTs `{type, code, paramName, usi}` as JSON to the configured endpoint, `{type}` in
 * the URL replaced by the login type (so each type can go to its own path or host behind one gateway). Only
 * an HTTP 2xx JSON answer carrying `account`, `phone`, `idCardNum` or `usi` counts.
 */
export function httpIdentityAdapter(urlTemplate: string, timeoutMs: number): IdentityAdapter {
  return {
    name: 'http',
    async resolve(request) {
      const url = urlTemplate.replaceAll('{type}', String(request.type));
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(request),
          signal: AbortSignal.timeout(timeoutMs),
          redirect: 'error',
        });
        if (!response.ok) {
          await response.arrayBuffer().catch(() => undefined);
          return null;
        }
        return claimFromAnswer(await response.json());
      } catch {
        return null;
      }
    },
  };
}

const adapters = new WeakMap<AppConfig, IdentityAdapter>();

/** The adapter the configuration selects: http when `AUTO_LOGIN_PROVIDER_URL` is set, otherwise none. */
export function identityAdapterFor(config: AppConfig): IdentityAdapter {
  let adapter = adapters.get(config);
  if (!adapter) {
    adapter = config.autoLogin.providerUrl
      ? httpIdentityAdapter(config.autoLogin.providerUrl, config.autoLogin.timeoutMs)
      : noIdentityAdapter;
    adapters.set(config, adapter);
  }
  return adapter;
}
