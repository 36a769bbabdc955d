import { describe, expect, it } from 'vitest';
import { autoLoginRequest, withoutAutoLoginParams } from './auto-login.ts';

const req = (query: string) => autoLoginRequest(new URLSearchParams(query));

describe('automatic login by URL parameter (SPEC §4)', () => {
  it('maps each parameter to its login type and sends its value', () => {
    expect(req('code=abc')).toEqual({ code: 'abc', type: 1, paramName: 'code' });
    expect(req('userid=u1')).toEqual({ code: 'u1', type: 3, paramName: 'userid' });
    expect(req('userId=u2')).toEqual({ code: 'u2', type: 3, paramName: 'userId' });
    expect(req('ticket=t')).toMatchObject({ code: 't', type: 4 });
    expect(req('corpId=c')).toMatchObject({ code: 'c', type: 5, paramName: 'corpId' });
    expect(req('sid=s')).toMatchObject({ code: 's', type: 6 });
    expect(req('art=a')).toMatchObject({ code: 'a', type: 8 });
    expect(req('encryptData=e')).toMatchObject({ code: 'e', type: 8, paramName: 'encryptData' });
    expect(req('accessToken=x')).toMatchObject({ code: 'x', type: 10 });
    expect(req('param=p')).toMatchObject({ code: 'p', type: 21 });
  });

  it('prefers the specific parameter over a plain code; corpId sends the accompanying code', () => {
    expect(req('code=abc&ticket=t')).toMatchObject({ code: 't', type: 4, paramName: 'ticket' });
    expect(req('corpId=ding1&code=auth9')).toMatchObject({ code: 'auth9', type: 5, paramName: 'corpId' });
  });

  it('lets an explicit type or systemType win', () => {
    expect(req('code=abc&type=7')).toMatchObject({ code: 'abc', type: 7 });
    expect(req('userid=u&systemType=21')).toMatchObject({ type: 21 });
    expect(req('code=abc&type=x')).toMatchObject({ type: 1 });
  });

  it('sends usi for type 9 only', () => {
    expect(req('code=abc&type=9&usi=91310101MA1FP7K316')).toEqual({
      code: 'abc',
      type: 9,
      paramName: 'code',
      usi: '91310101MA1FP7K316',
    });
    expect(req('code=abc&usi=91310101MA1FP7K316')).not.toHaveProperty('usi');
  });

  it('does nothing without a credential', () => {
    expect(req('')).toBeNull();
    expect(req('type=1&openType=iframenoheader')).toBeNull();
    expect(req('code=')).toBeNull();
    expect(req('id=5&redirect=/x')).toBeNull();
  });

  it('drops the credential and its companions from the target URL', () => {
    expect(withoutAutoLoginParams('/diyReport', '?code=a&type=9&usi=u&openType=iframenoheader')).toBe(
      '/diyReport?openType=iframenoheader',
    );
    expect(withoutAutoLoginParams('/x', '?ticket=t&id=3')).toBe('/x?id=3');
    expect(withoutAutoLoginParams('/x', '?ticket=t')).toBe('/x');
  });
});
