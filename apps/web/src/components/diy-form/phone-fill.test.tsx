import { type FormDesign, formDesignSchema, type RecordValues } from '@shuzhi/contracts/diy-form';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { createRef, type ReactNode, useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { FormRenderer, type FormRendererHandle, type FormRendererProps } from './form-renderer.tsx';
import { compressImage } from './image-compress.ts';

const api = vi.hoisted(() => ({ pick: vi.fn(), upload: vi.fn(), filesOfRecord: vi.fn() }));
vi.mock('./diy-form.api.ts', () => ({ diyFormApi: api }));

/**
 * Issue 22 §3, filling on a phone: at phone width (jsdom's matchMedia matches no breakpoint) the renderer
 * gives native date and number keyboards, a location field on the browser's geolocation, sub-tables as
 * cards, the camera for images with the photo compressed before upload, and scrolls to the first error.
 */

const design = (fields: unknown[]): FormDesign => formDesignSchema.parse({ fields });

function wrap(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  return (
    <QueryClientProvider client={client}>
      <App>{children}</App>
    </QueryClientProvider>
  );
}

function Harness({
  seen,
  initial = {},
  ...props
}: Omit<FormRendererProps, 'values' | 'onChange'> & {
  seen?: (values: RecordValues) => void;
  initial?: RecordValues;
}) {
  const [values, setValues] = useState<RecordValues>(initial);
  return (
    <FormRenderer
      width="phone"
      {...props}
      values={values}
      onChange={(next) => {
        setValues(next);
        seen?.(next);
      }}
    />
  );
}

const byId = (id: string) => document.getElementById(id) as HTMLInputElement;

type PositionCallback = (position: GeolocationPosition) => void;
type ErrorCallback = (error: GeolocationPositionError) => void;
const geolocation = { getCurrentPosition: vi.fn() };
const answer = (lat: number, lng: number, accuracy: number) =>
  geolocation.getCurrentPosition.mockImplementationOnce((ok: PositionCallback) =>
    ok({
      coords: { latitude: lat, longitude: lng, accuracy },
      timestamp: Date.UTC(2026, 10, 28, 1, 2, 3),
    } as GeolocationPosition),
  );
const refuse = (code: 1 | 2 | 3) =>
  geolocation.getCurrentPosition.mockImplementationOnce((_ok: PositionCallback, fail: ErrorCallback) =>
    fail({ code, message: 'no' } as GeolocationPositionError),
  );

beforeEach(() => {
  Object.defineProperty(navigator, 'geolocation', { value: geolocation, configurable: true });
});
afterEach(() => {
  geolocation.getCurrentPosition.mockReset();
  api.upload.mockReset();
  vi.restoreAllMocks();
});

vi.setConfig({ testTimeout: 60_000 });

describe('filling on a phone', () => {
  it('uses the phone’s own date pickers and number keyboards, one column, large controls', () => {
    const seen = vi.fn();
    render(
      wrap(
        <Harness
          seen={seen}
          design={design([
            { id: 'day', type: 'date', label: '日期', span: 8, min: '2026-01-01' },
            { id: 'at', type: 'datetime', label: '时间', span: 8 },
            { id: 'mon', type: 'month', label: '月份', span: 8 },
            { id: 'cnt', type: 'integer', label: '人数', span: 12 },
            { id: 'amt', type: 'money', label: '金额', span: 12 },
            {
              id: 'kind',
              type: 'radio',
              label: '类型',
              options: {
                source: 'options',
                items: [
                  { label: '企业', value: 'e' },
                  { label: '个体', value: 'p' },
                ],
              },
            },
          ])}
        />,
      ),
    );
    expect(byId('diy-day').type).toBe('date');
    expect(byId('diy-day').min).toBe('2026-01-01');
    expect(byId('diy-at').type).toBe('datetime-local');
    expect(byId('diy-mon').type).toBe('month');
    expect(byId('diy-cnt').getAttribute('inputmode')).toBe('numeric');
    expect(byId('diy-amt').getAttribute('inputmode')).toBe('decimal');
    expect(screen.getByTestId('diy-field-cnt').className).toContain('ant-col-24');
    expect(byId('diy-cnt').closest('.ant-input-number')?.className).toContain('ant-input-number-lg');
    // Choices one per row.
    expect((screen.getByTestId('diy-input-diy-kind') as HTMLElement).style.flexDirection).toBe('column');

    fireEvent.change(byId('diy-day'), { target: { value: '2026-11-28' } });
    expect(seen).toHaveBeenLastCalledWith(expect.objectContaining({ day: '2026-11-28' }));
    fireEvent.change(byId('diy-at'), { target: { value: '2026-11-28T08:30' } });
    expect(seen).toHaveBeenLastCalledWith(expect.objectContaining({ at: '2026-11-28 08:30:00' }));
    fireEvent.change(byId('diy-mon'), { target: { value: '2026-11' } });
    expect(seen).toHaveBeenLastCalledWith(expect.objectContaining({ mon: '2026-11' }));
    expect(byId('diy-at').value).toBe('2026-11-28T08:30');
    fireEvent.change(byId('diy-day'), { target: { value: '' } });
    expect(seen).toHaveBeenLastCalledWith(expect.objectContaining({ day: null }));
  });

  it('keeps the antd pickers at desktop width', () => {
    render(wrap(<Harness width="desktop" design={design([{ id: 'day', type: 'date', label: '日期' }])} />));
    expect(byId('diy-day').type).toBe('text');
    expect(byId('diy-day').closest('.ant-picker')).toBeTruthy();
  });

  it('records the GPS position with its accuracy, and says why when there is none', async () => {
    const seen = vi.fn();
    const ref = createRef<FormRendererHandle>();
    render(
      wrap(
        <Harness
          ref={ref}
          seen={seen}
          design={design([{ id: 'spot', type: 'location', label: '位置', required: true }])}
        />,
      ),
    );
    const field = screen.getByTestId('diy-input-diy-spot');
    expect(geolocation.getCurrentPosition).not.toHaveBeenCalled();

    // Nothing yet: the required check names the field.
    act(() => void ref.current?.check());
    expect(screen.getByTestId('diy-error-diy-spot').textContent).toBe('位置不能为空');

    refuse(1);
    fireEvent.click(within(field).getByTestId('diy-input-diy-spot-locate'));
    await screen.findByTestId('diy-input-diy-spot-denied');
    expect(screen.getByTestId('diy-input-diy-spot-denied').textContent).toContain('没有定位权限');
    expect(seen).not.toHaveBeenCalled();
    expect(geolocation.getCurrentPosition.mock.calls[0]?.[2]).toEqual(
      expect.objectContaining({ enableHighAccuracy: true, timeout: 20_000, maximumAge: 0 }),
    );

    refuse(3);
    fireEvent.click(screen.getByTestId('diy-input-diy-spot-locate'));
    await screen.findByTestId('diy-input-diy-spot-timeout');
    expect(screen.getByTestId('diy-input-diy-spot-locate').textContent).toContain('重新定位');

    refuse(2);
    fireEvent.click(screen.getByTestId('diy-input-diy-spot-locate'));
    await screen.findByTestId('diy-input-diy-spot-unavailable');

    // While asking, the button says so and cannot be pressed twice; the answer comes when the phone has it.
    let answerNow: PositionCallback = () => undefined;
    geolocation.getCurrentPosition.mockImplementationOnce((ok: PositionCallback) => {
      answerNow = ok;
    });
    fireEvent.click(screen.getByTestId('diy-input-diy-spot-locate'));
    await waitFor(() => expect(field.getAttribute('data-state')).toBe('asking'));
    expect((screen.getByTestId('diy-input-diy-spot-locate') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('diy-input-diy-spot-locate').textContent).toContain('正在定位');
    expect(screen.queryByTestId('diy-input-diy-spot-unavailable')).toBeNull();
    act(() =>
      answerNow({
        coords: { latitude: 31.2304164, longitude: 121.4737012, accuracy: 15.27 },
        timestamp: Date.UTC(2026, 10, 28, 1, 2, 3),
      } as GeolocationPosition),
    );
    await waitFor(() =>
      expect(seen).toHaveBeenLastCalledWith({
        spot: { lat: 31.2304164, lng: 121.4737012, accuracy: 15.3, time: '2026-11-28T01:02:03.000Z' },
      }),
    );
    expect(screen.getByTestId('diy-input-diy-spot-value').textContent).toContain('31.230416, 121.473701');
    expect(screen.getByTestId('diy-input-diy-spot-accuracy').textContent).toBe('精度约 15 米');
    expect(screen.queryByTestId('diy-input-diy-spot-unavailable')).toBeNull();
    expect(screen.queryByTestId('diy-error-diy-spot')).toBeNull();
    expect(ref.current?.check().values).toEqual({
      spot: { lat: 31.2304164, lng: 121.4737012, accuracy: 15.3, time: '2026-11-28T01:02:03.000Z' },
    });

    // A coarse fix is kept with a hint to retry in the open; clearing empties the value.
    answer(31.23, 121.47, 850);
    fireEvent.click(screen.getByTestId('diy-input-diy-spot-locate'));
    await screen.findByText('精度较差，可移到开阔处重新定位');
    fireEvent.click(screen.getByTestId('diy-input-diy-spot-clear'));
    expect(seen).toHaveBeenLastCalledWith({ spot: null });
  });

  it('says so when the browser has no geolocation', async () => {
    Object.defineProperty(navigator, 'geolocation', { value: undefined, configurable: true });
    render(wrap(<Harness design={design([{ id: 'spot', type: 'location', label: '位置' }])} />));
    fireEvent.click(screen.getByTestId('diy-input-diy-spot-locate'));
    expect((await screen.findByTestId('diy-input-diy-spot-unsupported')).textContent).toContain('https');
  });

  it('shows a sub-table as one card per row, with its errors in the card', async () => {
    const seen = vi.fn();
    const ref = createRef<FormRendererHandle>();
    render(
      wrap(
        <Harness
          ref={ref}
          seen={seen}
          design={design([
            {
              id: 'items',
              type: 'subTable',
              label: '摊位',
              columns: [
                { id: 'name', type: 'text', label: '摊位名称', required: true },
                { id: 'qty', type: 'integer', label: '数量' },
                { id: 'day', type: 'date', label: '登记日期' },
              ],
            },
          ])}
        />,
      ),
    );
    const table = screen.getByTestId('diy-subtable-items');
    expect(table.getAttribute('data-layout')).toBe('cards');
    expect(table.querySelector('table')).toBeNull();
    fireEvent.click(screen.getByTestId('diy-row-add-items'));
    fireEvent.click(screen.getByTestId('diy-row-add-items'));
    const second = screen.getByTestId('diy-row-card-items-1');
    expect(within(second).getByText('第2行')).toBeTruthy();
    // Labels point at their inputs; the phone's date picker in the card too.
    expect(within(second).getByLabelText('数量').id).toBe('diy-items-1-qty');
    expect(byId('diy-items-1-day').type).toBe('date');
    fireEvent.change(byId('diy-items-0-name'), { target: { value: '水果摊' } });
    fireEvent.change(byId('diy-items-0-qty'), { target: { value: '2' } });
    expect(seen).toHaveBeenLastCalledWith({ items: [{ name: '水果摊', qty: 2 }, {}] });

    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    act(() => void ref.current?.check());
    expect(within(second).getByTestId('diy-error-diy-items-1-name').textContent).toBe('摊位名称不能为空');
    expect(scrolled).toHaveBeenCalledTimes(1);
    expect((scrolled.mock.contexts[0] as HTMLElement).getAttribute('data-field-path')).toBe('items[1].name');
    expect(document.activeElement).toBe(byId('diy-items-1-name'));

    fireEvent.click(screen.getByTestId('diy-row-copy-items-0'));
    expect(seen).toHaveBeenLastCalledWith({
      items: [{ name: '水果摊', qty: 2 }, { name: '水果摊', qty: 2 }, {}],
    });
    expect(screen.getAllByTestId(/^diy-row-card-items-/)).toHaveLength(3);
  });

  it('scrolls to the first field the server refused', async () => {
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    const ref = createRef<FormRendererHandle>();
    render(
      wrap(
        <Harness
          ref={ref}
          design={design([
            { id: 'name', type: 'text', label: '名称' },
            { id: 'code', type: 'text', label: '代码' },
            { id: 'tel', type: 'mobile', label: '电话' },
          ])}
        />,
      ),
    );
    // Design order decides, not the order of the answer.
    act(() => ref.current?.showErrors({ tel: '电话已被登记', code: '代码重复' }));
    await waitFor(() => expect(scrolled).toHaveBeenCalled());
    expect((scrolled.mock.contexts.at(-1) as HTMLElement).getAttribute('data-field-path')).toBe('code');
    expect(screen.getByTestId('diy-error-diy-code').textContent).toBe('代码重复');
  });

  it('takes a photo with the camera and uploads it made smaller, showing the progress', async () => {
    let finish: (value: unknown) => void = () => undefined;
    api.upload.mockImplementation(
      (_file: Blob, name: string, progress?: (percent: number) => void) =>
        new Promise((resolve) => {
          progress?.(40);
          finish = () => resolve({ id: 77, fileName: name, suffix: 'jpg', size: 1000 });
        }),
    );
    stubImageDecoding(4000, 3000, 120_000);
    const seen = vi.fn();
    render(
      wrap(
        <Harness
          seen={seen}
          design={design([{ id: 'pics', type: 'image', label: '现场照片', maxFiles: 3 }])}
        />,
      ),
    );
    const camera = screen.getByTestId('diy-input-diy-pics-camera');
    const input = camera.closest('span')?.querySelector('input[type="file"]') as HTMLInputElement;
    expect(input.getAttribute('capture')).toBe('environment');
    expect(input.getAttribute('accept')).toBe('image/*');
    const photo = new File([new Uint8Array(5_000_000)], 'IMG_0001.jpeg', { type: 'image/jpeg' });
    fireEvent.change(input, { target: { files: [photo] } });
    await screen.findByText(/上传中 40%/);
    const [sent, name] = api.upload.mock.calls[0] as [File, string];
    expect(name).toBe('IMG_0001.jpg');
    expect(sent.type).toBe('image/jpeg');
    expect(sent.size).toBe(120_000);
    await act(async () => finish(null));
    await waitFor(() => expect(seen).toHaveBeenLastCalledWith({ pics: [77] }));
    expect(screen.queryByTestId('diy-input-diy-pics-progress')).toBeNull();
  });
});

describe('compressImage', () => {
  const file = (size: number, name = 'a.jpg', type = 'image/jpeg') =>
    new File([new Uint8Array(size)], name, { type });

  it('makes a large photo a JPEG of at most 1920 px on its long edge', async () => {
    const drawn = stubImageDecoding(4032, 3024, 300_000);
    const out = await compressImage(file(4_000_000, '现场.png', 'image/png'));
    expect(out.name).toBe('现场.jpg');
    expect(out.type).toBe('image/jpeg');
    expect(out.size).toBe(300_000);
    expect(drawn).toEqual({ width: 1920, height: 1440, quality: 0.82 });
  });

  it('keeps a file that is already small, cannot be read, may move, or would not shrink', async () => {
    stubImageDecoding(800, 600, 50_000);
    const small = file(200_000);
    expect(await compressImage(small)).toBe(small);
    const gif = file(3_000_000, 'a.gif', 'image/gif');
    expect(await compressImage(gif)).toBe(gif);
    const pngOnly = file(3_000_000, 'a.png', 'image/png');
    expect(await compressImage(pngOnly, undefined, false)).toBe(pngOnly);

    stubImageDecoding(3000, 2000, 900_000);
    const dense = file(800_000);
    expect(await compressImage(dense)).toBe(dense);

    vi.stubGlobal('createImageBitmap', vi.fn().mockRejectedValue(new Error('HEIC')));
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:x');
    vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined);
    // jsdom's <img> has no decode(): the fallback fails as a browser that cannot read HEIC does.
    const heic = file(3_000_000);
    expect(await compressImage(heic)).toBe(heic);
  });
});

/**
 * jsdom decodes no images and draws nothing: the bitmap reports the given size and the canvas answers a
 * JPEG of `outputBytes`; what was drawn (canvas size, quality) is recorded.
 */
function stubImageDecoding(width: number, height: number, outputBytes: number) {
  const drawn = { width: 0, height: 0, quality: 0 };
  vi.stubGlobal('createImageBitmap', vi.fn().mockResolvedValue({ width, height, close: () => undefined }));
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(function (this: HTMLCanvasElement) {
    return {
      fillRect: () => undefined,
      drawImage: () => undefined,
      set fillStyle(_v: string) {},
      set imageSmoothingQuality(_v: string) {},
    } as unknown as CanvasRenderingContext2D;
  } as never);
  vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation(function (
    this: HTMLCanvasElement,
    done: BlobCallback,
    _type?: string,
    quality?: number,
  ) {
    drawn.width = this.width;
    drawn.height = this.height;
    drawn.quality = quality ?? 0;
    done(new Blob([new Uint8Array(outputBytes)], { type: 'image/jpeg' }));
  });
  return drawn;
}
