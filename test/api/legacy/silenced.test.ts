import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, getJson as get, postJson as post } from '../../helpers/instance.js';
import { tcpExchange } from '../../helpers/net.js';

const client = { name: 'i-424242', address: '127.0.0.1', subscriptions: ['test'] };

test('silenced routes: create, list, lookups, clear, validation; events carry silenced_by in legacy order', async (t) => {
  const { api, socket } = await instanceFor(t, { 'conf.d/client.json': { client } });

  // Entries test:*, *:test, test:test give ["test:*","test:test","*:test"].
  for (const body of [{ subscription: 'test' }, { check: 'test' }, { subscription: 'test', check: 'test', reason: 'deploy', creator: 'ops' }]) {
    const created = await post(`${api}/silenced`, body);
    assert.equal(created.status, 201);
    assert.equal(created.body, null, '201 has no body');
  }
  assert.equal(await tcpExchange(socket, '{"name":"test","output":"down","status":2}'), 'ok');
  const event = (await get(`${api}/events/i-424242/test`)).body;
  assert.equal(event.silenced, true);
  assert.deepEqual(event.silenced_by, ['test:*', 'test:test', '*:test']);

  const all = (await get(`${api}/silenced`)).body as Record<string, unknown>[];
  assert.deepEqual(all.map((e) => e.id).sort(), ['*:test', 'test:*', 'test:test']);
  const entry = all.find((e) => e.id === 'test:test')!;
  assert.equal(entry.reason, 'deploy');
  assert.equal(entry.creator, 'ops');
  assert.equal(entry.expire, -1);
  assert.equal(entry.expire_on_resolve, false);
  assert.equal(entry.begin, null);

  assert.deepEqual(((await get(`${api}/silenced/subscriptions/test`)).body as { id: string }[]).map((e) => e.id).sort(), ['test:*', 'test:test']);
  assert.deepEqual(((await get(`${api}/silenced/checks/test`)).body as { id: string }[]).map((e) => e.id).sort(), ['*:test', 'test:test']);
  assert.equal((await get(`${api}/silenced/ids/test:test`)).body.id, 'test:test');
  assert.equal((await get(`${api}/silenced/ids/*:test`)).body.id, '*:test');
  assert.equal((await get(`${api}/silenced/ids/nope:nope`)).status, 404);
  assert.equal((await get(`${api}/silenced/ids/in$valid`)).status, 404);

  // Expiry with a future begin: TTL is expire + (begin - now).
  const now = Math.floor(Date.now() / 1000);
  assert.equal((await post(`${api}/silenced`, { subscription: 'roundrobin:load_balancer', begin: now + 60, expire: 3600 })).status, 201);
  const scheduled = (await get(`${api}/silenced/ids/roundrobin:load_balancer:*`)).body;
  assert.ok(scheduled.expire >= 3655 && scheduled.expire <= 3660, `expire ${scheduled.expire}`);
  assert.equal((await get(`${api}/silenced/subscriptions/client:i-424242`)).status, 200);

  for (const bad of [
    {},
    { subscription: '*' },
    { subscription: 'a b' },
    { check: 'a/b' },
    { check: 'x', expire: 'soon' },
    { check: 'x', reason: 1 },
    { check: 'x', creator: [] },
    { check: 'x', expire_on_resolve: 'yes' },
    { check: 'x', begin: 'now' },
    [1],
    'text',
  ]) {
    assert.equal((await post(`${api}/silenced`, bad)).status, 400, JSON.stringify(bad));
  }
  // As in legacy, a null subscription gives an id with an empty part.
  assert.equal((await post(`${api}/silenced`, { subscription: null, check: 'nullsub' })).status, 201);
  assert.equal((await get(`${api}/silenced/ids/:nullsub`)).body.id, ':nullsub');

  assert.equal((await post(`${api}/silenced/clear`, { subscription: 'test', check: 'test' })).status, 204);
  assert.equal((await post(`${api}/silenced/clear`, { subscription: 'test', check: 'test' })).status, 404);
  assert.equal((await post(`${api}/silenced/clear`, { id: '*:test' })).status, 204);
  assert.equal((await post(`${api}/silenced/clear`, {})).status, 400);

  const page = await get(`${api}/silenced?limit=1`);
  assert.equal((page.body as unknown[]).length, 1);
  assert.ok(page.headers.get('x-pagination'));
});

test('silencing across a sequence: expire_on_resolve consumed by the resolve, future begin does not silence, expiry ends it', async (t) => {
  const { api, socket } = await instanceFor(t, { 'conf.d/client.json': { client } });
  const send = (status: number, name = 'disk') => tcpExchange(socket, JSON.stringify({ name, output: `s${status}`, status }));
  assert.equal((await post(`${api}/silenced`, { check: 'disk', expire_on_resolve: true })).status, 201);
  await send(2);
  assert.deepEqual((await get(`${api}/events/i-424242/disk`)).body.silenced_by, ['*:disk']);
  await send(0);
  assert.equal((await get(`${api}/silenced/ids/*:disk`)).status, 404, 'the resolve consumed the entry');
  await send(2);
  assert.equal((await get(`${api}/events/i-424242/disk`)).body.silenced, false);

  const now = Math.floor(Date.now() / 1000);
  assert.equal((await post(`${api}/silenced`, { check: 'cpu', begin: now + 3600 })).status, 201);
  await send(2, 'cpu');
  assert.equal((await get(`${api}/events/i-424242/cpu`)).body.silenced, false, 'a future begin does not silence yet');

  assert.equal((await post(`${api}/silenced`, { check: 'mem', expire: 1 })).status, 201);
  await send(2, 'mem');
  assert.equal((await get(`${api}/events/i-424242/mem`)).body.silenced, true);
  await new Promise((r) => setTimeout(r, 2100));
  assert.equal((await get(`${api}/silenced/ids/*:mem`)).status, 404, 'expired');
  await send(2, 'mem');
  assert.equal((await get(`${api}/events/i-424242/mem`)).body.silenced, false);
});

test('silencing in one large group commit: each result sees its entries, a resolve consumes its entry for the results after it', async (t) => {
  const { api, socket } = await instanceFor(t, { 'conf.d/client.json': { client } });
  const batch = (statuses: Record<string, number>) =>
    tcpExchange(socket, JSON.stringify(Array.from({ length: 20 }, (_, i) => ({ name: `c${i}`, output: 'x', status: statuses[`c${i}`] ?? 2 }))));
  // An empty silences table: nothing silenced in a whole group.
  assert.equal(await batch({}), 'ok');
  assert.equal((await get(`${api}/events/i-424242/c1`)).body.silenced, false);
  assert.equal((await post(`${api}/silenced`, { subscription: 'test', check: 'c1' })).status, 201);
  assert.equal((await post(`${api}/silenced`, { check: 'c2', expire_on_resolve: true })).status, 201);
  assert.equal(await batch({}), 'ok');
  const events = (await get(`${api}/events`)).body as { check: { name: string }; silenced_by: string[] }[];
  const silencedBy = Object.fromEntries(events.map((e) => [e.check.name, e.silenced_by]));
  assert.deepEqual(silencedBy.c1, ['test:c1']);
  assert.deepEqual(silencedBy.c2, ['*:c2']);
  assert.deepEqual(silencedBy.c3, []);
  // The resolve of c2 in a group consumes `*:c2`; the next group's c2 is no longer silenced.
  assert.equal(await batch({ c2: 0 }), 'ok');
  assert.equal((await get(`${api}/silenced/ids/*:c2`)).status, 404, 'the resolve consumed the entry');
  assert.equal(await batch({}), 'ok');
  assert.equal((await get(`${api}/events/i-424242/c2`)).body.silenced, false);
  assert.equal((await get(`${api}/events/i-424242/c1`)).body.silenced, true);
});
