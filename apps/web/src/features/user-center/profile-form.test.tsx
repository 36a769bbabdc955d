import type { BaseInfo } from '@shuzhi/contracts/user-center';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { ProfileForm } from './profile-form.tsx';

vi.mock('./user-center.api.ts', () => ({ userCenterApi: { saveBaseInfo: vi.fn() } }));

const INFO: BaseInfo = {
  id: 1,
  account: 'admin',
  realName: '管理员',
  nickName: null,
  phone: '13900000000',
  email: null,
  sex: 1,
  address: null,
  idCardNum: null,
  remark: null,
  avatar: null,
  signature: null,
  hasOpPassword: false,
} as BaseInfo;

const value = (testId: string) => (screen.getByTestId(testId) as HTMLInputElement).value;

describe('ProfileForm', () => {
  it('keeps what the person typed when the profile is read again, and takes the rest of the new answer', () => {
    const view = render(<ProfileForm info={INFO} onSaved={() => undefined} />);
    expect(value('profile-phone')).toBe('13900000000');
    fireEvent.change(screen.getByTestId('profile-phone'), { target: { value: '1391234' } });
    // An avatar upload reads the profile again: the nickname changed elsewhere, the phone did not.
    view.rerender(
      <ProfileForm info={{ ...INFO, nickName: '小管', avatar: '/a.png' }} onSaved={() => undefined} />,
    );
    expect(value('profile-phone')).toBe('1391234');
    expect(value('profile-nickName')).toBe('小管');
  });
});
