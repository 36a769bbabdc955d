// `npm test`: build the app once (the E2E tests drive the built app), then run every project's
// tests in one Vitest run and close with a plain "N passed, N failed" line.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from './build-if-stale.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
buildIfStale();

const reportDir = join(root, '.tmp');
mkdirSync(reportDir, { recursive: true });
const report = join(reportDir, 'vitest-report.json');
const vitest = join(root, 'node_modules/vitest/vitest.mjs');
const run = spawnSync(
  process.execPath,
  [
    vitest,
    'run',
    '--reporter=default',
    '--reporter=json',
    `--reporter=${join(root, 'scripts/timing-reporter.mjs')}`,
    `--outputFile.json=${report}`,
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: 'inherit' },
);

let summary = null;
try {
  summary = JSON.parse(readFileSync(report, 'utf8'));
} catch {
  // No report: Vitest failed before running tests; its exit code below says so.
}
if (summary) {
  const skipped = summary.numPendingTests + summary.numTodoTests;
  console.log(`\n${summary.numPassedTests} passed, ${summary.numFailedTests} failed, ${skipped} skipped`);
}
process.exit(run.status ?? 1);
