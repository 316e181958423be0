// An agent's entity from its keepalives, the entity_config frames sent to it, its legacy client record, and the
// connected mark on that record in a real SQLite store.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { StateStore } from '../../src/store/index.js';
import type { AgentIdentity } from '../../src/agentd/sessions.js';
import {
  clientRecordOf,
  entityConfig,
  entityFromKeepalive,
  initialEntityConfig,
  markAllDisconnected,
  markConnected,
  type AgentEntity,
} from '../../src/agentd/entity.js';

const identity: AgentIdentity = { name: 'web-01', namespace: 'ops', user: 'agent', subscriptions: ['linux'], tls: false, mtls: false };

test("a new agent's entity is what it posted, named by its handshake, with its own subscription and the keepalive's state", () => {
  const posted = {
    entity_class: 'proxy',
    subscriptions: ['linux', 'web', 'entity:web-01'],
    metadata: { name: 'spoofed', namespace: 'elsewhere', labels: { team: 'blue' } },
    system: { hostname: 'web-01.example' },
    sensu_agent_version: '6.10.0',
    redact: ['secret'],
  };
  assert.deepEqual(entityFromKeepalive(identity, posted, null, 1_700_000_000), {
    entity_class: 'agent',
    subscriptions: ['linux', 'web', 'entity:web-01'],
    metadata: { name: 'web-01', namespace: 'ops', labels: { team: 'blue' }, created_by: 'agent' },
    system: { hostname: 'web-01.example' },
    sensu_agent_version: '6.10.0',
    redact: ['secret'],
    last_seen: 1_700_000_000,
  });
});

test("a new agent's keepalive without subscriptions takes the handshake's; missing state comes out empty", () => {
  const entity = entityFromKeepalive(identity, { subscriptions: 'not a list' }, null, 5);
  assert.deepEqual(entity.subscriptions, ['linux', 'entity:web-01']);
  assert.deepEqual(entity.system, {});
  assert.equal(entity.sensu_agent_version, '');
  assert.deepEqual(entity.metadata, { name: 'web-01', namespace: 'ops', created_by: 'agent' });
});

test("a new agent's metadata that is no object brings nothing: a string's characters or a list's items are no fields of it", () => {
  for (const metadata of ['ab', ['x'], 5, null])
    assert.deepEqual(
      entityFromKeepalive(identity, { metadata }, null, 5).metadata,
      { name: 'web-01', namespace: 'ops', created_by: 'agent' },
      String(metadata),
    );
});

test('a known agent keeps its stored configuration; the keepalive brings only its state, and its own subscription back', () => {
  const stored = {
    entity_class: 'agent',
    subscriptions: ['edited-by-api'],
    metadata: { name: 'web-01', namespace: 'ops', labels: { owner: 'api' }, created_by: 'admin' },
    deregister: true,
    system: { hostname: 'old' },
    last_seen: 1,
  };
  const posted = {
    subscriptions: ['linux'],
    metadata: { labels: { owner: 'agent' } },
    system: { hostname: 'new' },
    sensu_agent_version: '6.11.0',
    deregister: false,
  };
  assert.deepEqual(entityFromKeepalive(identity, posted, stored, 99), {
    entity_class: 'agent',
    subscriptions: ['edited-by-api', 'entity:web-01'],
    metadata: { name: 'web-01', namespace: 'ops', labels: { owner: 'api' }, created_by: 'admin' },
    deregister: true,
    system: { hostname: 'new' },
    last_seen: 99,
    sensu_agent_version: '6.11.0',
  });
});

test("an entity_config frame carries the entity's configuration, never its state", () => {
  const config = entityConfig({
    metadata: { name: 'web-01', namespace: 'ops' },
    entity_class: 'agent',
    subscriptions: ['linux', 'entity:web-01'],
    system: { hostname: 'web-01.example' },
    last_seen: 5,
    sensu_agent_version: '6.10.0',
    redact: ['secret'],
  });
  assert.deepEqual(Object.keys(config).sort(), ['deregister', 'deregistration', 'entity_class', 'metadata', 'redact', 'subscriptions']);
  assert.deepEqual(config.subscriptions, ['linux', 'entity:web-01']);
  assert.deepEqual(config.redact, ['secret']);
});

test("a session's first entity_config is the stored entity's, or Sensu Go's not-found entity for a new agent", () => {
  assert.deepEqual(initialEntityConfig('ops', null), { metadata: { name: 'not found', namespace: 'ops' }, entity_class: 'agent' });
  const stored = { metadata: { name: 'web-01', namespace: 'ops' }, entity_class: 'agent', subscriptions: ['linux'], last_seen: 5 };
  assert.deepEqual(initialEntityConfig('ops', stored), entityConfig(stored));
  assert.equal('last_seen' in initialEntityConfig('ops', stored), false);
});

const agentEntity = (fields: Partial<AgentEntity> = {}): AgentEntity => ({
  metadata: { name: 'web-01', namespace: 'ops' },
  entity_class: 'agent',
  subscriptions: ['linux', 'entity:web-01'],
  sensu_agent_version: '6.10.0',
  ...fields,
});

test("an agent's client record: its name, namespace, subscriptions without its own, version, connected, the keepalive's thresholds", () => {
  assert.deepEqual(clientRecordOf(agentEntity(), { timeout: 30, ttl: 90 }, 1_700_000_000), {
    name: 'web-01',
    address: 'web-01',
    subscriptions: ['linux'],
    version: '6.10.0',
    timestamp: 1_700_000_000,
    entity_class: 'agent',
    namespace: 'ops',
    connected: true,
    keepalive: { thresholds: { warning: 30, critical: 90 } },
    deregister: false,
  });
});

test('keepalive thresholds that are not positive numbers fall back to 120 and 180', () => {
  const thresholds = (check: { timeout?: unknown; ttl?: unknown }) => (clientRecordOf(agentEntity(), check, 0).keepalive as { thresholds: unknown }).thresholds;
  assert.deepEqual(thresholds({}), { warning: 120, critical: 180 });
  assert.deepEqual(thresholds({ timeout: 0, ttl: -5 }), { warning: 120, critical: 180 });
  assert.deepEqual(thresholds({ timeout: 'soon', ttl: null }), { warning: 120, critical: 180 });
  assert.deepEqual(thresholds({ timeout: '45', ttl: '200' }), { warning: 45, critical: 200 });
});

test("the client's address is the first beyond loopback and link-local, without its prefix; else the hostname, else the name", () => {
  const withAddresses = (...lists: string[][]) =>
    agentEntity({ system: { hostname: 'web-01.example', network: { interfaces: lists.map((addresses, i) => ({ name: `if${i}`, addresses })) } } });
  assert.equal(clientRecordOf(withAddresses(['127.0.0.1/8', '::1/128'], ['fe80::1/64', '10.0.0.5/24', '10.0.0.6/24']), {}, 0).address, '10.0.0.5');
  assert.equal(clientRecordOf(withAddresses(['2001:db8::7/64']), {}, 0).address, '2001:db8::7');
  assert.equal(clientRecordOf(withAddresses(['127.0.0.1/8']), {}, 0).address, 'web-01.example');
  assert.equal(clientRecordOf(agentEntity(), {}, 0).address, 'web-01');
});

test('deregistration settings pass to the client record; a handler only when one is named', () => {
  const record = clientRecordOf(agentEntity({ deregister: true, deregistration: { handler: 'cleanup' } }), {}, 0);
  assert.equal(record.deregister, true);
  assert.deepEqual(record.deregistration, { handler: 'cleanup' });
  assert.equal('deregistration' in clientRecordOf(agentEntity({ deregistration: {} }), {}, 0), false);
});

function openStore(t: TestContext): StateStore {
  const store = StateStore.open(':memory:');
  t.after(() => store.close());
  return store;
}

test("marking connected changes an agent's client record only: another kind of client and an unknown name are left alone", (t) => {
  const store = openStore(t);
  store.putClient({ name: 'web-01', entity_class: 'agent', connected: true, subscriptions: ['linux'], timestamp: 7 });
  store.putClient({ name: 'legacy-1', subscriptions: [], timestamp: 7 });
  markConnected(store, 'web-01', false);
  markConnected(store, 'legacy-1', false);
  markConnected(store, 'nobody', false);
  assert.deepEqual(store.getClient('web-01'), { name: 'web-01', entity_class: 'agent', connected: false, subscriptions: ['linux'], timestamp: 7 });
  assert.equal(store.getClient('legacy-1')?.connected, undefined);
  assert.equal(store.getClient('nobody'), null);
  markConnected(store, 'web-01', true);
  assert.equal(store.getClient('web-01')?.connected, true);
});

test('at start every agent left connected is marked disconnected; other clients are untouched', (t) => {
  const store = openStore(t);
  store.putClient({ name: 'a', entity_class: 'agent', connected: true, subscriptions: [], timestamp: 1 });
  store.putClient({ name: 'b', entity_class: 'agent', connected: true, subscriptions: [], timestamp: 1 });
  store.putClient({ name: 'c', entity_class: 'agent', connected: false, subscriptions: [], timestamp: 1 });
  store.putClient({ name: 'd', connected: true, subscriptions: [], timestamp: 1 });
  markAllDisconnected(store);
  assert.deepEqual(
    ['a', 'b', 'c', 'd'].map((name) => store.getClient(name)?.connected),
    [false, false, false, true],
  );
});
