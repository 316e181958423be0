// The whole settings (`GET /settings?redacted=false`) only to a caller who authenticated.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, getJson } from '../helpers/instance.js';

const SECRET = 'broker-pw-S3CRET';
const basic = (user: string, password: string) => ({ authorization: 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64') });
const files = (extra: object = {}) => ({
  'conf.d/client.json': { client: { name: 'settings-host', address: '127.0.0.1', subscriptions: [], http_socket: { user: 'agent', password: 'agent-pw' } } },
  'conf.d/transport.json': {
    rabbitmq: { host: '127.0.0.1', password: SECRET },
    bridge: { url: 'http://127.0.0.1:9', api_key: `key-${SECRET}`, namespace: 'default' },
    ...extra,
  },
});

test('legacy API without api.user: /settings is redacted, ?redacted=false is 403 with the reason, whoever asks', async (t) => {
  const { api, agent } = await instanceFor(t, files());
  const plain = await getJson(`${api}/settings`);
  assert.equal(plain.status, 200);
  assert.doesNotMatch(JSON.stringify(plain.body), /S3CRET/);
  for (const query of ['redacted=false', 'REDACTED=FALSE', 'x=1&redacted=false']) {
    const refused = await fetch(`${api}/settings?${query}`, { headers: { origin: 'http://evil.example' } });
    const text = await refused.text();
    assert.equal(refused.status, 403, query);
    assert.doesNotMatch(text, /S3CRET/, query);
    assert.match(refused.headers.get('x-checkbridge-error') ?? '', /redacted=false needs api\.user and api\.password/);
  }
  // Credentials that nothing checks change nothing.
  assert.equal((await getJson(`${api}/settings?redacted=false`, { headers: basic('admin', 'guess') })).status, 403);
  // The agent API's /settings always needs its http_socket credentials (legacy): no way round them either.
  assert.equal((await getJson(`${agent}/settings?redacted=false`)).status, 401);
  assert.equal((await getJson(`${agent}/settings?redacted=false`, { headers: basic('agent', 'wrong') })).status, 401);
  const own = await getJson(`${agent}/settings?redacted=false`, { headers: basic('agent', 'agent-pw') });
  assert.equal(own.status, 200);
  assert.equal(own.body.rabbitmq.password, SECRET);
});

test('legacy API with api.user and api.password: ?redacted=false answers the authenticated caller only', async (t) => {
  const { api } = await instanceFor(t, files({ api: { user: 'ops', password: 'ops-pw' } }));
  assert.equal((await getJson(`${api}/settings?redacted=false`)).status, 401);
  assert.equal((await getJson(`${api}/settings?redacted=false`, { headers: basic('ops', 'nope') })).status, 401);
  const whole = await getJson(`${api}/settings?redacted=false`, { headers: basic('ops', 'ops-pw') });
  assert.equal(whole.status, 200);
  assert.equal(whole.body.rabbitmq.password, SECRET);
  assert.equal(whole.body.bridge.api_key, `key-${SECRET}`);
  assert.equal((await getJson(`${api}/settings`, { headers: basic('ops', 'ops-pw') })).body.rabbitmq.password, 'REDACTED');
});
