import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LogDestination } from '../src/log-destination.js';
import { makeTree, removeTree } from './helpers/tree.js';

const module = fileURLToPath(new URL('../src/log-destination.js', import.meta.url));

test('lines to a file are written at once, in order', (t) => {
  const dir = makeTree({});
  t.after(() => removeTree(dir));
  const path = join(dir, 'log');
  const fd = openSync(path, 'w');
  const destination = new LogDestination(fd);
  assert.equal(destination.write('{"msg":"one"}\n'), true);
  assert.equal(readFileSync(path, 'utf8'), '{"msg":"one"}\n', 'out before the work it reports goes on');
  destination.write('{"msg":"two"}\n');
  destination.flushSync();
  closeSync(fd);
  assert.equal(readFileSync(path, 'utf8'), '{"msg":"one"}\n{"msg":"two"}\n');
});

// A child logs far more than a pipe holds to a stdout nobody reads yet, says so on stderr, then its lines are read.
const child = (then = '') => `
const { LogDestination } = await import(${JSON.stringify(module)});
// Node opens a stdio pipe non-blocking once the stream is made, as the daemon's stderr is by its first write.
void process.stdout;
const destination = new LogDestination(1);
const pad = 'x'.repeat(200);
for (let i = 0; i < 5000; i++) destination.write(JSON.stringify({ i, pad }) + '\\n');
process.stderr.write('written\\n');
${then}
`;

test(
  'a reader that does not read holds no writer up: lines wait in order and all arrive once it reads, at exit at the latest',
  { skip: process.platform === 'win32' },
  async (t) => {
    const proc = spawn(process.execPath, ['--input-type=module', '-e', child()], { stdio: ['ignore', 'pipe', 'pipe'] });
    t.after(() => proc.kill('SIGKILL'));
    proc.stdout.pause();
    // About 1 MB against a pipe of 64 KB: a writer that waited on its reader would never get here.
    const [said] = (await once(proc.stderr, 'data')) as [Buffer];
    assert.equal(said.toString(), 'written\n');
    const chunks: Buffer[] = [];
    proc.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    proc.stdout.resume();
    // close: exited, and its stdout read to the end.
    const [code] = (await once(proc, 'close')) as [number];
    assert.equal(code, 0);
    const lines = Buffer.concat(chunks).toString().split('\n').filter(Boolean);
    assert.equal(lines.length, 5000);
    assert.deepEqual(
      lines.map((line) => (JSON.parse(line) as { i: number }).i),
      Array.from({ length: 5000 }, (_, i) => i),
    );
  },
);

test('a reader that has gone (EPIPE) takes everything, to nowhere: the writer goes on', { skip: process.platform === 'win32' }, async (t) => {
  const proc = spawn(
    process.execPath,
    ['--input-type=module', '-e', child("destination.write('after\\n'); destination.flushSync(); process.stderr.write('flushed\\n');")],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  t.after(() => proc.kill('SIGKILL'));
  proc.stdout.destroy();
  let stderr = '';
  proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(proc, 'close')) as [number];
  assert.equal(code, 0);
  assert.equal(stderr, 'written\nflushed\n');
});
