import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IframePage, resolveFrameLink } from './iframe-page.tsx';

describe('resolveFrameLink', () => {
  it('puts a relative link on the API host and leaves absolute links alone', () => {
    expect(resolveFrameLink('/schedule', 'https://api.example.org/')).toBe(
      'https://api.example.org/schedule',
    );
    expect(resolveFrameLink('/schedule', 'https://api.example.org/base')).toBe(
      'https://api.example.org/base/schedule',
    );
    expect(resolveFrameLink('/schedule', '')).toBe('/schedule');
    expect(resolveFrameLink('/schedule', undefined)).toBe('/schedule');
    expect(resolveFrameLink('https://gitee.com/zuohuaijun', 'https://api.example.org')).toBe(
      'https://gitee.com/zuohuaijun',
    );
    expect(resolveFrameLink('//cdn.example.org/x', 'https://api.example.org')).toBe('//cdn.example.org/x');
  });
});

describe('IframePage', () => {
  it('embeds the link with the menu title', () => {
    render(<IframePage link="/schedule" title="任务看板" />);
    const frame = screen.getByTestId('iframe-page') as HTMLIFrameElement;
    expect(frame.getAttribute('src')).toBe('/schedule');
    expect(frame.title).toBe('任务看板');
  });

  it('fills the content area down to the bottom of the window', () => {
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue(new DOMRect(0, 120, 0, 0));
    vi.spyOn(window, 'innerHeight', 'get').mockReturnValue(1000);
    render(<IframePage link="/schedule" title="任务看板" />);
    expect((screen.getByTestId('iframe-page') as HTMLIFrameElement).style.height).toBe('880px');
  });
});

afterEach(() => vi.restoreAllMocks());
