import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { inject } from 'vitest';

export const baseUrl = (): string => inject('baseUrl');

export const DEFAULT_PASSWORD = 'Shuzhi@2026';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export type Browser = { context: BrowserContext; page: Page; close: () => Promise<void> };

/** A fresh Chromium with an empty profile, as a new user would have. */
export async function openBrowser(viewport = { width: 1366, height: 768 }): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'shuzhi-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    viewport,
    locale: 'zh-CN',
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = join(process.cwd(), '.tmp', 'screenshots');
  await page.screenshot({ path: join(dir, `${name}.png`) });
}
