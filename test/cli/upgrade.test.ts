import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { runCli } from '../helpers/cli.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { BIN, ROOT } from '../helpers/paths.js';
import { startInstance, getJson } from '../helpers/instance.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'state-schema-4');
const versionOf = (path: string) => {
  const db = new Database(path, { readonly: true });
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } finally {
    db.close();
  }
};

/** A copy of the schema-4 fixture: a state directory written by the code before the schema changed. */
function oldStateDir(t: { after(fn: () => void): void }): { root: string; state: string; db: string } {
  const root = makeTree({ 'conf.d/conf.json': readFileSync(join(FIXTURE, 'conf.json'), 'utf8') });
  t.after(() => removeTree(root));
  const state = join(root, 'state');
  mkdirSync(state);
  copyFileSync(join(FIXTURE, 'checkbridge.db'), join(state, 'checkbridge.db'));
  return { root, state, db: join(state, 'checkbridge.db') };
}

/** Runs `upgrade` on a pseudo-terminal (util-linux `script`), typing `answer` at the prompt. */
function upgradeOnTerminal(state: string, answer: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', `${process.execPath} ${BIN} upgrade --state-dir ${state}`, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('[y/n]') && !child.stdin.writableEnded) child.stdin.end(`${answer}\n`);
    });
    child.on('error', reject);
    child.on('exit', () => resolve(out));
  });
}

test('upgrade: a new state directory needs nothing; version names the schemas', (t) => {
  const root = makeTree({});
  t.after(() => removeTree(root));
  const fresh = runCli(['upgrade', '--state-dir', join(root, 'state')]);
  assert.equal(fresh.code, 0);
  assert.match(fresh.stdout, /a new state directory needs no upgrade/);
  const version = runCli(['version', '--json']);
  assert.equal(version.code, 0);
  const info = JSON.parse(version.stdout);
  assert.equal(info.version, JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  assert.ok(info.store_schemas.sqlite >= 5);
  assert.match(runCli(['--version']).stdout, /^checkbridge version \d+\.\d+\.\d+, build \S+/);
});

test('upgrade: asks on a terminal, refuses to ask otherwise, backs up, then says it already ran', async (t) => {
  const { state, db } = oldStateDir(t);
  const piped = runCli(['upgrade', '--state-dir', state]);
  assert.notEqual(piped.code, 0);
  assert.match(piped.stderr, /not a terminal.*--skip-confirm/);
  assert.equal(versionOf(db), 4, 'nothing changed');

  assert.match(await upgradeOnTerminal(state, 'n'), /upgrade cancelled/);
  assert.equal(versionOf(db), 4);
  const said = await upgradeOnTerminal(state, 'y');
  assert.match(said, /from schema 4 to \d+\? A backup/);
  assert.match(said, /backup of the store written to (\S+)/);
  const backups = readdirSync(state).filter((f) => f.startsWith('checkbridge.db.backup-schema-4-'));
  assert.equal(backups.length, 1);
  assert.equal(versionOf(join(state, backups[0]!)), 4, 'the backup is the old store');
  assert.ok(versionOf(db) > 4);

  const again = runCli(['upgrade', '--state-dir', state, '--skip-confirm']);
  assert.equal(again.code, 0);
  assert.match(again.stdout, /upgrade already ran/);
});

test('upgrade and start refuse checks in namespaces that do not exist, naming them', async (t) => {
  const { root, state, db } = oldStateDir(t);
  const writable = new Database(db);
  writable
    .prepare('INSERT INTO v2_resources VALUES (?, ?, ?, ?)')
    .run('CheckConfig', 'ghost', 'orphan', JSON.stringify({ command: 'true', metadata: { name: 'orphan', namespace: 'ghost' } }));
  writable.close();
  const refused = runCli(['upgrade', '--state-dir', state, '--skip-confirm']);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /check orphan in namespace ghost/);
  assert.equal(versionOf(db), 4);
  const started = runCli([
    'run',
    join(root, 'conf.d'),
    '--state-dir',
    state,
    '--socket-port',
    '0',
    '--api-port',
    '0',
    '--agent-port',
    '0',
    '--v2-port',
    '0',
    '--agentd-port',
    '0',
  ]);
  assert.equal(started.code, 1);
  assert.match(started.stderr, /refusing to start: checks reference namespaces that do not exist: check orphan in namespace ghost/);
});

test('the daemon applies additive schema changes in place and keeps what the old store held', async (t) => {
  const { root, state } = oldStateDir(t);
  const instance = await startInstance(root, [], { CHECKBRIDGE_ADMIN_PASSWORD: 'fixture-admin-pass' });
  t.after(() => void instance.daemon.stop('SIGKILL'));
  const line = await instance.daemon.waitFor((l) => l.msg === 'store schema upgraded in place (every row kept)');
  assert.equal(line.from, 4);
  const events = await getJson(`${instance.api}/events`);
  assert.ok(
    (events.body as { check: { name: string } }[]).some((e) => e.check.name === 'fixture_result'),
    JSON.stringify(events.body),
  );
  assert.ok(existsSync(join(state, 'checkbridge.db')));
});
