// The client's keepalive session on a real SQLite intake: its own keepalive at every interval while it runs, and its
// deregistration at stop when its settings ask for one and start-up had completed.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { KeepaliveSession, deregistrationOf } from '../../src/client/keepalive-session.js';
import { receiveOwnKeepalive } from '../../src/keepalives/own-keepalive.js';
import type { Settings } from '../../src/config/index.js';
import { capturedLogger } from '../helpers/log-capture.js';
import { settingsOf } from '../helpers/settings.js';
import { sqliteIntake } from '../helpers/sqlite-intake.js';
import { until } from '../helpers/wait.js';

function sessionOf(t: TestContext, settings: Settings, running = true) {
  const { store, intake } = sqliteIntake(t);
  const { logger } = capturedLogger();
  const sent: Settings[] = [];
  const own = receiveOwnKeepalive(store, intake, logger);
  const keepalive = (s: Settings) => (sent.push(s), own(s));
  const session = new KeepaliveSession({ settings: () => settings, keepalive, intake, intervalMs: 20, isRunning: () => running, logger });
  return { store, intake, session, sent };
}

const client = { name: 'door', address: '127.0.0.1', subscriptions: [] };

test('a keepalive every interval from start, with the settings in force, until stop', async (t) => {
  const settings = settingsOf({ client });
  const { store, session, sent } = sessionOf(t, settings);
  assert.equal(session.name, 'keepalives');
  await session.start();
  assert.ok(await until(() => sent.length >= 3, 5000), 'keepalives sent');
  assert.ok(sent.every((s) => s === settings));
  assert.ok(await until(() => store.getClient('door') !== null, 5000), 'the keepalive registered the client');
  await session.stop();
  const after = sent.length;
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(sent.length, after, 'none after stop');
  assert.equal(store.getResult('door', 'deregistration'), null, 'not asked to deregister: no deregistration');
});

test('asked to deregister: one deregistration result at stop, its settings over the defaults', async (t) => {
  const settings = settingsOf({ client: { ...client, deregister: true, deregistration: { handler: 'cleanup', status: 0, team: 'ops' } } });
  const { store, intake, session } = sessionOf(t, settings);
  await session.start();
  await session.stop();
  await intake.flushed();
  const check = store.getResult('door', 'deregistration')?.check;
  assert.equal(check?.output, 'client initiated deregistration');
  assert.equal(check?.status, 0, 'a status of 0 kept');
  assert.equal(check?.handler, 'cleanup');
  assert.equal(check?.team, 'ops');
});

test('a start-up that failed does not deregister', async (t) => {
  const settings = settingsOf({ client: { ...client, deregister: true } });
  const { store, intake, session } = sessionOf(t, settings, false);
  await session.stop();
  await intake.flushed();
  assert.equal(store.getResult('door', 'deregistration'), null);
});

test('the deregistration result: handler deregistration and status 1 by default; name, output and times forced', () => {
  const result = deregistrationOf(settingsOf({ client: { ...client, deregistration: { name: 'other', output: 'mine', issued: 1 } } }), 1_700_000_000);
  assert.deepEqual(result, {
    client: 'door',
    check: {
      handler: 'deregistration',
      status: 1,
      name: 'deregistration',
      output: 'client initiated deregistration',
      issued: 1_700_000_000,
      executed: 1_700_000_000,
    },
  });
});
