// A secrets provider's outage as a result of the server's own entity: critical while down, ok once it answers again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OutageReports, outageResult } from '../../src/secrets/outage.js';
import { settingsOf } from '../helpers/settings.js';
import { sqliteIntake } from '../helpers/sqlite-intake.js';

test('a provider going down is a critical result of the server entity, its reason in the output', () => {
  assert.deepEqual(outageResult('checkbridge-server', { provider: 'vault', down: true, reason: 'connect ECONNREFUSED' }, 1_700_000_000_999), {
    client: 'checkbridge-server',
    check: {
      name: 'secrets-provider-vault',
      output: 'secrets provider vault is unavailable: connect ECONNREFUSED',
      status: 2,
      executed: 1_700_000_000,
      issued: 1_700_000_000,
    },
  });
});

test('the provider answering again is an ok result of the same check, which resolves it', () => {
  const down = outageResult('srv', { provider: 'vault', down: true, reason: 'timeout' }, 1000);
  const up = outageResult('srv', { provider: 'vault', down: false, reason: 'timeout' }, 2000);
  assert.equal(up.check.name, down.check.name);
  assert.equal(up.check.status, 0);
  assert.equal(up.check.output, 'secrets provider vault is available');
  assert.equal(up.check.executed, 2);
});

test('a provider name outside legacy check names is written as one', () => {
  const result = outageResult('srv', { provider: 'my vault/eu', down: true, reason: 'x' }, 0);
  assert.equal(result.check.name, 'secrets-provider-my_vault_eu');
  assert.equal(result.check.output, 'secrets provider my vault/eu is unavailable: x', 'the output names it as configured');
});

test("each outage reported is a result of the daemon's own entity in a real intake, named by the settings in force", async (t) => {
  const { store, intake } = sqliteIntake(t);
  let settings = settingsOf({ client: { name: 'server-1', address: '127.0.0.1', subscriptions: [] } });
  const reports = new OutageReports(intake, () => settings);
  reports.report({ provider: 'vault', down: true, reason: 'connect ECONNREFUSED' });
  await intake.flushed();
  const down = store.getResult('server-1', 'secrets-provider-vault')?.check;
  assert.deepEqual([down?.status, down?.output], [2, 'secrets provider vault is unavailable: connect ECONNREFUSED']);
  settings = settingsOf({ client: { name: 'server-2', address: '127.0.0.1', subscriptions: [] } });
  reports.report({ provider: 'vault', down: false, reason: '' });
  await intake.flushed();
  assert.equal(store.getResult('server-2', 'secrets-provider-vault')?.check.status, 0);
});
