import type { AllDictList } from '@shuzhi/contracts/dict';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { DICT_KEYS } from '../../platform/dict/dict.store.ts';
import { useThemeStore } from '../../platform/theme/theme.store.ts';
import { DictSelect } from './dict-select.tsx';
import { DictTag } from './dict-tag.tsx';

const item = (
  id: number,
  label: string,
  value: string,
  tagType: string | null,
  status = 1,
  orderNo = id,
) => ({
  id,
  dictTypeId: 1,
  label,
  value,
  tagType,
  styleSetting: null,
  classSetting: null,
  extData: null,
  orderNo,
  status,
  remark: null,
});

const DICTS: AllDictList = {
  sys_flag: [item(1, '是', '1', 'warning'), item(2, '否', '2', 'default')],
  config_group: [
    item(12, '站点', 'Web', null, 1, 4),
    item(11, '默认', 'Default', null, 1, 1),
    item(13, '停用的分组', 'Old', null, 2, 2),
  ],
};

function withDicts(children: ReactNode) {
  const client = new QueryClient();
  client.setQueryData([...DICT_KEYS.all, useThemeStore.getState().globalI18n], DICTS);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

describe('DictTag', () => {
  it('shows the label in the colour of the item, matching numbers to text values', () => {
    render(withDicts(<DictTag code="sys_flag" value={1} data-testid="tag" />));
    const tag = screen.getByTestId('tag');
    expect(tag.textContent).toBe('是');
    expect(tag.className).toContain('ant-tag-warning');
  });

  it('shows an unknown value as it is and nothing for an empty one', () => {
    render(
      withDicts(
        <>
          <DictTag code="sys_flag" value="9" data-testid="unknown" />
          <DictTag code="sys_flag" value={null} data-testid="empty" />
        </>,
      ),
    );
    expect(screen.getByTestId('unknown').textContent).toBe('9');
    expect(screen.queryByTestId('empty')).toBeNull();
  });
});

describe('DictSelect', () => {
  it('offers the enabled items of the type in order', async () => {
    render(withDicts(<DictSelect code="config_group" open data-testid="select" />));
    const options = await screen.findAllByTestId('dict-option');
    expect(options.map((o) => o.textContent)).toEqual(['默认', '站点']);
  });

  it('gives numbers for numeric dictionaries', async () => {
    let picked: unknown;
    render(
      withDicts(
        <DictSelect
          code="sys_flag"
          numeric
          open
          onChange={(value) => {
            picked = value;
          }}
        />,
      ),
    );
    const options = await screen.findAllByTestId('dict-option');
    fireEvent.click(options[1]);
    expect(picked).toBe(2);
  });
});
