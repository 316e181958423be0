// scripts/tests-beside.mjs counts the modules with a test beside them and names the rest; scripts/test-one.mjs runs
// the test beside a source module, or says that none exists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../helpers/paths.js';
import { makeTree, removeTree, writeTree } from '../helpers/tree.js';

function run(script: string, cwd: string, ...args: string[]) {
  // Without the runner's own variable, which would keep a nested node --test from running its files.
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const child = spawnSync(process.execPath, [join(ROOT, 'scripts', script), ...args], { cwd, env, encoding: 'utf8' });
  return { status: child.status, output: `${child.stdout}${child.stderr}` };
}

const SOURCES = {
  'src/a/tested.ts': 'export const double = (n: number) => n * 2;\n',
  'src/a/untested.ts': "import type { Shape } from './shapes.js';\nexport function area(s: Shape) { return s.w * s.h; }\n",
  'src/a/shapes.ts': 'export interface Shape { w: number; h: number }\nexport type Side = number;\n',
  'src/a/index.ts': "export { double } from './tested.js';\nexport type { Shape } from './shapes.js';\n",
  'src/b/only.ts': "export * from '../a/index.js';\n",
  'src/b/ambient.d.ts': 'export declare const x: number;\n',
  'src/b/table.ts': 'export const CODES = { ok: 0, warning: 1 } as const;\n',
  'src/b/limits.ts': "export const MAX = 253;\nexport const NAME = 'x' as const;\n",
  'src/cli/daemon/wiring.ts': "export function build() { return { name: 'service' }; }\n",
  'src/cli/daemon/hub.ts': 'export const hub = () => 1;\n',
  'test/cli/daemon/hub.test.ts': "import '../../../src/cli/daemon/hub.js';\n",
  'test/a/tested.test.ts': "import '../../src/a/tested.js';\n",
  'test/a/other.test.ts': "import { area } from '../../src/a/untested.js';\n",
};

test('the count: tested, exempt with its reason, and the modules with logic and none', (t) => {
  const root = makeTree(SOURCES);
  t.after(() => removeTree(root));
  const { status, output: text } = run('tests-beside.mjs', root);
  assert.equal(status, 0, text);
  assert.match(text, /^2 of 10 modules have a test beside them/);
  assert.match(text, /6 more are exempt .*, so 2 of 4 modules with logic have one and 2 have none/);
  for (const line of [
    'src/a/index.ts  (re-exports and types only)',
    'src/a/shapes.ts  (types only)',
    'src/b/ambient.d.ts  (declaration file)',
    'src/b/only.ts  (re-exports only)',
    'src/b/limits.ts  (constants only)',
    'src/cli/daemon/wiring.ts  (composition root: every test that starts the daemon runs it)',
    'src/a/untested.ts  → test/a/untested.test.ts',
    'src/b/table.ts  → test/b/table.test.ts',
  ])
    assert.ok(text.includes(line), `${line} in\n${text}`);
});

test('test-one: a source module with no test beside it is named, with the reason it needs none and the tests that import it', (t) => {
  const root = makeTree(SOURCES);
  t.after(() => removeTree(root));
  // One run for the three cases: each source named is answered, and nothing runs.
  const { status, output } = run('test-one.mjs', root, 'src/a/untested.ts', './src/a/shapes.ts', 'src/a/gone.ts');
  assert.equal(status, 2);
  assert.equal(
    output,
    [
      'no test beside src/a/untested.ts: test/a/untested.test.ts does not exist',
      'tests that import it:',
      '  test/a/other.test.ts',
      'no test beside src/a/shapes.ts: test/a/shapes.test.ts does not exist (none needed: types only)',
      'no such module: src/a/gone.ts',
      '',
    ].join('\n'),
  );
});

test('test-one: a source module runs the test beside it', (t) => {
  const root = makeTree(SOURCES);
  t.after(() => removeTree(root));
  // A compiled tree as test-one expects it, its build info written last so that nothing is compiled again.
  writeTree(root, {
    'tsconfig.json': '{}',
    'dist/src/config/schema-validators.js': '',
    'dist/test/a/tested.test.js': "import { test } from 'node:test';\ntest('the test beside tested.ts', () => {});\n",
  });
  writeTree(root, { 'dist/tsconfig.tsbuildinfo': '' });
  const ran = run('test-one.mjs', root, 'src/a/tested.ts');
  assert.equal(ran.status, 0, ran.output);
  assert.match(ran.output, /ok 1 - the test beside tested\.ts/);
});

test('every module of src/ with logic of its own has a test beside it (a new one comes with its test)', () => {
  const { status, output } = run('tests-beside.mjs', ROOT, '--json');
  assert.equal(status, 0, output);
  assert.deepEqual((JSON.parse(output) as { missing: string[] }).missing, []);
});
