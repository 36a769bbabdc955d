// `npm run check`'s boundary step: the rules of .dependency-cruiser.cjs over the server, the web app and
// the contracts, and one rule dependency-cruiser cannot say: no two server modules (folders under
// apps/server/src/modules) depend on each other in a circle, even when no single file does.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = spawnSync(
  process.execPath,
  [
    join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'),
    'apps/server/src',
    'apps/web/src',
    'packages/contracts/src',
    '--config',
    '.dependency-cruiser.cjs',
    '--output-type',
    'json',
  ],
  { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
);
if (!run.stdout) {
  process.stderr.write(run.stderr);
  process.exit(run.status ?? 1);
}
const result = JSON.parse(run.stdout);
const problems = result.summary.violations.map(
  (violation) => `${violation.rule.name}: ${violation.from} → ${violation.to}`,
);

// Server modules as nodes, a file import between two of them as an edge; Tarjan's strongly connected
// components find every circle.
const MODULE = /^apps\/server\/src\/modules\/([^/]+)\//;
const edges = new Map();
for (const module of result.modules) {
  const from = MODULE.exec(module.source)?.[1];
  if (!from) continue;
  for (const dependency of module.dependencies) {
    if (dependency.dependencyTypes.includes('type-only')) continue;
    const to = MODULE.exec(dependency.resolved)?.[1];
    if (!to || to === from) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    if (!edges.get(from).has(to)) edges.get(from).set(to, `${module.source} → ${dependency.resolved}`);
  }
}
let index = 0;
const indices = new Map();
const lowlinks = new Map();
const stack = [];
const onStack = new Set();
function connect(node) {
  indices.set(node, index);
  lowlinks.set(node, index);
  index += 1;
  stack.push(node);
  onStack.add(node);
  for (const next of edges.get(node)?.keys() ?? []) {
    if (!indices.has(next)) {
      connect(next);
      lowlinks.set(node, Math.min(lowlinks.get(node), lowlinks.get(next)));
    } else if (onStack.has(next)) {
      lowlinks.set(node, Math.min(lowlinks.get(node), indices.get(next)));
    }
  }
  if (lowlinks.get(node) !== indices.get(node)) return;
  const component = [];
  let member;
  do {
    member = stack.pop();
    onStack.delete(member);
    component.push(member);
  } while (member !== node);
  if (component.length < 2) return;
  const inside = new Set(component);
  const imports = component.flatMap((from) =>
    [...(edges.get(from) ?? [])].filter(([to]) => inside.has(to)).map(([, example]) => `    ${example}`),
  );
  problems.push(`server-module-cycle: ${component.sort().join(' ↔ ')}\n${imports.join('\n')}`);
}
for (const node of edges.keys()) if (!indices.has(node)) connect(node);

if (problems.length > 0) {
  console.error(`Boundaries broken (docs/architecture.md):\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}
console.log(
  `Boundaries hold: ${result.summary.totalCruised} modules, ${result.summary.totalDependenciesCruised} imports.`,
);
