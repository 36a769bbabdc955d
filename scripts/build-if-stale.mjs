// Builds the web app and the server when their output is missing or older than their sources.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist' || entry === 'test') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

export function buildIfStale() {
  const contracts = join(root, 'packages/contracts/src');
  const targets = [
    {
      name: 'web app',
      workspace: 'apps/web',
      output: join(root, 'apps/web/dist/index.html'),
      sources: [
        join(root, 'apps/web/src'),
        join(root, 'apps/web/index.html'),
        join(root, 'apps/web/public'),
        contracts,
      ],
    },
    {
      name: 'server',
      workspace: 'apps/server',
      output: join(root, 'apps/server/dist/main.js'),
      sources: [join(root, 'apps/server/src'), join(root, 'apps/server/build.mjs'), contracts],
    },
  ];

  for (const target of targets) {
    const built = newestMtime(target.output);
    const changed = Math.max(...target.sources.map(newestMtime));
    if (built > 0 && built >= changed) continue;
    console.log(`Building the ${target.name}…`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const result = spawnSync(npm, ['run', 'build', '-w', target.workspace], { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) {
      console.error(`Building the ${target.name} failed.`);
      process.exit(result.status ?? 1);
    }
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) buildIfStale();
