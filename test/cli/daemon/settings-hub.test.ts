import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SettingsHub } from '../../../src/cli/daemon/settings-hub.js';
import { settingsOf } from '../../helpers/settings.js';

const client = (name: string) => settingsOf({ client: { name, address: '127.0.0.1', subscriptions: [] } });

test('the settings in force are the last applied, and each part takes them in the order it registered', () => {
  const first = client('one');
  const hub = new SettingsHub(first);
  assert.equal(hub.current(), first);
  const taken: string[] = [];
  hub.onApply((settings) => taken.push(`a ${settings.client.name} ${hub.current() === settings}`));
  hub.onApply((settings) => taken.push(`b ${settings.client.name}`));
  const second = client('two');
  hub.apply(second);
  assert.equal(hub.current(), second);
  assert.deepEqual(taken, ['a two true', 'b two']);
});
