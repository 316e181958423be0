import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, renameSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { once, EventEmitter } from 'node:events';
import { loadSettings } from '../../src/config/load-settings.js';
import { watchSettings, type SettingsDiff } from '../../src/watch/settings-watcher.js';
import type { Settings } from '../../src/config/settings.js';
import { createLogger } from '../../src/log.js';
import { makeTree, removeTree } from '../helpers/tree.js';

const check = (interval: number) => ({ command: 'true', interval, subscribers: ['x'] });

/** A watcher over a fresh tree, closed and removed when the test ends; resolves once it is watching. */
async function startWatching(t: { after: (fn: () => Promise<void>) => void }, files: Record<string, string | object>) {
  const root = makeTree(files);
  const sources = { configFile: null, configDirs: [root] };
  const initial = loadSettings(sources, {});
  assert.ok(initial.settings);
  const watcher = watchSettings({ sources, initial: { ...initial, settings: initial.settings }, logger: createLogger('silent'), debounceMs: 50, env: {} });
  const events = new EventEmitter();
  watcher.onChange((diff, settings) => events.emit('change', diff, settings));
  const next = async (): Promise<[SettingsDiff, Settings]> => (await once(events, 'change')) as [SettingsDiff, Settings];
  t.after(async () => {
    await watcher.close();
    removeTree(root);
  });
  await watcher.ready();
  return { root, watcher, next };
}

test('edits, new files and deletions publish a diff of checks', async (t) => {
  const { root, next } = await startWatching(t, { 'a.json': { checks: { one: check(10), two: check(10) } } });

  let pending = next();
  writeFileSync(join(root, 'a.json'), JSON.stringify({ checks: { one: check(20), two: check(10) } }));
  let [diff, settings] = await pending;
  assert.deepEqual(
    diff.changed.map((c) => c.name),
    ['one'],
  );
  assert.deepEqual([diff.added.length, diff.removed.length], [0, 0]);
  assert.equal(settings.checks.one!.interval, 20);

  pending = next();
  writeFileSync(join(root, 'b.json'), JSON.stringify({ checks: { three: check(5) } }));
  [diff] = await pending;
  assert.deepEqual(
    diff.added.map((c) => c.name),
    ['three'],
  );

  pending = next();
  unlinkSync(join(root, 'b.json'));
  [diff] = await pending;
  assert.deepEqual(diff.removed, ['three']);
});

test('an editor that writes by rename is seen', async (t) => {
  const { root, next } = await startWatching(t, { 'a.json': { checks: { one: check(10) } } });
  const pending = next();
  writeFileSync(join(root, '.a.json.swp'), JSON.stringify({ checks: { one: check(99) } }));
  renameSync(join(root, '.a.json.swp'), join(root, 'a.json'));
  const [diff, settings] = await pending;
  assert.deepEqual(
    diff.changed.map((c) => c.name),
    ['one'],
  );
  assert.equal(settings.checks.one!.interval, 99);
});

test('an invalid edit keeps the last good settings, and a fix recovers', async (t) => {
  const { root, watcher, next } = await startWatching(t, { 'a.json': { checks: { one: check(10) } } });
  writeFileSync(join(root, 'a.json'), '{"checks": {"one": {"command": "true", "interval": "soon"');
  await watcher.reload();
  assert.equal(watcher.current().checks.one!.interval, 10);
  assert.match(watcher.diagnostics()[0]!.message, /config file must be valid json/);

  writeFileSync(join(root, 'a.json'), JSON.stringify({ checks: { one: { command: 'true', interval: 'soon', subscribers: [] } } }));
  await watcher.reload();
  assert.equal(watcher.current().checks.one!.interval, 10);
  assert.equal(watcher.diagnostics()[0]!.message, 'check interval must be an integer greater than 0');

  const pending = next();
  writeFileSync(join(root, 'a.json'), JSON.stringify({ checks: { one: check(15) } }));
  const [diff] = await pending;
  assert.deepEqual(
    diff.changed.map((c) => c.name),
    ['one'],
  );
  assert.deepEqual(watcher.diagnostics(), []);
});

test('a client change is reported as such', async (t) => {
  const { root, next } = await startWatching(t, { 'c.json': { client: { name: 'a', address: 'x', subscriptions: [] } } });
  const pending = next();
  writeFileSync(join(root, 'c.json'), JSON.stringify({ client: { name: 'a', address: 'x', subscriptions: ['web'] } }));
  const [diff, settings] = await pending;
  assert.equal(diff.clientChanged, true);
  assert.deepEqual(settings.client.subscriptions, ['web', 'client:a']);
});
