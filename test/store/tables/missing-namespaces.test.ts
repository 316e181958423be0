// Checks stored in a namespace that does not exist, found on an open store of either engine, and how they are named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StateStore } from '../../../src/store/index.js';
import { missingNamespaceChecks, missingNamespacesMessage } from '../../../src/store/tables/missing-namespaces.js';
import { postgresStore, sqliteStore } from '../../helpers/both-engines.js';

function checksWithoutNamespace(store: StateStore): void {
  try {
    const put = (kind: string, namespace: string, name: string) =>
      store.transaction(() => store.resources.putResource(kind, namespace, name, { metadata: { name, namespace } }));
    put('CheckConfig', 'default', 'disk');
    put('Namespace', '', 'ops');
    put('CheckConfig', 'ops', 'load');
    assert.deepEqual(missingNamespaceChecks(store.db), [], 'default and existing namespaces are fine');
    put('CheckConfig', 'gone', 'cpu');
    put('CheckConfig', 'gone', 'api');
    put('CheckConfig', 'also-gone', 'mem');
    put('Handler', 'nowhere', 'mail');
    assert.deepEqual(missingNamespaceChecks(store.db), [
      { check: 'mem', namespace: 'also-gone' },
      { check: 'api', namespace: 'gone' },
      { check: 'cpu', namespace: 'gone' },
    ]);
  } finally {
    store.close();
  }
}

test('sqlite: checks in namespaces that do not exist, by namespace then name', () => checksWithoutNamespace(sqliteStore()));

test('postgres: the same checks found in the shared store', async (t) => {
  const store = await postgresStore(t, 'namespaces');
  if (store) checksWithoutNamespace(store);
});

test('the message names each check and its namespace, and what to do', () => {
  assert.equal(
    missingNamespacesMessage([
      { check: 'api', namespace: 'gone' },
      { check: 'cpu', namespace: 'gone' },
    ]),
    'checks reference namespaces that do not exist: check api in namespace gone, check cpu in namespace gone; remove those checks or recreate their namespaces',
  );
});
