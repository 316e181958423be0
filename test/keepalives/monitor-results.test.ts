// The monitors' results over a broker: an agent's stays in the local intake, a legacy client's goes with the server's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MonitorResults } from '../../src/keepalives/monitor-results.js';
import type { CheckResult } from '../../src/execute/index.js';
import { sqliteIntake } from '../helpers/sqlite-intake.js';

const NOW = Math.floor(Date.now() / 1000);

function keepaliveOf(client: string, fromServer: boolean): CheckResult {
  const check = { name: 'keepalive', status: 2, output: 'No keepalive sent from client for 180 seconds', issued: NOW, executed: NOW };
  return { client, check, ...(fromServer ? { fromServer: true as const } : {}) };
}

test("an agent's monitor result stays local; a legacy client's, or one not the server's own, goes with the server's results", async (t) => {
  const local = sqliteIntake(t);
  // The broker's side: another real intake, on a store of its own, stands where the server's results arrive.
  const remote = sqliteIntake(t);
  local.store.putClient({ name: 'agent-1', entity_class: 'agent', namespace: 'default', subscriptions: [] });
  local.store.putClient({ name: 'web-1', subscriptions: [] });
  const results = new MonitorResults(local.store, local.intake, remote.intake);

  await results.submit(keepaliveOf('agent-1', true));
  await results.submit(keepaliveOf('web-1', true));
  await results.submit(keepaliveOf('agent-1', false));
  await Promise.all([local.intake.flushed(), remote.intake.flushed()]);

  assert.equal(local.store.getResult('agent-1', 'keepalive')?.check.status, 2, "the agent's, in the local intake");
  assert.equal(local.store.getResult('web-1', 'keepalive'), null, "the legacy client's, not in the local intake");
  assert.equal(remote.store.getResult('web-1', 'keepalive')?.check.status, 2, "the legacy client's, with the server's results");
  assert.equal(remote.store.getResult('agent-1', 'keepalive')?.check.status, 2, "one not the server's own, with the others");
});
