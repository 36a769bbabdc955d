import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchShuzhi, type RunningShuzhi } from './server.ts';
import {
  type Browser,
  clickWhenOpened,
  DEFAULT_PASSWORD,
  firstSignIn,
  NEW_PASSWORD,
  openBrowser,
  screenshot,
  settled,
} from './support.ts';

/** axe-core's bundled engine, evaluated in each page. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** WCAG 2.0 and 2.1, levels A and AA: the rules issue 16 §6 holds every page a person uses to. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

type Violation = {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  nodes: { target: unknown[]; html: string; failureSummary?: string }[];
};

/** The violations axe finds on what the page shows now, each with the elements it names. */
async function axeViolations(page: Page): Promise<Violation[]> {
  // Evaluated through the DevTools protocol: the app's Content-Security-Policy (script-src 'self') refuses
  // an inline <script>.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run: (...args: unknown[]) => Promise<unknown> } }).axe;
    const results = (await axe.run(document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations'],
    })) as { violations: Violation[] };
    return results.violations.map(({ id, impact, help, nodes }) => ({
      id,
      impact,
      help,
      nodes: nodes.map(({ target, html, failureSummary }) => ({ target, html, failureSummary })),
    }));
  }, WCAG_TAGS);
}

const nodeCount = (violations: Violation[]) =>
  violations.reduce((sum, violation) => sum + violation.nodes.length, 0);

/** A line per violated rule and the first elements it names, for the failure message. */
const describeViolations = (violations: Violation[]) =>
  violations
    .map(
      (violation) =>
        `${violation.impact} ${violation.id} (${violation.nodes.length}): ${violation.help}\n` +
        violation.nodes
          .slice(0, 8)
          .map(
            (node) =>
              `    ${JSON.stringify(node.target)} ${node.html.slice(0, 160)}\n      ${node.failureSummary?.split('\n')[1] ?? ''}`,
          )
          .join('\n'),
    )
    .join('\n');

/**
 * Issue 16 §6: each page a person uses, as it shows once loaded at 1366×768, has no WCAG 2.1 A/AA violation of
 * impact critical or serious by axe-core. Every page's count of all violations (all impacts, by element) is
 * printed at the end, for docs/accessibility.md.
 */
describe('accessibility: axe finds nothing critical or serious on the main pages', () => {
  let shuzhi: RunningShuzhi;
  let admin: Browser;
  let enterprise: Browser;
  const counts: { page: string; rules: string; nodes: number; blocking: number }[] = [];

  beforeAll(async () => {
    shuzhi = await launchShuzhi({ sys_captcha: 'false' });
    admin = await openBrowser();
  });
  afterAll(async () => {
    if (counts.length > 0) {
      const lines = counts.map(
        (count) =>
          `  ${count.page.padEnd(34)} ${String(count.nodes).padStart(3)} nodes, ${count.blocking} critical/serious  ${count.rules}`,
      );
      process.stdout.write(
        `axe (wcag2a, wcag2aa, wcag21a, wcag21aa), violations per page:\n${lines.join('\n')}\n`,
      );
    }
    await enterprise?.close();
    await admin?.close();
    await shuzhi?.stop();
  });

  /** Runs axe on the page as it stands and holds it to no critical or serious violation. */
  async function check(page: Page, name: string): Promise<void> {
    await page.mouse.move(1, 760);
    await settled(page);
    const violations = await axeViolations(page);
    const blocking = violations.filter((v) => v.impact === 'critical' || v.impact === 'serious');
    counts.push({
      page: name,
      nodes: nodeCount(violations),
      blocking: nodeCount(blocking),
      rules: violations.map((v) => `${v.id}×${v.nodes.length}`).join(' '),
    });
    if (blocking.length > 0) await screenshot(page, `a11y-${name.replace(/[^a-z0-9]+/gi, '-')}`);
    expect(nodeCount(blocking), `${name}:\n${describeViolations(blocking)}`).toBe(0);
  }

  /**
   * Opens a page inside the running app, as its menu does (no reload: the pages visited before stay open in the
   * tags bar), and waits until what `ready` names shows.
   */
  async function visit(page: Page, path: string, ready: string): Promise<void> {
    await page.evaluate((to) => {
      window.history.pushState(null, '', to);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, path);
    await page.waitForURL((url) => `${url.pathname}${url.search}` === path);
    await page.locator(ready).first().waitFor({ timeout: 60_000 });
  }

  it('/login', async () => {
    await admin.page.goto(`${shuzhi.baseUrl}/login`);
    await admin.page.getByTestId('login-submit').waitFor();
    await check(admin.page, '/login');
  });

  it('/dashboard', async () => {
    await firstSignIn(admin.page, 'admin', shuzhi.baseUrl);
    await admin.page.waitForLoadState('networkidle');
    await check(admin.page, '/dashboard');
  });

  it('/system/user', async () => {
    await visit(admin.page, '/system/user', '[data-testid="user-table"] tbody tr[data-row-key]');
    await check(admin.page, '/system/user');
  });

  it('/system/role', async () => {
    await visit(admin.page, '/system/role', '[data-testid="role-table"] tbody tr[data-row-key]');
    await check(admin.page, '/system/role');
  });

  it('/system/org', async () => {
    await visit(admin.page, '/system/org', '[data-testid="org-table"] tbody tr[data-row-key]');
    await check(admin.page, '/system/org');
  });

  it('/platform/notice', async () => {
    await visit(admin.page, '/platform/notice', '[data-testid="notice-table"]');
    await check(admin.page, '/platform/notice');
  });

  it('/diyReport', async () => {
    await visit(admin.page, '/diyReport', '[data-testid="form-item-card"]');
    await check(admin.page, '/diyReport');
  });

  it('/diyReport/audit', async () => {
    await visit(admin.page, '/diyReport/audit', '[data-testid="audit-page"]');
    await check(admin.page, '/diyReport/audit');
  });

  it('/enterprise (qyfiller)', async () => {
    enterprise = await openBrowser();
    const { page } = enterprise;
    await page.goto(`${shuzhi.baseUrl}/login?type=9`);
    await page.getByTestId('login-account').fill('qyfiller');
    await page.getByTestId('login-password').fill(DEFAULT_PASSWORD);
    await page.getByTestId('login-submit').click();
    await clickWhenOpened(page.getByTestId('force-password-ok'));
    await page.waitForURL(/\/system\/userCenter\?isPassword=true/);
    await page.getByTestId('password-old').fill(DEFAULT_PASSWORD);
    await page.getByTestId('password-new').fill(NEW_PASSWORD);
    await page.getByTestId('password-confirm').fill(NEW_PASSWORD);
    await page.getByTestId('password-submit').click();
    // An enterprise account lands on its portal whatever way it signed in (issue 16 §4).
    await page.waitForURL(/\/enterprise$/);
    await visit(page, '/enterprise', '[data-testid="category-tile"]');
    await check(page, '/enterprise (qyfiller)');
  });

  it('/diyReport (qyfiller)', async () => {
    await visit(enterprise.page, '/diyReport', '[data-testid="form-item-card"]');
    await check(enterprise.page, '/diyReport (qyfiller)');
  });

  it('the fill page of a seeded form, its list and its fill drawer (qyfiller)', async () => {
    const { page } = enterprise;
    await page.getByTestId('form-item-card').filter({ hasText: '企业基本情况登记表' }).click();
    await page.waitForURL(/\/diyReport\/index\/formTable\?id=/);
    await page.getByTestId('diy-record-add').waitFor();
    await page.waitForLoadState('networkidle');
    await check(page, '/diyReport/index/formTable');
    await page.getByTestId('diy-record-add').click();
    await page.getByTestId('diy-fill').getByTestId('diy-fill-body').waitFor();
    await check(page, '/diyReport/index/formTable fill');
  });
});
