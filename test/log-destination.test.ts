// The daemon's JSON log lines: a synchronous stretch's lines leave in one write as it ends, in order, and none is lost at exit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LogDestination } from '../src/log-destination.js';
import { ROOT } from './helpers/paths.js';
import { makeTree, removeTree } from './helpers/tree.js';

test('log destination: the lines of one synchronous stretch reach the file together once it ends, in the order written', async (t) => {
  const root = makeTree({});
  const path = join(root, 'log');
  const fd = openSync(path, 'a');
  t.after(() => (closeSync(fd), removeTree(root)));
  const destination = new LogDestination(fd);
  for (let i = 0; i < 300; i++) destination.write(`{"n":${i}}\n`);
  // Still inside the stretch: nothing written yet, where a write per line had put all 300 out one by one.
  assert.equal(readFileSync(path, 'utf8'), '');
  await new Promise((resolve) => setImmediate(resolve));
  const lines = readFileSync(path, 'utf8').trim().split('\n');
  assert.deepEqual(
    lines.map((l) => JSON.parse(l).n),
    Array.from({ length: 300 }, (_, i) => i),
  );
});

test('log destination: lines written just before process.exit in the same stretch are written', () => {
  const module = pathToFileURL(join(ROOT, 'dist', 'src', 'log-destination.js')).href;
  const script = `import { LogDestination } from ${JSON.stringify(module)}; const d = new LogDestination(1); d.write('first\\n'); d.write('last\\n'); process.exit(0);`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(out, 'first\nlast\n');
});
