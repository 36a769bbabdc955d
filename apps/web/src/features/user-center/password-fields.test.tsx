import { fireEvent, render, screen } from '@testing-library/react';
import { Button, Form } from 'antd';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../platform/i18n/i18n.ts';
import { useThemeStore } from '../../platform/theme/theme.store.ts';
import { PasswordFields } from './password-fields.tsx';

const field = (name: string) => ({
  name,
  label: `L-${name}`,
  placeholder: `P-${name}`,
  required: `R-${name}`,
  testId: `f-${name}`,
});

function renderFields(strong: boolean) {
  const onFinish = vi.fn();
  render(
    <Form onFinish={onFinish}>
      <PasswordFields
        strong={strong}
        current={field('old')}
        next={{ ...field('new'), sameAsCurrent: 'SAME', extra: 'EXTRA' }}
        confirm={{ ...field('again'), mismatch: 'MISMATCH' }}
      />
      <Button htmlType="submit" data-testid="submit">
        ok
      </Button>
    </Form>,
  );
  const type = (name: string, value: string) =>
    fireEvent.change(screen.getByTestId(`f-${name}`), { target: { value } });
  return { onFinish, type };
}

beforeEach(() => useThemeStore.setState({ globalI18n: 'zh-cn' }));

describe('password fields', () => {
  it('asks for all three, with the texts it is given', async () => {
    const { onFinish } = renderFields(false);
    expect(screen.getByText('EXTRA')).toBeTruthy();
    fireEvent.click(screen.getByTestId('submit'));
    expect(await screen.findByText('R-old')).toBeTruthy();
    expect(screen.getByText('R-new')).toBeTruthy();
    expect(screen.getByText('R-again')).toBeTruthy();
    expect(onFinish).not.toHaveBeenCalled();
  });

  it('rejects a new password equal to the current one or a confirmation that differs, and shows the strength', async () => {
    const { onFinish, type } = renderFields(false);
    type('old', 'Shuzhi@2026');
    type('new', 'Shuzhi@2026');
    await vi.waitFor(() => expect(screen.getByTestId('password-strength').dataset.strength).toBe('strong'));
    type('again', 'Other@2026');
    fireEvent.click(screen.getByTestId('submit'));
    expect(await screen.findByText('SAME')).toBeTruthy();
    expect(await screen.findByText('MISMATCH')).toBeTruthy();
    type('new', 'Huangpu#2026x');
    type('again', 'Huangpu#2026x');
    fireEvent.click(screen.getByTestId('submit'));
    await vi.waitFor(() => expect(onFinish).toHaveBeenCalled());
    expect(onFinish.mock.calls[0]?.[0]).toEqual({
      old: 'Shuzhi@2026',
      new: 'Huangpu#2026x',
      again: 'Huangpu#2026x',
    });
  });

  it('applies the length rule, and the strong rule only when asked', async () => {
    const strong = renderFields(true);
    strong.type('new', 'abcdef123456');
    fireEvent.click(screen.getByTestId('submit'));
    expect(await screen.findByText(i18n.t('userCenter.strongRule'))).toBeTruthy();
    strong.type('new', 'abc');
    expect(await screen.findByText(i18n.t('userCenter.lengthRule'))).toBeTruthy();
  });

  it('lets a password of letters and digits through without the strong rule', async () => {
    const { onFinish, type } = renderFields(false);
    type('old', 'Shuzhi@2026');
    type('new', 'abcdef123456');
    type('again', 'abcdef123456');
    fireEvent.click(screen.getByTestId('submit'));
    await vi.waitFor(() => expect(onFinish).toHaveBeenCalled());
  });
});
