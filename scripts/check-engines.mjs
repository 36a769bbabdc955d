// `npm run check`: every installed package runs on the Node.js the README promises (package.json
// "engines"). A package whose own "engines" asks for more would print EBADENGINE at install and may use what
// the promised Node lacks: hold it at a version that supports the promise (root "overrides" for a package
// pulled in by another), or raise the promise.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
const promised = semver.minVersion(manifest.engines.node);

const refusing = [];
for (const [path, entry] of Object.entries(lock.packages)) {
  const wanted = entry.engines?.node;
  if (!path || !wanted || (entry.dev && entry.optional)) continue;
  if (!semver.satisfies(promised, wanted))
    refusing.push(`${path.replace(/^.*node_modules\//, '')}@${entry.version} wants node ${wanted}`);
}
if (refusing.length > 0) {
  console.error(
    `Packages that do not run on the promised Node ${manifest.engines.node}:\n  ${refusing.join('\n  ')}`,
  );
  process.exit(1);
}
console.log(`Every installed package runs on Node ${manifest.engines.node}.`);
