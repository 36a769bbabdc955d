// A Vitest reporter that records, per test project, when its first file started and its last file ended,
// how many files it ran and their summed time, into .tmp/test-timings.json. `.ci/run` prints it with the
// other stages, so the growth of each part of the suite shows in every run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const output = join(dirname(fileURLToPath(import.meta.url)), '..', '.tmp', 'test-timings.json');

export default class TimingReporter {
  projects = new Map();
  started = new Map();
  runStart = Date.now();

  onTestModuleStart(testModule) {
    this.started.set(testModule, Date.now());
  }

  onTestModuleEnd(testModule) {
    const end = Date.now();
    const start = this.started.get(testModule) ?? end;
    const name = testModule.project.name || 'root';
    const project = this.projects.get(name) ?? { first: start, last: end, files: 0, fileSeconds: 0 };
    project.first = Math.min(project.first, start);
    project.last = Math.max(project.last, end);
    project.files += 1;
    project.fileSeconds += (end - start) / 1000;
    this.projects.set(name, project);
  }

  onTestRunEnd() {
    const projects = [...this.projects].map(([name, p]) => ({
      name,
      files: p.files,
      // Wall time from the project's first file to its last (projects overlap in one run).
      seconds: Math.round((p.last - p.first) / 100) / 10,
      fileSeconds: Math.round(p.fileSeconds * 10) / 10,
      startedAfter: Math.round((p.first - this.runStart) / 100) / 10,
    }));
    mkdirSync(dirname(output), { recursive: true });
    writeFileSync(
      output,
      JSON.stringify({ seconds: Math.round((Date.now() - this.runStart) / 100) / 10, projects }, null, 2),
    );
  }
}
