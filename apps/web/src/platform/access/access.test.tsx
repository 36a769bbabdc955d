import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useSessionStore } from '../session/session.store.ts';
import { Auth, AuthAll, AuthAny, canAny } from './access.tsx';

function grant(buttons: string[]) {
  useSessionStore.setState({ buttons });
}

afterEach(() => grant([]));

describe('permission wrappers', () => {
  it('Auth renders only with the permission and removes the element otherwise', () => {
    grant(['sysUser:add']);
    render(
      <div data-testid="box">
        <Auth value="sysUser:add">
          <button type="button">add</button>
        </Auth>
        <Auth value="sysUser:delete">
          <button type="button">delete</button>
        </Auth>
      </div>,
    );
    expect(screen.getByText('add')).toBeTruthy();
    expect(screen.queryByText('delete')).toBeNull();
    expect(screen.getByTestId('box').querySelectorAll('button')).toHaveLength(1);
  });

  it('AuthAny needs one of the permissions, or a true entry', () => {
    grant(['sysUser:page']);
    render(
      <>
        <AuthAny value={['sysUser:add', 'sysUser:page']}>
          <span>any-yes</span>
        </AuthAny>
        <AuthAny value={['sysUser:add', 'sysUser:delete']}>
          <span>any-no</span>
        </AuthAny>
        <AuthAny value={['sysRole:add', true]}>
          <span>any-true</span>
        </AuthAny>
      </>,
    );
    expect(screen.queryByText('any-yes')).not.toBeNull();
    expect(screen.queryByText('any-no')).toBeNull();
    expect(screen.queryByText('any-true')).not.toBeNull();
  });

  it('AuthAll needs every permission', () => {
    grant(['sysUser:add', 'sysUser:update']);
    render(
      <>
        <AuthAll value={['sysUser:add', 'sysUser:update']}>
          <span>all-yes</span>
        </AuthAll>
        <AuthAll value={['sysUser:add', 'sysUser:delete']}>
          <span>all-no</span>
        </AuthAll>
      </>,
    );
    expect(screen.queryByText('all-yes')).not.toBeNull();
    expect(screen.queryByText('all-no')).toBeNull();
  });

  it('canAny ignores false entries', () => {
    expect(canAny([], [false])).toBe(false);
  });
});
