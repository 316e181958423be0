// The daemon's child processes: commands through the spawn limit (changed by new settings), the loaded files' list
// written for every child, and at stop the helper closed, the waiting work settled within its time, the list removed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Processes } from '../../src/execute/processes.js';
import { settingsOf } from '../helpers/settings.js';
import { makeTree, removeTree } from '../helpers/tree.js';

const limited = (limit: number) => settingsOf({ sensu: { spawn: { limit } } });

test('commands go through the spawn limit, which new settings change', async (t) => {
  const dir = makeTree({});
  const processes = new Processes(dir, limited(1), 1000);
  t.after(async () => {
    await processes.stop();
    removeTree(dir);
  });
  assert.equal(processes.name, 'execution');
  const order = async () => {
    const finished: string[] = [];
    const slow = processes.run('sleep 0.4; echo slow', {}).then((r) => finished.push(r.output.trim()));
    const quick = processes.run('echo quick', {}).then((r) => finished.push(r.output.trim()));
    await Promise.all([slow, quick]);
    return finished;
  };
  assert.deepEqual(await order(), ['slow', 'quick'], 'one at a time: the second waits for the first');
  processes.apply(limited(2));
  assert.deepEqual(await order(), ['quick', 'slow'], 'two at a time');
});

test('new settings write the loaded files for every child; stop settles the waiting work, then removes the list', async (t) => {
  const dir = makeTree({});
  t.after(() => removeTree(dir));
  const processes = new Processes(dir, limited(12), 200);
  const settings = { ...limited(12), files: ['conf.d/a.json', 'conf.d/b.json'] };
  processes.apply(settings);
  const listed = process.env.SENSU_LOADED_TEMPFILE!;
  assert.equal(listed, resolve(dir, 'sensu_checkbridge_loaded_files'));
  assert.equal(readFileSync(listed, 'utf8'), settings.files.map((f) => resolve(f)).join(':'));
  assert.equal((await processes.run('echo "$SENSU_LOADED_TEMPFILE"', {})).output.trim(), listed, 'a child is told where it is');

  const settled: string[] = [];
  processes.settleAtStop(async () => void settled.push('checks'));
  // Work that never settles holds the stop no longer than its time.
  processes.settleAtStop(() => new Promise(() => undefined));
  const started = Date.now();
  await processes.stop();
  assert.deepEqual(settled, ['checks']);
  assert.ok(Date.now() - started >= 150 && Date.now() - started < 5000, `${Date.now() - started} ms`);
  assert.equal(existsSync(listed), false, 'the list is removed');
  const after = await processes.run('echo never', {});
  assert.equal(after.status, 3, 'no command runs after stop');
});
