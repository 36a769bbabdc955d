import { sm2 } from 'sm-crypto';

/** Signs a seeded account in with the default password and returns its access token. */
export async function signIn(baseUrl: string, account = 'admin'): Promise<string> {
  const config = (await (await fetch(`${baseUrl}/api/sysAuth/loginConfig`)).json()) as {
    result: { publicKey: string };
  };
  const password = sm2.doEncrypt('Shuzhi@2026', config.result.publicKey, 1);
  const response = await fetch(`${baseUrl}/api/sysAuth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account, password }),
  });
  const body = (await response.json()) as { code: number; message: string; result: { accessToken: string } };
  if (body.code !== 200) throw new Error(`Sign-in failed: ${body.message}`);
  return body.result.accessToken;
}
