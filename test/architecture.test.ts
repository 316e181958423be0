// The layering of src/ (docs/development.md "Layering"), held by dependency-cruiser with the rules in .dependency-cruiser.cjs:
// type-only imports count, and there is no list of known violations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './helpers/paths.js';
import { makeTree, removeTree } from './helpers/tree.js';

const CLI = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');

/** dependency-cruiser over `src` of `cwd` with our rules: its exit code (the number of violations) and report. */
function cruise(cwd: string): { status: number | null; report: string } {
  const run = spawnSync(process.execPath, [CLI, '--config', CONFIG, '--output-type', 'err', 'src'], { cwd, encoding: 'utf8' });
  return { status: run.status, report: `${run.stdout}${run.stderr}` };
}

test('src/ keeps its levels: no cycle, no upward import, no back door into another folder', () => {
  const { status, report } = cruise(ROOT);
  assert.equal(status, 0, report);
});

test('the rules bite: a planted cycle, an upward import, an import of a test, a back door past index.ts and an orphan are each reported', (t) => {
  const root = makeTree({
    'tsconfig.json': { compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true }, include: ['src/**/*.ts', 'test/**/*.ts'] },
    'src/config/read.ts':
      "import type { Door } from '../api/door.js';\nimport { seen } from '../../test/seen.js';\nexport const read = (d: Door) => [d, seen];\n",
    'src/api/door.ts': "import { read } from '../config/read.js';\nexport type Door = typeof read;\n",
    'src/cli/main.ts': "import type { Door } from '../api/door.js';\nexport const door: Door | undefined = undefined;\n",
    'src/config/forgotten.ts': 'export const forgotten = 1;\n',
    'test/seen.ts': 'export const seen = 1;\n',
  });
  t.after(() => removeTree(root));
  const { status, report } = cruise(root);
  assert.notEqual(status, 0, report);
  for (const rule of ['no-circular', 'level-1-imports-upward', 'src-never-imports-tests', 'through-index', 'no-orphans'])
    assert.match(report, new RegExp(`error ${rule}:`), `${rule} in\n${report}`);
});
