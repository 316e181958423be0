import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { legacyScope } from '../../../src/api/legacy/scope.js';
import { sqliteStore } from '../../helpers/sqlite-store.js';
import { settingsOf } from '../../helpers/settings.js';

const CLIENT = { name: 'cb-host', address: '127.0.0.1', subscriptions: [] };
const API = { user: 'admin', password: 'secret' };

// A legacy client, an agent of the legacy namespace (team-a) and one of another namespace (team-b).
function storeWithClients(t: TestContext) {
  const store = sqliteStore(t);
  store.putClient({ name: 'legacy-1', address: '10.0.0.1', subscriptions: [] });
  store.putClient({ name: 'agent-home', entity_class: 'agent', namespace: 'team-a', subscriptions: [] });
  store.putClient({ name: 'agent-away', entity_class: 'agent', namespace: 'team-b', subscriptions: [] });
  return store;
}

const items = [{ client: 'legacy-1' }, { client: 'agent-home' }, { client: 'agent-away' }, { client: 'no-record' }];

test('legacy scope: legacy clients and agents of checkbridge.namespace are shown, an agent of another namespace is hidden', (t) => {
  const store = storeWithClients(t);
  const scope = legacyScope(store, settingsOf({ client: CLIENT, checkbridge: { namespace: 'team-a' } }));
  assert.deepEqual(
    store.listClients().map((c) => [c.name, scope.shows(c)]),
    [
      ['agent-away', false],
      ['agent-home', true],
      ['legacy-1', true],
    ],
  );
  assert.deepEqual(
    ['legacy-1', 'agent-home', 'agent-away', 'no-record'].map((name) => scope.hides(name)),
    [false, false, true, false],
  );
  assert.deepEqual(
    scope.filter(items, (item) => item.client).map((item) => item.client),
    ['legacy-1', 'agent-home', 'no-record'],
  );
});

test('legacy scope: without checkbridge.namespace the legacy namespace is default', (t) => {
  const store = storeWithClients(t);
  store.putClient({ name: 'agent-default', entity_class: 'agent', namespace: 'default', subscriptions: [] });
  const scope = legacyScope(store, settingsOf({ client: CLIENT }));
  assert.deepEqual(
    ['agent-default', 'agent-home', 'agent-away'].map((name) => scope.hides(name)),
    [false, true, true],
  );
});

test('legacy scope: legacy_api_all_namespaces shows every agent, but only with api credentials configured', (t) => {
  const store = storeWithClients(t);
  const all = legacyScope(store, settingsOf({ client: CLIENT, api: API, checkbridge: { namespace: 'team-a', legacy_api_all_namespaces: true } }));
  assert.equal(all.hides('agent-away'), false);
  assert.equal(all.filter(items, (item) => item.client).length, 4);
  const open = legacyScope(store, settingsOf({ client: CLIENT, checkbridge: { namespace: 'team-a', legacy_api_all_namespaces: true } }));
  assert.equal(open.hides('agent-away'), true, 'nobody authenticates to an instance without api credentials');
});

test('legacy scope: a list with no hidden client is returned as it is', (t) => {
  const store = sqliteStore(t);
  store.putClient({ name: 'legacy-1', address: '10.0.0.1', subscriptions: [] });
  const scope = legacyScope(store, settingsOf({ client: CLIENT }));
  assert.equal(
    scope.filter(items, (item) => item.client),
    items,
  );
  const empty: { client: string }[] = [];
  assert.equal(
    scope.filter(empty, (item) => item.client),
    empty,
  );
});
