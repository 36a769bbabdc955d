import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RegionNode, RegionSearchHit } from './region.api.ts';
import { hitsToOptions, RegionCascader } from './region-cascader.tsx';

const node = (code: string, name: string, level: number, isLeaf = false): RegionNode => ({
  id: Number(code),
  pid: 0,
  code,
  name,
  level,
  isLocal: 0,
  isLeaf,
});
const SH = node('31', '上海市', 1);
const SX = node('3101', '市辖区', 2);
const HP = node('310101', '黄浦区', 3);
const NJ = node('310101002', '南京东路街道', 4);
const GZ = node('310101002001', '贵州路居委会', 5, true);
const CHILDREN: Record<number, RegionNode[]> = {
  0: [SH],
  31: [SX],
  3101: [HP],
  310101: [NJ],
  310101002: [GZ],
};
const PATHS: Record<string, RegionNode[]> = {
  '310101': [SH, SX, HP],
  '310101002001': [SH, SX, HP, NJ, GZ],
};
const HIT: RegionSearchHit = {
  id: 310101002001,
  code: '310101002001',
  name: '贵州路居委会',
  level: 5,
  isLocal: 0,
  codePath: ['31', '3101', '310101', '310101002', '310101002001'],
  namePath: ['上海市', '市辖区', '黄浦区', '南京东路街道', '贵州路居委会'],
};

const api = vi.hoisted(() => ({
  tree: vi.fn(),
  root: vi.fn(),
  path: vi.fn(),
  search: vi.fn(),
}));
vi.mock('./region.api.ts', () => ({ regionApi: api }));
api.tree.mockImplementation(async (pid = 0) => CHILDREN[pid] ?? []);
api.root.mockImplementation(async () => ({ areaCode: '310101', node: HP, path: PATHS['310101'] }));
api.path.mockImplementation(async (code: string) => PATHS[code] ?? []);
api.search.mockImplementation(async () => [HIT]);

afterEach(() => {
  api.tree.mockClear();
  api.search.mockClear();
  api.path.mockClear();
});

const open = () => {
  const select =
    screen.getByTestId('region-cascader').querySelector('.ant-select') ??
    screen.getByTestId('region-cascader');
  fireEvent.mouseDown(select.querySelector('.ant-select-selector') ?? select);
};

describe('RegionCascader', () => {
  it('builds search hits into option paths cut at the root', () => {
    const options = hitsToOptions([HIT], ['31', '3101', '310101']);
    expect(options.map((o) => o.value)).toEqual(['310101']);
    const leaf = options[0]?.children?.[0]?.children?.[0];
    expect(leaf).toMatchObject({ value: '310101002001', label: '贵州路居委会', hit: true });
    expect(hitsToOptions([HIT], []).map((o) => o.value)).toEqual(['31']);
  });

  it("starts at the profile's district and loads children lazily", async () => {
    const onChange = vi.fn();
    render(<RegionCascader onChange={onChange} />);
    await waitFor(() => expect(api.root).toHaveBeenCalled());
    open();
    const district = await screen.findByText('黄浦区');
    fireEvent.click(district);
    expect(await screen.findByText('南京东路街道')).toBeTruthy();
    expect(api.tree).toHaveBeenCalledWith(310101);
    expect(onChange).toHaveBeenLastCalledWith(['310101'], expect.anything());
  });

  it('resolves an initial single code to its path and shows the names', async () => {
    const onChange = vi.fn();
    render(<RegionCascader value={['310101002001']} onChange={onChange} />);
    await waitFor(() => expect(api.path).toHaveBeenCalledWith('310101002001'));
    await waitFor(() => expect(onChange).toHaveBeenCalledWith(['310101', '310101002', '310101002001'], []));
  });

  it('searches the server after a pause in typing and offers the hit with its path', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const onChange = vi.fn();
      render(<RegionCascader onChange={onChange} root="province" debounceMs={200} />);
      await waitFor(() => expect(api.tree).toHaveBeenCalledWith(0));
      const input = screen.getByRole('combobox');
      fireEvent.change(input, { target: { value: '贵' } });
      fireEvent.change(input, { target: { value: '贵州' } });
      expect(api.search).not.toHaveBeenCalled();
      await act(async () => {
        vi.advanceTimersByTime(250);
      });
      await waitFor(() => expect(api.search).toHaveBeenCalledTimes(1));
      expect(api.search).toHaveBeenCalledWith('贵州', { rootCode: null, limit: 30 });
      const option = await screen.findByText((_, el) =>
        Boolean(
          el?.classList.contains('ant-cascader-menu-item-content') &&
            el.textContent?.includes('贵州路居委会'),
        ),
      );
      expect(option.textContent).toContain('上海市');
      fireEvent.click(option);
      expect(onChange).toHaveBeenLastCalledWith(
        ['31', '3101', '310101', '310101002', '310101002001'],
        expect.anything(),
      );
    } finally {
      vi.useRealTimers();
    }
  });
});
