// The in-process client role's own keepalive: stored (its settings redacted, with version and timestamp) on a real
// SQLite store, a new client's registration handed to the intake, a refusal or an unreachable store logged, not thrown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { receiveOwnKeepalive } from '../../src/keepalives/own-keepalive.js';
import { LEGACY_VERSION } from '../../src/legacy-version.js';
import type { EventDraft } from '../../src/legacy/index.js';
import { StateStore } from '../../src/store/index.js';
import { capturedLogger } from '../helpers/log-capture.js';
import { settingsOf } from '../helpers/settings.js';
import { sqliteIntake } from '../helpers/sqlite-intake.js';

const client = { name: 'door', address: '127.0.0.1', subscriptions: ['linux'], password: 'hunter2', nested: { api_key: 'k', team: 'ops' } };

async function until(done: () => boolean, turns = 5_000): Promise<void> {
  for (let i = 0; i < turns && !done(); i++) await nextTurn();
  assert.ok(done(), 'not reached');
}

test("the client's own keepalive is stored with its secrets redacted, the version and the time; its registration goes to the intake", async (t) => {
  const { store, intake } = sqliteIntake(t);
  const { logger, lines, messages } = capturedLogger();
  const registrations: EventDraft[] = [];
  intake.onRegistration((event) => registrations.push(event));
  const settings = settingsOf({ client, handlers: { registration: { type: 'pipe', command: 'cat' } } });
  const before = Math.floor(Date.now() / 1000);
  receiveOwnKeepalive(store, intake, logger)(settings);
  await until(() => messages().includes('new client registration'));
  const stored = store.getClient('door')!;
  assert.equal(stored.password, 'REDACTED');
  assert.deepEqual(stored.nested, { api_key: 'REDACTED', team: 'ops' });
  assert.deepEqual(stored.subscriptions, ['linux', 'client:door']);
  assert.equal(stored.version, LEGACY_VERSION);
  assert.ok(Number(stored.timestamp) >= before && Number(stored.timestamp) <= Math.floor(Date.now() / 1000), String(stored.timestamp));
  assert.equal(registrations.length, 1);
  assert.equal(registrations[0]!.check.name, 'registration');
  assert.equal(registrations[0]!.client.password, 'REDACTED', 'the registration carries the redacted record');
  assert.equal(lines.find((line) => line.msg === 'new client registration')?.event, registrations[0]!.id);

  // Registered once: the next keepalive updates the record only.
  receiveOwnKeepalive(
    store,
    intake,
    logger,
  )(settingsOf({ client: { ...client, address: '127.0.0.2' }, handlers: { registration: { type: 'pipe', command: 'cat' } } }));
  await until(() => store.getClient('door')?.address === '127.0.0.2');
  assert.equal(registrations.length, 1);
});

test("the client's own redact list is redacted beside the default keys", async (t) => {
  const { store, intake } = sqliteIntake(t);
  const { logger } = capturedLogger();
  receiveOwnKeepalive(store, intake, logger)(settingsOf({ client: { ...client, redact: ['team'] } }));
  await until(() => store.getClient('door') !== null);
  assert.equal(store.getClient('door')!.password, 'REDACTED');
  assert.deepEqual(store.getClient('door')!.nested, { api_key: 'REDACTED', team: 'REDACTED' });
  assert.equal(store.getClient('door')!.address, '127.0.0.1');
});

test('a refused keepalive is logged with its reason, no registration sent', async (t) => {
  const { store, intake } = sqliteIntake(t);
  const { logger, lines, messages } = capturedLogger();
  const registrations: EventDraft[] = [];
  intake.onRegistration((event) => registrations.push(event));
  store.putClient({ name: 'door', signature: 'someone-else', subscriptions: [], timestamp: 1 });
  receiveOwnKeepalive(store, intake, logger)(settingsOf({ client, handlers: { registration: { type: 'pipe', command: 'cat' } } }));
  await until(() => messages().includes('invalid client signature'));
  assert.equal(lines[0]!.client, 'door');
  assert.equal(lines[0]!.level, 40);
  assert.equal(store.getClient('door')!.timestamp, 1, 'the record is unchanged');
  assert.equal(registrations.length, 0);
});

test('a store that cannot take the keepalive is logged, not thrown', async () => {
  const store = StateStore.open(':memory:');
  store.close();
  const { logger, lines, messages } = capturedLogger();
  receiveOwnKeepalive(store, { submitRegistration: () => assert.fail('nothing to register') }, logger)(settingsOf({ client }));
  await until(() => messages().includes('own keepalive not stored'));
  assert.equal(lines[0]!.client, 'door');
  assert.equal(typeof lines[0]!.err, 'string');
});
