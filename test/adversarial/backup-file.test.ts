// `checkbridge backup FILE` copies password hashes and the token signing key: nobody else may have made, or read, any
// file of the copy. A name another local user can predict (FILE.partial-<pid>), pre-created as a file or a symlink,
// is never written into; the copy is the caller's, 0600, and nothing readable by others exists while it is made.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { BIN } from '../helpers/paths.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { runCli } from '../helpers/cli.js';

// A store of some size (the copy takes a while), at the path the CLI reads.
function makeStore(root: string): string {
  const state = join(root, 'state');
  mkdirSync(state);
  const db = new Database(join(state, 'checkbridge.db'));
  db.exec('CREATE TABLE secrets (k INTEGER PRIMARY KEY, v BLOB)');
  db.prepare(
    'INSERT INTO secrets (v) SELECT randomblob(65536) FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400) SELECT i FROM n)',
  ).run();
  db.pragma('user_version = 7');
  db.close();
  return state;
}

// The backup run as a user would; `before(pid)` plants a name at once, while the program is still starting.
function backup(args: string[], before: (pid: number) => string, watch: string): Promise<{ code: number | null; stderr: string; exposed: string[] }> {
  const child = spawn(process.execPath, [BIN, 'backup', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  const ours = new Set(['state', before(child.pid!)].concat(readdirSync(watch)));
  const exposed = new Set<string>();
  let running = true;
  // Every entry of the destination's directory, and of any directory in it, that others could read or enter.
  const look = () => {
    if (!running) return;
    for (const entry of readdirSync(watch).filter((name) => !ours.has(name))) {
      try {
        const path = join(watch, entry);
        const mode = lstatSync(path).mode;
        if ((mode & 0o077) !== 0) exposed.add(`${entry} ${(mode & 0o777).toString(8)}`);
      } catch {
        // gone between the listing and the stat
      }
    }
    setImmediate(look);
  };
  look();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      running = false;
      resolve({ code, stderr, exposed: [...exposed] });
    }),
  );
}

test("backup: a pre-created FILE.partial-<pid> is never written into; the copy is the caller's and 0600 throughout", async (t) => {
  const root = makeTree({});
  t.after(() => removeTree(root));
  const state = makeStore(root);
  const out = join(root, 'out');
  mkdirSync(out, { mode: 0o755 });
  const copy = join(out, 'copy.db');
  const run = await backup(
    ['--state-dir', state, copy],
    (pid) => {
      writeFileSync(`${copy}.partial-${pid}`, '', { mode: 0o666 });
      return `copy.db.partial-${pid}`;
    },
    out,
  );
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(run.exposed, [], 'no file or directory of the copy readable by others while it was made');
  const planted = readdirSync(out).filter((name) => name.includes('.partial-'));
  assert.equal(planted.length, 1, 'the planted file is still there, the copy did not take its place');
  assert.equal(statSync(join(out, planted[0]!)).size, 0, 'and it was not written into');
  const stat = statSync(copy);
  assert.equal(stat.mode & 0o777, 0o600);
  assert.equal(stat.uid, process.getuid!());
  const db = new Database(copy, { readonly: true });
  t.after(() => db.close());
  assert.deepEqual([db.pragma('integrity_check', { simple: true }), db.pragma('user_version', { simple: true })], ['ok', 7]);
  assert.deepEqual(readdirSync(out).sort(), ['copy.db', planted[0]], 'no temporary left behind');
});

test('backup: a symlink planted at FILE.partial-<pid> leads nowhere: its target is not written', async (t) => {
  const root = makeTree({});
  t.after(() => removeTree(root));
  const state = makeStore(root);
  const target = join(root, 'decoy-target');
  writeFileSync(target, '', { mode: 0o666 });
  const copy = join(root, 'copy.db');
  const run = await backup(
    ['--state-dir', state, copy],
    (pid) => {
      symlinkSync(target, `${copy}.partial-${pid}`);
      return `copy.db.partial-${pid}`;
    },
    root,
  );
  assert.equal(run.code, 0, run.stderr);
  assert.equal(statSync(target).size, 0, "the symlink's target stays empty");
  assert.equal(lstatSync(copy).isFile(), true, 'the copy is a file of its own, not the symlink');
  assert.equal(statSync(copy).mode & 0o777, 0o600);
});

test('backup: refuses a destination whose directory is missing, naming it', (t) => {
  const root = makeTree({});
  t.after(() => removeTree(root));
  const state = makeStore(root);
  const run = runCli(['backup', '--state-dir', state, join(root, 'missing', 'copy.db')]);
  assert.equal(run.code, 64, run.stderr);
  assert.match(run.stderr, /cannot write the backup into .*missing/);
});
