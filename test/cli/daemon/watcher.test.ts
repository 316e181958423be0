import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildWatcher } from '../../../src/cli/daemon/watcher.js';
import { SettingsHub } from '../../../src/cli/daemon/settings-hub.js';
import { loadSettings } from '../../../src/config/load-settings.js';
import { capturedLogger } from '../../helpers/log-capture.js';
import { makeTree, removeTree } from '../../helpers/tree.js';
import { until } from '../../helpers/wait.js';

const check = (interval: number) => ({ command: 'true', interval, subscribers: ['x'] });

async function started(t: { after: (fn: () => Promise<void>) => void }, stopping: () => boolean) {
  const root = makeTree({ 'a.json': { checks: { one: check(10) } } });
  const sources = { configFile: null, configDirs: [root] };
  const initial = loadSettings(sources, {});
  const hub = new SettingsHub(initial.settings!);
  const capture = capturedLogger();
  const { service, reload } = buildWatcher(sources, { ...initial, settings: initial.settings! }, hub, stopping, capture.logger);
  await service.start();
  t.after(async () => {
    await service.stop(Date.now() + 5000);
    removeTree(root);
  });
  return { root, hub, capture, reload };
}

const intervalOf = (hub: SettingsHub) => hub.current().checks.one?.interval;

test('a conf.d edit reaches the settings hub; a log-level change is said to apply at restart', async (t) => {
  const { root, hub, capture } = await started(t, () => false);
  writeFileSync(join(root, 'a.json'), JSON.stringify({ checks: { one: check(20) }, 'log-level': 'debug' }));
  assert.ok(await until(() => intervalOf(hub) === 20, 10_000), 'applied');
  assert.ok(capture.messages().includes('log-level changed in the settings: it applies at restart'));
});

test('while the daemon stops, an edit is not applied; SIGHUP reloading is logged', async (t) => {
  const { root, hub, capture, reload } = await started(t, () => true);
  writeFileSync(join(root, 'a.json'), JSON.stringify({ checks: { one: check(30) } }));
  reload();
  assert.ok(await until(() => capture.messages().includes('SIGHUP: reloading configuration'), 5_000));
  // The watcher saw the edit and told its listeners (it logs the diff first); the hub keeps what was in force.
  assert.ok(await until(() => capture.messages().includes('settings changed'), 10_000), 'the edit was seen');
  assert.equal(intervalOf(hub), 10);
});
