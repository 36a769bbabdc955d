import type { AutoLoginInput } from '@shuzhi/contracts/login-modes';

/**
 * URL parameters that trigger an automatic login and the login type each stands for (SPEC §4), in the order
 * they are looked at: the specific credentials first, the plain `code` last (it also accompanies some of them).
 */
const AUTO_LOGIN_PARAMS: readonly { name: string; type: number }[] = [
  { name: 'userid', type: 3 },
  { name: 'userId', type: 3 },
  { name: 'ticket', type: 4 },
  { name: 'corpId', type: 5 },
  { name: 'sid', type: 6 },
  { name: 'art', type: 8 },
  { name: 'encryptData', type: 8 },
  { name: 'accessToken', type: 10 },
  { name: 'param', type: 21 },
  { name: 'code', type: 1 },
];

/** Parameters that only shape an automatic login; dropped from the URL with the credential. */
const COMPANION_PARAMS = ['type', 'systemType', 'usi'];

const present = (params: URLSearchParams, name: string) => (params.get(name) ?? '').trim() !== '';

function explicitType(params: URLSearchParams): number | null {
  for (const name of ['type', 'systemType']) {
    const raw = params.get(name)?.trim();
    if (raw && /^\d+$/.test(raw)) return Number(raw);
  }
  return null;
}

/**
 * The automatic login a URL asks for, or null. The credential is the triggering parameter's value, except
 * for corpId, which names the organisation: its credential is the accompanying `code` when there is one. An
 * explicit `type` or `systemType` overrides the parameter's type; type 9 also sends `usi`.
 */
export function autoLoginRequest(params: URLSearchParams): AutoLoginInput | null {
  const trigger = AUTO_LOGIN_PARAMS.find((p) => present(params, p.name));
  if (!trigger) return null;
  const code =
    trigger.name === 'corpId' && present(params, 'code')
      ? (params.get('code') ?? '')
      : (params.get(trigger.name) ?? '');
  const type = explicitType(params) ?? trigger.type;
  const request: AutoLoginInput = { code: code.trim(), type, paramName: trigger.name };
  if (type === 9) request.usi = params.get('usi')?.trim() ?? '';
  return request;
}

/** The same URL without the automatic-login parameters (where to go once signed in). */
export function withoutAutoLoginParams(pathname: string, search: string): string {
  const params = new URLSearchParams(search);
  for (const { name } of AUTO_LOGIN_PARAMS) params.delete(name);
  for (const name of COMPANION_PARAMS) params.delete(name);
  const rest = params.toString();
  return rest ? `${pathname}?${rest}` : pathname;
}
