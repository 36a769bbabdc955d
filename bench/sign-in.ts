import { sm2 } from 'sm-crypto';

const DEFAULT_PASSWORD = 'Shuzhi@2026';
/** What `signIn` changes the default password to, as the server requires before any other call. */
const BENCH_PASSWORD = 'Bench@2026ab';

type Envelope<T> = { code: number | string; message: string; result: T };
type LoginResult = { accessToken: string; isDefPwd: boolean; isUpdatePwd: boolean };

// Accounts this process has moved off the default password, per server.
const changed = new Set<string>();

async function post<T>(baseUrl: string, path: string, body: object, token?: string): Promise<Envelope<T>> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await response.json()) as Envelope<T>;
}

/**
 * Signs a seeded account in and returns its access token. A seeded account still has the default password,
 * and the server serves nothing else until it is changed: the first sign-in changes it to BENCH_PASSWORD
 * (as a person would), later ones use that.
 */
export async function signIn(baseUrl: string, account = 'admin'): Promise<string> {
  const config = (await (await fetch(`${baseUrl}/api/sysAuth/loginConfig`)).json()) as {
    result: { publicKey: string };
  };
  const encrypt = (text: string) => sm2.doEncrypt(text, config.result.publicKey, 1);
  const key = `${baseUrl} ${account}`;
  const login = (password: string) =>
    post<LoginResult>(baseUrl, '/api/sysAuth/login', { account, password: encrypt(password) });
  let password = changed.has(key) ? BENCH_PASSWORD : DEFAULT_PASSWORD;
  let body = await login(password);
  // A server kept from an earlier run: its accounts have the bench password already.
  if (body.code === 'D1000' && password === DEFAULT_PASSWORD) {
    password = BENCH_PASSWORD;
    body = await login(password);
  }
  if (body.code !== 200) throw new Error(`Sign-in failed: ${body.message}`);
  if (!body.result.isDefPwd && !body.result.isUpdatePwd) return body.result.accessToken;
  const change = await post<true>(
    baseUrl,
    '/api/sysUser/changePwd',
    { passwordOld: encrypt(password), passwordNew: encrypt(BENCH_PASSWORD) },
    body.result.accessToken,
  );
  if (change.code !== 200) throw new Error(`Password change failed: ${change.message}`);
  changed.add(key);
  return signIn(baseUrl, account);
}
