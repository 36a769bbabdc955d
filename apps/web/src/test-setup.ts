import { cleanup, configure } from '@testing-library/react';
import { Modal, message, notification } from 'antd';
import { afterAll, afterEach } from 'vitest';
import { loadAllTexts, startI18n } from './platform/i18n/i18n.ts';

// The suite shares two cores with the server and browser suites in CI: antd forms
// can take longer than the default 1 s to settle there, so find*/waitFor wait up to 5 s.
configure({ asyncUtilTimeout: 5000 });

// The app loads a language's texts when it is shown; components under test find every text in place.
await Promise.all([loadAllTexts(), startI18n()]);

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

// Toasts shown through antd's static API (code outside an <App>) live in roots of their own that cleanup()
// does not unmount: a toast's close timer would render into them after the file's DOM is gone ("window is
// not defined", an unhandled error that fails the run). Close them while the DOM exists, wait until their
// closing has rendered, and give React's scheduler turns to finish. Each API only when its layer is on
// screen: destroy() in a file that never showed one would itself create the holder root, whose first render
// then runs on a later turn, after the DOM is gone.
const turn = () => new Promise((resolve) => setTimeout(resolve, 10));
afterAll(async () => {
  if (document.querySelector('[class^="ant-message"]')) message.destroy();
  if (document.querySelector('[class^="ant-notification"]')) notification.destroy();
  Modal.destroyAll();
  const deadline = Date.now() + 5000;
  while (
    document.querySelector('.ant-message-notice, .ant-notification-notice, .ant-modal-wrap') &&
    Date.now() < deadline
  ) {
    await turn();
  }
  for (let i = 0; i < 5; i++) await turn();
});

// antd writes its styles (CSS-in-JS) into <style> elements. jsdom would parse every one and match all their
// rules against each element whenever a test or a query asks for a computed style (testing-library's role
// queries do, for every element they look at), which was most of the suite's time. The tests check content,
// roles and states, not the cascade: the style elements are typed so that jsdom leaves them unparsed.
const createElement = document.createElement.bind(document);
document.createElement = ((tagName: string, options?: ElementCreationOptions) => {
  const element = createElement(tagName, options);
  if (tagName.toLowerCase() === 'style') element.setAttribute('type', 'text/x-unparsed-in-tests');
  return element;
}) as typeof document.createElement;

// antd reads these browser APIs, which jsdom does not provide.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

if (!('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  }
  (window as unknown as { ResizeObserver: unknown }).ResizeObserver = ResizeObserverStub;
  (globalThis as unknown as { ResizeObserver: unknown }).ResizeObserver = ResizeObserverStub;
}
