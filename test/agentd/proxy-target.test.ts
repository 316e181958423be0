// Which entity an agent's event may name in check.proxy_entity_name: only a proxy entity (or a new name), never an
// agent's, the backend's own client, or a client with keepalives; read from a real SQLite store.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { StateStore } from '../../src/store/index.js';
import { proxyTargetProblem } from '../../src/agentd/proxy-target.js';

const LEGACY = 'legacy';

function openStore(t: TestContext): StateStore {
  const store = StateStore.open(':memory:');
  t.after(() => store.close());
  return store;
}

/** The problem of an event of agent `web-01` in `namespace` whose check names `proxy`. */
const problemOf = (store: StateStore, namespace: string, proxy: unknown, check: Record<string, unknown> = {}) =>
  proxyTargetProblem(store, LEGACY, namespace, 'web-01', { metadata: { name: 'disk' }, ...check, proxy_entity_name: proxy });

test('an event naming no proxy entity, an empty one or its own agent is about its agent: no problem', (t) => {
  const store = openStore(t);
  assert.equal(proxyTargetProblem(store, LEGACY, 'default', 'web-01', undefined), null);
  assert.equal(proxyTargetProblem(store, LEGACY, 'default', 'web-01', { metadata: { name: 'disk' } }), null);
  assert.equal(problemOf(store, 'default', ''), null);
  assert.equal(problemOf(store, 'default', 42), null);
  // Its own name, even on a keepalive.
  assert.equal(problemOf(store, 'default', 'web-01', { metadata: { name: 'keepalive' } }), null);
});

test('a name no entity has yet is accepted (it makes a proxy entity); a stored proxy entity too', (t) => {
  const store = openStore(t);
  assert.equal(problemOf(store, 'default', 'switch-1'), null);
  store.resources.putEntity('default', 'router-1', { entity_class: 'proxy', metadata: { name: 'router-1', namespace: 'default' } });
  assert.equal(problemOf(store, 'default', 'router-1'), null);
});

test("an agent's keepalive event may not be about another entity", (t) => {
  const store = openStore(t);
  assert.equal(
    problemOf(store, 'default', 'switch-1', { metadata: { name: 'keepalive' } }),
    `check.proxy_entity_name "switch-1": an agent's keepalive event is about itself only`,
  );
});

test('a stored entity of another class than proxy is refused, naming its class', (t) => {
  const store = openStore(t);
  store.resources.putEntity('default', 'web-02', { entity_class: 'agent', metadata: { name: 'web-02', namespace: 'default' } });
  assert.equal(problemOf(store, 'default', 'web-02'), `check.proxy_entity_name "web-02" names an entity of class "agent", not a proxy entity`);
  // The same name in another namespace is another entity.
  assert.equal(problemOf(store, 'other', 'web-02'), null);
});

test('in the legacy namespace, a Sensu Go agent or a client with keepalives is refused; a proxy client is not', (t) => {
  const store = openStore(t);
  store.putClient({ name: 'agent-2', entity_class: 'agent', subscriptions: [], timestamp: 1 });
  store.putClient({ name: 'server-own', subscriptions: [], timestamp: 1 });
  store.putClient({ name: 'quiet', subscriptions: [], timestamp: 1, keepalives: false });
  store.putClient({ name: 'proxied', type: 'proxy', subscriptions: [], timestamp: 1 });
  assert.equal(problemOf(store, LEGACY, 'agent-2'), `check.proxy_entity_name "agent-2" names a Sensu Go agent, not a proxy entity`);
  assert.equal(problemOf(store, LEGACY, 'server-own'), `check.proxy_entity_name "server-own" names a client with keepalives, not a proxy entity`);
  assert.equal(problemOf(store, LEGACY, 'quiet'), null);
  assert.equal(problemOf(store, LEGACY, 'proxied'), null);
});

test('legacy clients matter only in the legacy namespace, and an invalidated one is no client', (t) => {
  const store = openStore(t);
  store.putClient({ name: 'server-own', subscriptions: [], timestamp: 1 });
  assert.equal(problemOf(store, 'default', 'server-own'), null);
  store.deleteClient('server-own', { until: null });
  assert.equal(store.getClient('server-own')?.invalidated, true, 'a tombstone is kept');
  assert.equal(problemOf(store, LEGACY, 'server-own'), null);
});
