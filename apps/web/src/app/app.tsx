import { useEffect } from 'react';
import { BrowserRouter } from 'react-router';
import { AppProviders } from './app-providers.tsx';
import { AppRouter } from './app-router.tsx';

/** Fades out the start-up indicator of index.html once React has drawn the first screen. */
function useHideStartupLoading() {
  useEffect(() => {
    const element = document.getElementById('root-loading');
    if (!element) return;
    element.style.opacity = '0';
    const timer = window.setTimeout(() => element.remove(), 260);
    return () => window.clearTimeout(timer);
  }, []);
}

export function App() {
  useHideStartupLoading();
  return (
    <AppProviders>
      <BrowserRouter>
        <AppRouter />
      </BrowserRouter>
    </AppProviders>
  );
}
