import { formDesignSchema } from '@shuzhi/contracts/diy-form';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { App } from 'antd';
import { describe, expect, it } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { DesignPreview } from './design-preview.tsx';

const DESIGN = formDesignSchema.parse({
  fields: [
    { id: 'name', type: 'text', label: '名称', required: true, span: 12 },
    { id: 'who', type: 'text', label: '填报人', default: { kind: 'fillerName' }, span: 12 },
  ],
});
const FILLER = { orgId: 1, regionCode: null, realName: '张伟', userId: 1 };

function renderPreview() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <App>
        <DesignPreview design={DESIGN} filler={FILLER} />
      </App>
    </QueryClientProvider>,
  );
}

describe('DesignPreview', () => {
  it('switches between desktop and phone width', () => {
    renderPreview();
    expect(screen.getByTestId('diy-field-name').className).toContain('ant-col-12');
    fireEvent.click(within(screen.getByTestId('diy-preview-width')).getByText('手机'));
    expect(screen.getByTestId('diy-form').dataset.width).toBe('phone');
    expect(screen.getByTestId('diy-field-name').className).toContain('ant-col-24');
  });

  it('starts with the defaults and runs the submit check without saving', () => {
    renderPreview();
    const who = screen.getByTestId('diy-field-who').querySelector('input') as HTMLInputElement;
    expect(who.value).toBe('张伟');
    fireEvent.click(screen.getByTestId('diy-preview-check'));
    expect(screen.getByTestId('diy-preview-result').textContent).toContain('名称不能为空');
    expect(screen.getByTestId('diy-error-diy-preview-name').textContent).toBe('名称不能为空');

    const name = screen.getByTestId('diy-field-name').querySelector('input') as HTMLInputElement;
    fireEvent.change(name, { target: { value: '区发改委' } });
    fireEvent.click(screen.getByTestId('diy-preview-check'));
    expect(screen.getByTestId('diy-preview-result').textContent).toContain('校验通过');

    fireEvent.click(screen.getByTestId('diy-preview-reset'));
    expect((screen.getByTestId('diy-field-name').querySelector('input') as HTMLInputElement).value).toBe('');
    expect(screen.queryByTestId('diy-preview-result')).toBeNull();
  });
});
