import { describe, expect, it } from 'vitest';
import { captchaSrc } from '../features/auth/login.api.ts';
import { storageKey } from '../platform/storage/storage.ts';
import {
  hashLinkTarget,
  homePath,
  homeTarget,
  isNoHeaderMode,
  isNoLoginPath,
  loginTarget,
  safeRedirect,
} from './navigation.ts';

describe('navigation targets (SPEC §2)', () => {
  it('sends signed-in users home, type 9 to the enterprise portal', () => {
    expect(homeTarget(null)).toBe('/dashboard');
    expect(homeTarget(1, 'iframenoheader')).toBe('/dashboard');
    expect(homeTarget(9)).toBe('/diyReport');
    expect(homeTarget(9, 'iframenoheader')).toBe('/enterprise/reportClassify');
  });

  it('sends an enterprise (666) account to its portal whatever the login type; staff as before', () => {
    expect(homeTarget(null, null, 666)).toBe('/enterprise');
    expect(homeTarget(9, null, 666)).toBe('/enterprise');
    expect(homeTarget(1, 'iframenoheader', 666)).toBe('/enterprise/reportClassify');
    expect(homeTarget(null, null, 777)).toBe('/dashboard');
    expect(homeTarget(9, null, 777)).toBe('/diyReport');
    expect(homePath(666)).toBe('/enterprise');
    expect(homePath(888)).toBe('/dashboard');
    expect(homePath(null)).toBe('/dashboard');
  });

  it('sends unknown users to login', () => {
    expect(loginTarget(null)).toBe('/login');
    expect(loginTarget(null, '/')).toBe('/login');
    expect(loginTarget('iframenoheader', '/system/user')).toBe('/login?type=1&openType=iframenoheader');
    expect(loginTarget(null, '/system/user?id=1')).toBe('/login?redirect=%2Fsystem%2Fuser%3Fid%3D1');
  });

  it('lists the login-free pages', () => {
    for (const path of [
      '/login',
      '/noAuthIndex',
      '/scancode',
      '/statement',
      '/customScene',
      '/rubbish',
      '/rubbish/formTable',
      '/diyReport/rowConfirm',
    ]) {
      expect(isNoLoginPath(path)).toBe(true);
    }
    expect(isNoLoginPath('/dashboard')).toBe(false);
  });

  it('opens hash links without the hash', () => {
    expect(hashLinkTarget('#/scancode?QrCodeType=1&id=2')).toBe('/scancode?QrCodeType=1&id=2');
    expect(hashLinkTarget('#/dashboard')).toBe('/dashboard');
    expect(hashLinkTarget('#section')).toBeNull();
    expect(hashLinkTarget('')).toBeNull();
  });

  it('only redirects to same-origin paths', () => {
    expect(safeRedirect('/system/user')).toBe('/system/user');
    expect(safeRedirect('//evil.example')).toBeNull();
    expect(safeRedirect('https://evil.example')).toBeNull();
    expect(safeRedirect('/login')).toBeNull();
  });
});

describe('storage keys (SPEC §9)', () => {
  it('prefixes with the host', () => {
    expect(storageKey('access-token', 'gov.example:5005')).toBe('gov.example:5005:access-token');
    expect(storageKey('tagsViewList')).toBe(`${window.location.host}:tagsViewList`);
  });
});

describe('captcha image', () => {
  it('accepts data URLs and bare base64', () => {
    expect(captchaSrc('data:image/png;base64,iVBORw0KGgo=')).toBe('data:image/png;base64,iVBORw0KGgo=');
    expect(captchaSrc('iVBORw0KGgoAAA')).toBe('data:image/png;base64,iVBORw0KGgoAAA');
    expect(captchaSrc('PHN2ZyB4bWxucz0')).toBe('data:image/svg+xml;base64,PHN2ZyB4bWxucz0');
    expect(captchaSrc('/9j/4AAQSkZJRg')).toBe('data:image/jpeg;base64,/9j/4AAQSkZJRg');
  });
});

describe('isNoHeaderMode', () => {
  it('turns on with openType=iframenoheader and stays on for the tab, off otherwise', () => {
    window.sessionStorage.clear();
    expect(isNoHeaderMode('?id=1')).toBe(false);
    expect(isNoHeaderMode('?openType=iframenoheader')).toBe(true);
    expect(isNoHeaderMode('?id=2')).toBe(true);
    window.sessionStorage.clear();
    expect(isNoHeaderMode('?openType=other')).toBe(false);
  });
});
