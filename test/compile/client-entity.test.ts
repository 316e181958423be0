// agentLabelsOf: the labels an agent's entity carries after `create -f` of what compile emits for a given client.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentLabelsOf } from '../../src/compile/client-entity.js';
import { settingsOf } from '../helpers/settings.js';

const settings = settingsOf({ client: { name: 'server', address: '10.0.0.1', subscriptions: [], rack: 'r1' } });

test('the labels are those of the given client, not of the configured one', () => {
  const labels = agentLabelsOf(
    settings,
    { name: 'web-2', address: '10.0.0.2', subscriptions: ['web'], disk: { warning: 5 } },
    new Map([['disk_warning', 'disk.warning']]),
    'ops',
  );
  assert.deepEqual(labels, { disk_warning: '5', address: '10.0.0.2' });
});

test('scalar attributes become labels and secrets never do, even when a template reads them', () => {
  const labels = agentLabelsOf(
    settings,
    { name: 'web-2', address: '10.0.0.2', subscriptions: [], env: 'prod', password: 'hunter2', db: { password: 'p' } },
    new Map([['db_password', 'db.password']]),
    'ops',
  );
  assert.deepEqual(labels, { address: '10.0.0.2', env: 'prod' });
});
