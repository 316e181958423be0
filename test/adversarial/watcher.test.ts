import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { instanceFor, getJson, eventually } from '../helpers/instance.js';

const client = { name: 'watched-box', address: '127.0.0.1', subscriptions: ['web'] };
const checks = (command: string) => JSON.stringify({ checks: { probe: { command, subscribers: ['web'], interval: 60 } } });

/** The command of check `probe` as the running daemon's legacy API serves it, once it equals `expected`. */
async function probeBecomes(api: string, expected: string): Promise<string | undefined> {
  const command = async () => ((await getJson(`${api}/checks/probe`)).body as { command?: string } | null)?.command;
  return eventually(command, (c) => c === expected, 10_000);
}

test('a conf.d deleted and recreated (rm -rf, mkdir, copy) keeps being watched', async (t) => {
  const { root, api, daemon } = await instanceFor(t, { 'conf.d/client.json': { client }, 'conf.d/checks.json': checks('echo first') });
  const dir = join(root, 'conf.d');
  assert.equal(await probeBecomes(api, 'echo first'), 'echo first');

  rmSync(dir, { recursive: true, force: true });
  // A deployment tool takes its time between the removal and the copy.
  await sleep(500);
  mkdirSync(dir);
  writeFileSync(join(dir, 'client.json'), JSON.stringify({ client }));
  writeFileSync(join(dir, 'checks.json'), checks('echo second'));
  assert.equal(await probeBecomes(api, 'echo second'), 'echo second', 'the recreated directory was not applied');

  writeFileSync(join(dir, 'checks.json'), checks('echo third'));
  assert.equal(await probeBecomes(api, 'echo third'), 'echo third', 'an edit after the recreation was not applied');

  // SIGHUP after all that re-reads, and the watcher still sees edits after it.
  daemon.proc.kill('SIGHUP');
  await daemon.waitFor((l) => l.msg === 'SIGHUP: reloading configuration');
  writeFileSync(join(dir, 'checks.json'), checks('echo fourth'));
  assert.equal(await probeBecomes(api, 'echo fourth'), 'echo fourth', 'an edit after SIGHUP was not applied');
});

test('a conf.d replaced by a rename swap keeps being watched', async (t) => {
  const { root, api } = await instanceFor(t, { 'conf.d/client.json': { client }, 'conf.d/checks.json': checks('echo first') });
  const dir = join(root, 'conf.d');
  assert.equal(await probeBecomes(api, 'echo first'), 'echo first');

  for (const [round, command] of [
    [1, 'echo swapped once'],
    [2, 'echo swapped twice'],
  ] as const) {
    const next = join(root, `conf.d.new${round}`);
    mkdirSync(next);
    writeFileSync(join(next, 'client.json'), JSON.stringify({ client }));
    writeFileSync(join(next, 'checks.json'), checks(command));
    renameSync(dir, join(root, `conf.d.old${round}`));
    renameSync(next, dir);
    assert.equal(await probeBecomes(api, command), command, `swap ${round} was not applied`);
  }

  writeFileSync(join(dir, 'checks.json'), checks('echo edited'));
  assert.equal(await probeBecomes(api, 'echo edited'), 'echo edited', 'an edit after the swaps was not applied');
});
