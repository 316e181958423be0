import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor } from '../../helpers/instance.js';

// Every route of the legacy API, by path: the methods a 405 names in `Allow`, in the order the routes were added.
const ROUTES: Record<string, string> = {
  '/info': 'GET, HEAD',
  '/bridge': 'GET, HEAD',
  '/bridge/dead_letters': 'GET, HEAD',
  '/health': 'GET, HEAD',
  '/settings': 'GET, HEAD',
  '/clients': 'GET, HEAD, POST',
  '/clients/web-1': 'GET, HEAD, DELETE',
  '/clients/web-1/history': 'GET, HEAD',
  '/checks': 'GET, HEAD',
  '/checks/disk': 'GET, HEAD, DELETE',
  '/request': 'POST',
  '/events': 'GET, HEAD',
  '/incidents': 'GET, HEAD',
  '/events/web-1': 'GET, HEAD',
  '/events/web-1/disk': 'DELETE, GET, HEAD',
  '/resolve': 'POST',
  '/results': 'GET, HEAD, POST',
  '/results/web-1': 'GET, HEAD',
  '/results/web-1/disk': 'GET, HEAD, DELETE',
  '/silenced': 'POST, GET, HEAD',
  '/silenced/subscriptions/client:web-1': 'GET, HEAD',
  '/silenced/checks/disk': 'GET, HEAD',
  '/silenced/ids/*:disk': 'GET, HEAD',
  '/silenced/clear': 'POST',
  '/aggregates': 'GET, HEAD',
  '/aggregates/web': 'GET, HEAD, DELETE',
  '/aggregates/web/clients': 'GET, HEAD',
  '/aggregates/web/checks': 'GET, HEAD',
  '/aggregates/web/results/critical': 'GET, HEAD',
  '/stashes': 'GET, HEAD, POST',
  '/stashes/a/b': 'GET, HEAD, POST, DELETE',
  '/stash/a/b': 'GET, HEAD, POST, DELETE',
};

test('legacy API route table: every resource path answers a method it lacks with 405 and the same Allow; others 404', async (t) => {
  const { api } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'web-1', address: '127.0.0.1', subscriptions: [] } } });
  const answers: Record<string, string> = {};
  for (const path of Object.keys(ROUTES)) {
    const response = await fetch(`${api}${path}`, { method: 'PUT' });
    await response.arrayBuffer();
    answers[path] = `${response.status} ${response.headers.get('allow')}`;
  }
  assert.deepEqual(answers, Object.fromEntries(Object.entries(ROUTES).map(([path, allow]) => [path, `405 ${allow}`])));
  for (const path of ['/client', '/events/web-1/disk/extra', '/checks/disk/history', '/stash']) {
    const response = await fetch(`${api}${path}`, { method: 'PUT' });
    await response.arrayBuffer();
    assert.equal(response.status, 404, path);
  }
});
