import { beforeEach, inject } from 'vitest';
import { describeBrowsers } from './journal.ts';
import { TEMPLATE_ENV } from './server.ts';

// Every server a test file starts copies the run's one seeded database (global-setup.ts).
process.env[TEMPLATE_ENV] = inject('seededDir');

// A failing step adds to its error what the open browsers showed and what the server refused or was slow
// to answer: the CI log is all there is of a failure on another machine.
beforeEach(({ onTestFailed }) => {
  onTestFailed(async ({ task }) => {
    const report = await describeBrowsers();
    if (!report) return;
    const first = task.result?.errors?.[0];
    if (first) first.message = `${first.message}\n\n${report}`;
    else process.stderr.write(`${report}\n`);
  });
});
