// Legacy keepalives on a real SQLite store and intake: a client's keepalive registers or updates it (signature, entity
// limit, registration event), the keepalive check's status from its age, and the keepalive and TTL monitor passes.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { StateStore } from '../../src/store/index.js';
import { keepaliveCheck, monitorKeepalives, monitorTtl, receiveKeepalive, storeKeepalive } from '../../src/keepalives/keepalives.js';
import { entityLimitMessage } from '../../src/legacy/index.js';
import { settingsOf } from '../helpers/settings.js';
import { sqliteIntake } from '../helpers/sqlite-intake.js';

const NOW_MS = 1_700_000_000_000;
const NOW = NOW_MS / 1000;
const plain = settingsOf({ checkbridge: { entity_limit: 0 } });
const withRegistration = settingsOf({ checkbridge: { entity_limit: 0 }, handlers: { registration: { type: 'pipe', command: 'cat' } } });

function openStore(t: TestContext): StateStore {
  const store = StateStore.open(':memory:');
  t.after(() => store.close());
  return store;
}

const keepaliveOf = (name: string, fields: Record<string, unknown> = {}) => ({
  name,
  address: '10.0.0.1',
  subscriptions: ['linux'],
  timestamp: NOW,
  ...fields,
});

test("a new client's keepalive stores it with its own client:<name> subscription, once", (t) => {
  const store = openStore(t);
  assert.deepEqual(receiveKeepalive(store, plain, keepaliveOf('web-01', { subscriptions: ['linux', 'client:web-01'] }), NOW_MS), {
    accepted: true,
    registration: null,
  });
  assert.deepEqual(store.getClient('web-01'), { name: 'web-01', address: '10.0.0.1', subscriptions: ['linux', 'client:web-01'], timestamp: NOW });
  receiveKeepalive(store, plain, keepaliveOf('web-01', { subscriptions: 'not a list', timestamp: NOW + 20 }), NOW_MS);
  assert.deepEqual(store.getClient('web-01')?.subscriptions, ['client:web-01']);
  assert.equal(store.getClient('web-01')?.timestamp, NOW + 20, 'a later keepalive replaces the record');
});

test('a new client raises a registration event when a registration handler exists; a known one does not', (t) => {
  const store = openStore(t);
  const outcome = receiveKeepalive(store, withRegistration, keepaliveOf('web-01'), NOW_MS);
  assert.equal(outcome.accepted, true);
  const event = outcome.accepted ? outcome.registration : null;
  assert.ok(event);
  assert.equal(event.client.name, 'web-01');
  assert.deepEqual(event.client.subscriptions, ['linux', 'client:web-01']);
  assert.equal(event.check.name, 'registration');
  assert.equal(event.check.handler, 'registration');
  assert.equal(event.check.status, 1);
  assert.equal(event.check.output, 'new client registration');
  assert.deepEqual([event.check.issued, event.check.executed, event.timestamp], [NOW, NOW, NOW]);
  assert.deepEqual(receiveKeepalive(store, withRegistration, keepaliveOf('web-01'), NOW_MS), { accepted: true, registration: null });
});

test("a client's own registration settings raise the event without a handler, merged over the defaults", (t) => {
  const store = openStore(t);
  const outcome = receiveKeepalive(store, plain, keepaliveOf('web-01', { registration: { handler: 'cmdb', status: 2, team: 'ops' } }), NOW_MS);
  const check = outcome.accepted ? outcome.registration?.check : undefined;
  assert.deepEqual([check?.handler, check?.status, check?.team, check?.name], ['cmdb', 2, 'ops', 'registration']);
});

test("a client's registration status 0 is kept (only the name, output and times are forced)", (t) => {
  const store = openStore(t);
  const outcome = receiveKeepalive(store, plain, keepaliveOf('web-01', { registration: { status: 0 } }), NOW_MS);
  assert.equal(outcome.accepted && outcome.registration?.check.status, 0);
});

test('a registration event is silenced by a silence entry that matches it', (t) => {
  const store = openStore(t);
  store.silences.put('client:web-01:*', { id: 'client:web-01:*', begin: null }, null);
  const outcome = receiveKeepalive(store, withRegistration, keepaliveOf('web-01'), NOW_MS);
  assert.deepEqual(outcome.accepted ? outcome.registration?.silenced_by : undefined, ['client:web-01:*']);
});

test("a keepalive without the stored client's signature is refused and changes nothing", (t) => {
  const store = openStore(t);
  receiveKeepalive(store, plain, keepaliveOf('web-01', { signature: 'secret' }), NOW_MS);
  for (const payload of [keepaliveOf('web-01', { address: 'spoofed' }), keepaliveOf('web-01', { address: 'spoofed', signature: 'other' })])
    assert.deepEqual(receiveKeepalive(store, plain, payload, NOW_MS), { accepted: false, reason: 'invalid client signature' });
  assert.equal(store.getClient('web-01')?.address, '10.0.0.1');
  assert.deepEqual(receiveKeepalive(store, plain, keepaliveOf('web-01', { address: '10.0.0.2', signature: 'secret' }), NOW_MS), {
    accepted: true,
    registration: null,
  });
  assert.equal(store.getClient('web-01')?.address, '10.0.0.2');
});

test('an invalidated client is refused until its invalidation expires, then registers anew', (t) => {
  const store = openStore(t);
  store.putClient(keepaliveOf('web-01'));
  store.deleteClient('web-01', { until: NOW + 60 });
  assert.deepEqual(receiveKeepalive(store, withRegistration, keepaliveOf('web-01'), NOW_MS), { accepted: false, reason: 'invalid client signature' });
  const later = receiveKeepalive(store, withRegistration, keepaliveOf('web-01'), NOW_MS + 60_000);
  assert.equal(later.accepted, true);
  assert.equal(later.accepted && later.registration?.check.name, 'registration', 'registered as a new client');
  assert.equal(store.getClient('web-01')?.invalidated, undefined);
});

test('at the entity limit a new client is refused; a known one keeps sending keepalives', (t) => {
  const store = openStore(t);
  const limited = settingsOf({ checkbridge: { entity_limit: 1 } });
  assert.equal(receiveKeepalive(store, limited, keepaliveOf('web-01'), NOW_MS).accepted, true);
  assert.deepEqual(receiveKeepalive(store, limited, keepaliveOf('web-02'), NOW_MS), { accepted: false, reason: entityLimitMessage(1) });
  assert.equal(store.getClient('web-02'), null);
  assert.equal(receiveKeepalive(store, limited, keepaliveOf('web-01'), NOW_MS).accepted, true);
});

test('a keepalive stored as a unit of work gives the same outcome and stores the client', async (t) => {
  const store = openStore(t);
  const outcome = await storeKeepalive(store, withRegistration, keepaliveOf('web-01'), NOW_MS);
  assert.equal(outcome.accepted && outcome.registration?.check.name, 'registration');
  assert.notEqual(store.getClient('web-01'), null);
  assert.deepEqual(await storeKeepalive(store, plain, keepaliveOf('web-01', { signature: 'x' }), NOW_MS), { accepted: true, registration: null });
  assert.deepEqual(await storeKeepalive(store, plain, keepaliveOf('web-01'), NOW_MS), { accepted: false, reason: 'invalid client signature' });
});

test("the keepalive check's status follows the client's silence: OK, then warning at 120 s, critical at 180 s", () => {
  const at = (age: number) => keepaliveCheck(plain, keepaliveOf('web-01', { timestamp: NOW - age }), NOW_MS);
  assert.deepEqual([at(119).status, at(119).output], [0, 'Keepalive sent from client 119 seconds ago']);
  assert.deepEqual([at(120).status, at(120).output], [1, 'No keepalive sent from client for 120 seconds (>=120)']);
  assert.deepEqual([at(180).status, at(180).output], [2, 'No keepalive sent from client for 180 seconds (>=180)']);
  const check = at(5);
  assert.deepEqual([check.name, check.issued, check.executed], ['keepalive', NOW, NOW]);
  assert.equal('handler' in check, false, 'no keepalive handler defined');
});

test("thresholds come from the server's keepalive defaults, then the client's own; a keepalive handler is named when defined", () => {
  const settings = settingsOf({
    checkbridge: { entity_limit: 0 },
    sensu: { keepalives: { thresholds: { warning: 30, critical: 60 } } },
    handlers: { keepalive: { type: 'pipe', command: 'cat' } },
  });
  const at = (age: number, keepalive?: object) =>
    keepaliveCheck(settings, keepaliveOf('web-01', { timestamp: NOW - age, ...(keepalive ? { keepalive } : {}) }), NOW_MS);
  assert.deepEqual([at(29).status, at(30).status, at(60).status], [0, 1, 2]);
  assert.equal(at(0).handler, 'keepalive');
  const own = { thresholds: { critical: 300 } };
  assert.deepEqual([at(30, own).status, at(299, own).status, at(300, own).status], [1, 1, 2], 'its own critical, the default warning');
  assert.equal(at(0, { handler: 'pager' }).handler, 'pager');
});

test('client tokens in the keepalive settings are substituted; unmatched ones are named and make an OK a warning', () => {
  const tokens = keepaliveOf('web-01', { keepalive: { thresholds: { warning: ':::limits.warn|90:::' } }, limits: { warn: 45 } });
  const at = (age: number, client = tokens) => keepaliveCheck(plain, { ...client, timestamp: NOW - age }, NOW_MS);
  assert.deepEqual([at(44).status, at(45).status], [0, 1], "the warning threshold from the client's own attribute");
  assert.equal(at(45).output, 'No keepalive sent from client for 45 seconds (>=45)');
  const unmatched = keepaliveOf('web-01', { keepalive: { team: ':::team:::', note: ':::missing.token:::' } });
  assert.equal(at(0, unmatched).status, 1);
  assert.equal(at(0, unmatched).output, 'Keepalive sent from client 0 seconds ago - Unmatched client token(s): team, missing.token');
  assert.equal(at(200, unmatched).status, 2, 'a worse status is kept');
});

test('the keepalive monitor checks every client but those without keepalives or invalidated, past a slice of 100', async (t) => {
  const { store, intake } = sqliteIntake(t);
  const names = Array.from({ length: 150 }, (_, i) => `c${i}`);
  const now = Date.now();
  for (const name of names) store.putClient(keepaliveOf(name, { timestamp: Math.floor(now / 1000) - 200 }));
  store.putClient(keepaliveOf('quiet', { keepalives: false, timestamp: 1 }));
  store.putClient(keepaliveOf('gone'));
  store.deleteClient('gone', { until: null });
  await monitorKeepalives(store, plain, intake, now);
  for (const name of names) assert.equal((store.getEvent(name, 'keepalive')?.check as { status?: number } | undefined)?.status, 2, name);
  assert.equal(store.getResult('quiet', 'keepalive'), null);
  assert.equal(store.getResult('gone', 'keepalive'), null);
});

test('the TTL monitor raises a stale result with its age and ttl_status, and leaves fresh, force-resolved and keepalive-failing clients alone', async (t) => {
  const { store, intake } = sqliteIntake(t);
  const now = Date.now();
  const nowS = Math.floor(now / 1000);
  for (const name of ['a', 'b']) store.putClient(keepaliveOf(name, { timestamp: nowS }));
  const result = (name: string, fields: Record<string, unknown>) => ({
    name,
    command: 'true',
    status: 0,
    output: 'ok',
    issued: nowS - 100,
    executed: nowS - 100,
    ...fields,
  });
  store.putResult('a', result('stale', { ttl: 90 }), [], null);
  store.putResult('a', result('custom', { ttl: 90, ttl_status: 2 }), [], null);
  store.putResult('a', result('fresh', { ttl: 120 }), [], null);
  store.putResult('a', result('resolved', { ttl: 90, force_resolve: true }), [], null);
  store.putResult('a', result('no-ttl', {}), [], null);
  // A client whose keepalive is failing: its TTLs are not raised on top.
  store.putResult('b', result('stale', { ttl: 90 }), [], null);
  store.putEvent('b', 'keepalive', { client: { name: 'b' }, check: { name: 'keepalive', status: 2 } });
  await monitorTtl(store, intake, now);
  const checkOf = (client: string, name: string) => store.getResult(client, name)?.check as Record<string, unknown>;
  assert.deepEqual([checkOf('a', 'stale').status, checkOf('a', 'stale').output], [1, 'Last check execution was 100 seconds ago']);
  assert.equal(checkOf('a', 'custom').status, 2);
  assert.equal(checkOf('a', 'stale').executed, nowS - 100, 'its execution time kept');
  for (const name of ['fresh', 'resolved', 'no-ttl']) assert.equal(checkOf('a', name).output, 'ok', name);
  assert.equal(checkOf('b', 'stale').output, 'ok');
  assert.notEqual(store.getEvent('a', 'stale'), null);
});
