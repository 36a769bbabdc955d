import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { startI18n } from './platform/i18n/i18n.ts';
import './styles.css';
import { App } from './app/app.tsx';
import { preloadFirstPage } from './app/app-router.tsx';
import { hashLinkTarget } from './app/navigation.ts';
import { useThemeStore } from './platform/theme/theme.store.ts';

// Hash links (`/#/scancode?…`) from printed QR codes and older clients open the same path without the hash.
const hashTarget = hashLinkTarget(window.location.hash);
if (hashTarget) window.history.replaceState(null, '', hashTarget);

if (useThemeStore.getState().isIsDark) document.getElementById('root-loading')?.classList.add('is-dark');

// The first screen is drawn in the user's language: its texts load first (index.html shows a spinner meanwhile).
const container = document.getElementById('root');
if (container) {
  const root = createRoot(container);
  preloadFirstPage(window.location.pathname);
  void startI18n()
    .catch((error: unknown) => console.error(error))
    .then(() =>
      root.render(
        <StrictMode>
          <App />
        </StrictMode>,
      ),
    );
}
