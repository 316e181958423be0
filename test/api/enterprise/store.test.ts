// The PostgresConfig list and health that need no PostgreSQL: paging, and a configuration whose DSN does not parse.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, getJson } from '../../helpers/instance.js';
import { adminToken, call } from '../v2/v2-helpers.js';

const config = (name: string, dsn: string) => ({ type: 'PostgresConfig', api_version: 'store/v1', metadata: { name }, spec: { dsn, strict: false } });

test('PostgresConfig: the list pages like every other; a DSN that does not parse is reported unhealthy with the reason', async (t) => {
  const { v2 } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'pg-host', address: '127.0.0.1', subscriptions: [] } } });
  const auth = `Bearer ${await adminToken(v2)}`;
  const provider = `${v2}/api/enterprise/store/v1/provider`;
  assert.equal((await call(`${provider}/c-url`, 'PUT', auth, config('c-url', 'postgres://[not-a-host'))).status, 201);
  assert.equal((await call(`${provider}/a-pairs`, 'PUT', auth, config('a-pairs', "host='unterminated"))).status, 201);
  assert.equal((await call(`${provider}/b-mode`, 'PUT', auth, config('b-mode', 'host=db sslmode=sometimes'))).status, 201);

  // limit/continue and fieldSelector, as the other lists.
  const first = await call(`${provider}?limit=2`, 'GET', auth);
  assert.deepEqual(
    first.body.map((c: { metadata: { name: string } }) => c.metadata.name),
    ['a-pairs', 'b-mode'],
  );
  const token = first.headers.get('sensu-continue');
  assert.ok(token, 'a continue token');
  const rest = await call(`${provider}?limit=2&continue=${token}`, 'GET', auth);
  assert.deepEqual(
    rest.body.map((c: { metadata: { name: string } }) => c.metadata.name),
    ['c-url'],
  );
  assert.equal(rest.headers.get('sensu-continue'), null);
  const selected = await call(`${provider}?fieldSelector=${encodeURIComponent('provider.name == b-mode')}`, 'GET', auth);
  assert.deepEqual(
    selected.body.map((c: { metadata: { name: string } }) => c.metadata.name),
    ['b-mode'],
  );

  // Stored, unusable: each is in PostgresHealth, neither active nor healthy, with why.
  const health = (await getJson(`${v2}/health`)).body.PostgresHealth as { Name: string; Active: boolean; Healthy: boolean; Err: string }[];
  assert.deepEqual(
    health.map((h) => [h.Name, h.Active, h.Healthy]),
    [
      ['a-pairs', false, false],
      ['b-mode', false, false],
      ['c-url', false, false],
    ],
  );
  assert.match(health[0]!.Err, /dsn: cannot read the keyword\/value pair at character/);
  assert.match(health[1]!.Err, /sslmode sometimes is not one of/);
  assert.match(health[2]!.Err, /dsn: not a valid postgres:\/\/ URL/);
  assert.equal((await call(`${provider}/b-mode`, 'DELETE', auth)).status, 204);
  assert.deepEqual(
    ((await getJson(`${v2}/health`)).body.PostgresHealth as { Name: string }[]).map((h) => h.Name),
    ['a-pairs', 'c-url'],
  );
});
