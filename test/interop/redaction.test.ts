// Entity labels and annotations sent to the real Sensu Go backend and to checkbridge: every one Sensu Go serves as
// REDACTED, checkbridge does too (entities and events); checkbridge's one policy redacts a few more, named here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, ADMIN_PASSWORD } from '../helpers/instance.js';
import { backendSkipReason, startBackend, BACKEND_ADMIN_PASSWORD } from '../helpers/sensu-backend.js';

type Json = Record<string, any>;
const skip = backendSkipReason();
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

async function login(base: string, password: string): Promise<string> {
  const reply = await fetch(`${base}/auth`, { headers: { authorization: basic('admin', password) } });
  assert.equal(reply.status, 200, `${base}/auth`);
  return `Bearer ${((await reply.json()) as { access_token: string }).access_token}`;
}

async function send(base: string, auth: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const reply = await fetch(`${base}/api/core/v2/namespaces/default${path}`, {
    method,
    headers: { authorization: auth, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await reply.text();
  return { status: reply.status, body: text ? (JSON.parse(text) as Json) : {} };
}

const LABELS = { Password: 'v1', 'API-KEY': 'v2', Secret_Key: 'v3', api_key: 'v4', pass_1: 'v5', PASS1: 'v6', Community: 'v7', team: 'v8' };
const ENTITIES: Json[] = [
  { entity_class: 'proxy', metadata: { name: 'lab-default', namespace: 'default', labels: LABELS, annotations: { 'Api.Token': 'a1', note: 'a2' } } },
  {
    entity_class: 'proxy',
    redact: ['Db-Pass'],
    metadata: { name: 'lab-own', namespace: 'default', labels: { db_pass: 'w1', DBPASS: 'w2', password: 'w3', team: 'w4' } },
  },
];

/** `map.key` of every label and annotation served as REDACTED. */
const redactedIn = (entity: Json): string[] =>
  ['labels', 'annotations'].flatMap((map) =>
    Object.entries((entity.metadata?.[map] ?? {}) as Json)
      .filter(([, value]) => value === 'REDACTED')
      .map(([key]) => `${map}.${key}`),
  );

test(
  "entity labels Sensu Go serves as REDACTED are REDACTED here too, through entities and events; checkbridge's stricter extras named",
  { skip, timeout: 180_000 },
  async (t) => {
    const [backend, ours] = await Promise.all([startBackend(t), instanceFor(t, { 'conf.d/empty.json': {} })]);
    const servers = [
      { name: 'sensu-go', base: backend.api, auth: await login(backend.api, BACKEND_ADMIN_PASSWORD) },
      { name: 'checkbridge', base: ours.v2, auth: await login(ours.v2, ADMIN_PASSWORD) },
    ];
    const seen: Record<string, Record<string, string[]>> = {};
    for (const server of servers) {
      seen[server.name] = {};
      for (const entity of ENTITIES) {
        const name = String(entity.metadata.name);
        assert.ok([200, 201].includes((await send(server.base, server.auth, 'PUT', `/entities/${name}`, entity)).status), `${server.name} PUT ${name}`);
        const check = { metadata: { name: 'probe', namespace: 'default' }, status: 1, output: 'x', interval: 60 };
        assert.ok(
          [200, 201].includes((await send(server.base, server.auth, 'PUT', `/events/${name}/probe`, { entity, check })).status),
          `${server.name} event ${name}`,
        );
        const read = await send(server.base, server.auth, 'GET', `/entities/${name}`);
        assert.equal(read.status, 200);
        seen[server.name]![`entity ${name}`] = redactedIn(read.body);
        const listed = (await send(server.base, server.auth, 'GET', '/entities')).body as unknown as Json[];
        seen[server.name]![`list ${name}`] = redactedIn(listed.find((e) => e.metadata.name === name)!);
        const event = await send(server.base, server.auth, 'GET', `/events/${name}/probe`);
        assert.equal(event.status, 200);
        seen[server.name]![`event ${name}`] = redactedIn(event.body.entity);
      }
    }
    const go = seen['sensu-go']!;
    const mine = seen.checkbridge!;
    // The issue's cases, as Sensu Go serves them.
    for (const key of ['labels.Password', 'labels.API-KEY', 'labels.Secret_Key', 'labels.api_key', 'annotations.Api.Token'])
      assert.ok(go['entity lab-default']!.includes(key), `sensu-go redacts ${key}`);
    for (const key of ['labels.db_pass', 'labels.DBPASS']) assert.ok(go['entity lab-own']!.includes(key), `sensu-go redacts ${key}`);
    for (const [where, keys] of Object.entries(go)) {
      for (const key of keys) assert.ok(mine[where]!.includes(key), `${where}: sensu-go redacts ${key}, checkbridge shows it: ${JSON.stringify(mine[where])}`);
      const extra = mine[where]!.filter((key) => !keys.includes(key)).sort();
      // The legacy default keys (community), and the defaults beside an own list: the strictest policy.
      const expected = where.endsWith('lab-default') ? ['labels.Community'] : ['labels.password'];
      assert.deepEqual(extra, expected, `${where}: what checkbridge alone redacts`);
    }
  },
);
