import { beforeEach, describe, expect, it } from 'vitest';
import { tokens } from '../storage/storage.ts';
import { bindSessionToPage, pageSessionClosed } from './sso-session.ts';

function fakeToken(sessionId: number): string {
  const payload = btoa(JSON.stringify({ SessionId: sessionId })).replace(/=+$/, '');
  return `e30.${payload}.sig`;
}

describe('SingleSignOnExpire', () => {
  beforeEach(() => {
    window.sessionStorage.clear();
    tokens.save(fakeToken(7));
  });

  it('keeps a session when the value is above 0', () => {
    bindSessionToPage(1);
    window.sessionStorage.clear(); // the page was closed
    expect(pageSessionClosed()).toBe(false);
  });

  it('binds the session to the page at 0: a reload keeps it, a closed page ends it', () => {
    bindSessionToPage(0);
    expect(pageSessionClosed()).toBe(false);
    window.sessionStorage.clear();
    expect(pageSessionClosed()).toBe(true);
  });

  it('never touches a later session of another sign-in', () => {
    bindSessionToPage(0);
    window.sessionStorage.clear();
    tokens.save(fakeToken(8));
    expect(pageSessionClosed()).toBe(false);
  });
});
