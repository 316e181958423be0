// Written at build time: the commit the binary was built from, for `checkbridge version` (absent outside a git checkout).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

let commit = null;
try {
  commit =
    execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim() || null;
} catch {
  commit = null;
}
writeFileSync(new URL('../dist/build-info.json', import.meta.url), JSON.stringify({ commit, built_at: new Date().toISOString() }) + '\n');
