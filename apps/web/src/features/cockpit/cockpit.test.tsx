import type { CockpitData } from '@shuzhi/contracts/cockpit';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { HttpError } from '../../platform/http/http-client.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';
import { mapOption } from './cockpit-map.tsx';

const api = vi.hoisted(() => ({
  data: vi.fn(),
  dataByLink: vi.fn(),
  config: vi.fn(),
  saveConfig: vi.fn(),
  links: vi.fn(),
  addLink: vi.fn(),
  revokeLink: vi.fn(),
  forms: vi.fn(),
}));
vi.mock('./cockpit.api.ts', async (original) => ({
  ...(await original<typeof import('./cockpit.api.ts')>()),
  cockpitApi: api,
}));
// Canvas charts do not draw in jsdom: the map shows the option's areas.
vi.mock('./cockpit-map.tsx', async (original) => ({
  ...(await original<typeof import('./cockpit-map.tsx')>()),
  CockpitMap: ({ option }: { option: { series: { data: unknown[] }[] } }) => (
    <div data-testid="cockpit-map-chart">{JSON.stringify(option.series[0]?.data)}</div>
  ),
}));

const { default: CockpitPage, stageTransform } = await import('./cockpit.page.tsx');
const { default: CockpitConfigPage } = await import('./cockpit-config.page.tsx');

configure({ asyncUtilTimeout: 10_000 });

const DATA: CockpitData = {
  config: {
    panels: ['progress', 'onTime', 'topForms', 'latest', 'alerts', 'figures', 'map', 'weather'],
    formIds: [],
    scaleMode: 'fit',
    refreshSeconds: 60,
  },
  now: '2026-11-28 09:30:00',
  district: '黄浦区',
  city: '上海市',
  forms: [
    {
      tableId: 9,
      title: '社区人口月报',
      periodName: '2026年11月',
      dueDate: '2026-11-20',
      records: 3,
      expectedUnits: 6,
      reportedUnits: 4,
      onTime: 2,
      figures: [
        { label: '报送份数', value: 3, last: 5 },
        { label: '户籍人口', value: 350, last: null },
      ],
    },
  ],
  progress: { expected: 6, reported: 4, records: 3 },
  onTime: { records: 3, onTime: 2 },
  topForms: [{ tableId: 9, title: '社区人口月报', records: 3 }],
  latest: [{ tableId: 9, title: '社区人口月报', orgName: '贵州路居委会', submitTime: '2026-11-27 10:05:00' }],
  alerts: [
    {
      tableId: 9,
      title: '社区人口月报',
      periodName: '2026年11月',
      dueDate: '2026-11-20',
      orgName: '福州路居委会',
    },
  ],
  districts: [{ name: '上海市黄浦区', records: 3 }],
  weather: {
    status: 'off',
    city: '上海',
    text: null,
    temperature: null,
    humidity: null,
    wind: null,
    fetchedAt: null,
  },
};

function renderAt(path: string, page: React.ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <MemoryRouter initialEntries={[path]}>{page}</MemoryRouter>
      </App>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.clearAllMocks();
});

describe('scaling', () => {
  it('letterboxes the 1920×1080 design, or stretches it', () => {
    expect(stageTransform('fit', 1920, 1080)).toBe('translate(0px, 0px) scale(1)');
    // 1366×768 is a little wider than 16:9: scaled by its height, with bands left and right.
    const fit = stageTransform('fit', 1366, 768);
    const s = Math.min(1366 / 1920, 768 / 1080);
    expect(fit).toBe(`translate(${(1366 - 1920 * s) / 2}px, ${(768 - 1080 * s) / 2}px) scale(${s})`);
    expect(stageTransform('fit', 1080, 1920)).toMatch(/^translate\(0px, [\d.]+px\) scale\(0\.5625\)$/);
    expect(stageTransform('stretch', 1366, 768)).toBe(`scale(${1366 / 1920}, ${768 / 1080})`);
  });

  it('the map names districts as the map does and outlines the own one', () => {
    const option = mapOption(
      [
        { name: '上海市黄浦区', records: 3 },
        { name: '徐汇区', records: 1 },
      ],
      '黄浦区',
      'n',
    );
    const data = (option.series as { data: { name: string; itemStyle?: object }[] }[])[0]?.data ?? [];
    expect(data.map((d) => d.name)).toEqual(['黄浦区', '徐汇区']);
    expect(data[0]?.itemStyle).toMatchObject({ borderWidth: 3 });
    expect(data[1]?.itemStyle).toBeUndefined();
  });
});

describe('the screen', () => {
  it('shows the configured panels with their figures and says plainly that there is no weather', async () => {
    api.data.mockResolvedValue(DATA);
    renderAt('/jsc', <CockpitPage />);
    const progress = await screen.findByTestId('cockpit-progress');
    expect(progress.textContent).toContain('66.7%');
    expect(progress.textContent).toContain('4 / 应报单位 6');
    expect(screen.getByTestId('cockpit-onTime').textContent).toContain('66.7%');
    expect(screen.getByTestId('cockpit-weather-none').textContent).toContain('未配置天气服务');
    expect(screen.getByTestId('cockpit-latest').textContent).toContain('贵州路居委会');
    expect(screen.getByTestId('cockpit-alerts').textContent).toContain('福州路居委会');
    expect(screen.getByTestId('cockpit-figures').textContent).toContain('350');
    expect(screen.getByTestId('cockpit-map-chart').textContent).toContain('黄浦区');
    expect(screen.getByTestId('cockpit-clock').textContent).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
    expect(api.dataByLink).not.toHaveBeenCalled();
  });

  it('draws only the panels the answer carries', async () => {
    api.data.mockResolvedValue({
      ...DATA,
      config: { ...DATA.config, panels: ['progress'] },
      onTime: null,
      topForms: null,
      latest: null,
      alerts: null,
      districts: null,
      weather: null,
    });
    renderAt('/jsc', <CockpitPage />);
    await screen.findByTestId('cockpit-progress');
    for (const id of ['onTime', 'topForms', 'latest', 'alerts', 'map', 'weather', 'figures'])
      expect(screen.queryByTestId(`cockpit-${id}`)).toBeNull();
  });

  it('a failed provider is named as such, a working one shows its figures', async () => {
    api.data.mockResolvedValue({ ...DATA, weather: { ...DATA.weather, status: 'failed' } });
    const view = renderAt('/jsc', <CockpitPage />);
    expect((await screen.findByTestId('cockpit-weather-none')).textContent).toContain('暂时无法访问');
    view.unmount();
    api.data.mockResolvedValue({
      ...DATA,
      weather: { ...DATA.weather, status: 'ok', text: '多云', temperature: 12.5, humidity: 60 },
    });
    renderAt('/jsc', <CockpitPage />);
    const weather = await screen.findByTestId('cockpit-weather');
    await waitFor(() => expect(weather.textContent).toContain('12.5℃'));
    expect(weather.textContent).toContain('湿度 60%');
  });

  it('opens through a signed link and ends on a refused one', async () => {
    api.dataByLink.mockResolvedValue(DATA);
    const view = renderAt('/jsc?link=abc', <CockpitPage />);
    await screen.findByTestId('cockpit-progress');
    expect(api.dataByLink).toHaveBeenCalledWith('abc');
    expect(api.data).not.toHaveBeenCalled();
    view.unmount();
    api.dataByLink.mockRejectedValue(new HttpError('expired', 'B1022'));
    renderAt('/jsc?link=old', <CockpitPage />);
    expect((await screen.findByTestId('cockpit-ending')).textContent).toContain('驾驶舱链接已过期');
  });
});

describe('settings', () => {
  it('a viewer only opens the cockpit', async () => {
    useSessionStore.setState({ buttons: ['cockpit:view'] });
    renderAt('/jsc/config', <CockpitConfigPage />);
    expect(await screen.findByText('打开驾驶舱')).toBeTruthy();
    expect(screen.queryByText('展示设置')).toBeNull();
    expect(api.config).not.toHaveBeenCalled();
  });

  it('an admin saves the panels and creates a link', async () => {
    useSessionStore.setState({ buttons: ['cockpit:view', 'cockpit:config'] });
    api.config.mockResolvedValue(DATA.config);
    api.forms.mockResolvedValue([{ id: 9, title: '社区人口月报', reportType: 1 }]);
    api.links.mockResolvedValue([]);
    api.saveConfig.mockResolvedValue(null);
    const link = {
      id: 1,
      url: '/jsc?link=x',
      expireTime: '2099-01-01 00:00:00',
      revoked: false,
      createUserName: 'admin',
      createTime: '2026-11-28 09:00:00',
    };
    api.addLink.mockResolvedValue(link);
    renderAt('/jsc/config', <CockpitConfigPage />);
    const weather = await screen.findByRole('checkbox', { name: '天气' });
    await waitFor(() => expect((weather as HTMLInputElement).checked).toBe(true));
    fireEvent.click(weather);
    fireEvent.click(screen.getByRole('radio', { name: '拉伸铺满' }));
    fireEvent.click(screen.getByRole('button', { name: '保存设置' }));
    await waitFor(() =>
      expect(api.saveConfig).toHaveBeenCalledWith({
        ...DATA.config,
        panels: DATA.config.panels.filter((p) => p !== 'weather'),
        scaleMode: 'stretch',
      }),
    );
    api.links.mockResolvedValue([link]);
    fireEvent.click(screen.getByRole('button', { name: '生成链接' }));
    await waitFor(() => expect(api.addLink).toHaveBeenCalledWith(30));
    const table = await screen.findByRole('table');
    await waitFor(() =>
      expect(within(table).getByTestId('cockpit-link-url').textContent).toContain('/jsc?link=x'),
    );
  });
});
