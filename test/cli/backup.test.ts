import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { runCli, type CliResult } from '../helpers/cli.js';
import { BIN } from '../helpers/paths.js';
import { instanceFor, postJson } from '../helpers/instance.js';
import { makeTree, removeTree } from '../helpers/tree.js';

/** The CLI run without blocking this process: the writer below keeps going while it runs. */
function runCliAsync(args: readonly string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const CONF = { 'conf.d/client.json': { client: { name: 'backup-host', subscriptions: [] } } };
const nameOf = (i: number) => `seq_${String(i).padStart(6, '0')}`;

test('backup: a copy of a live store taken while results are written opens, passes integrity_check and holds every result up to one instant', async (t) => {
  const instance = await instanceFor(t, CONF);
  const state = join(instance.root, 'state');
  let written = 0;
  let writing = true;
  // One result after another, each committed (2xx) before the next: the store's results are always a prefix 0..n-1.
  const writer = (async () => {
    while (writing) {
      const { status } = await postJson(`${instance.api}/results`, { name: nameOf(written), status: 1, output: 'load' });
      assert.equal(status, 202);
      written++;
    }
  })();
  while (written < 50) await new Promise((r) => setTimeout(r, 10));
  const before = written;
  const copyPath = join(instance.root, 'copy.db');
  const result = await runCliAsync(['backup', copyPath, '--state-dir', state]);
  const during = written;
  writing = false;
  await writer;
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /backup of the store at .*checkbridge\.db written to .*copy\.db \(\d+ bytes, schema \d+\)/);
  assert.equal(statSync(copyPath).mode & 0o777, 0o600);
  assert.equal(existsSync(`${copyPath}-wal`), false);
  const copy = new Database(copyPath, { readonly: true });
  t.after(() => copy.close());
  assert.equal(copy.pragma('integrity_check', { simple: true }), 'ok');
  const names = (copy.prepare("SELECT check_name FROM results WHERE check_name LIKE 'seq_%' ORDER BY check_name").all() as { check_name: string }[]).map(
    (r) => r.check_name,
  );
  assert.ok(names.length >= before, `the copy holds ${names.length} results, ${before} were committed before it began`);
  assert.ok(names.length <= during + 1, `the copy holds ${names.length} results, at most ${during + 1} were sent before it ended`);
  assert.deepEqual(
    names,
    Array.from({ length: names.length }, (_, i) => nameOf(i)),
    'the copy is one instant: results 0..n-1, no gap',
  );
  // The daemon kept running and kept taking results.
  assert.equal((await postJson(`${instance.api}/results`, { name: 'after_backup', status: 0, output: 'ok' })).status, 202);
});

test('backup: names a missing store', (t) => {
  const root = makeTree({});
  t.after(() => removeTree(root));
  const missing = runCli(['backup', join(root, 'copy.db'), '--state-dir', join(root, 'state')]);
  assert.equal(missing.code, 64);
  assert.match(missing.stderr, /no store at .*state\/checkbridge\.db: name the daemon's state directory with --state-dir/);
});

test('backup: never overwrites an existing file', async (t) => {
  const instance = await instanceFor(t, CONF);
  const target = join(instance.root, 'conf.d', 'client.json');
  const refused = runCli(['backup', target, '--state-dir', join(instance.root, 'state')]);
  assert.equal(refused.code, 64);
  assert.match(refused.stderr, /already exists: a backup never overwrites a file/);
});
