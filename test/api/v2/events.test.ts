import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startInstance, eventually } from '../../helpers/instance.js';
import { makeTree, removeTree, writeTree } from '../../helpers/tree.js';
import { tcpExchange } from '../../helpers/net.js';
import { adminToken, call } from './v2-helpers.js';

test('v2 events: CRUD with the minimum payloads, proxy entities, store update, selectors, pagination, pipelines, legacy events', async (t) => {
  const root = makeTree({});
  // 250 proxy entities below: past the unlicensed limit of 100, so this instance raises it.
  writeTree(root, { 'conf.d/client.json': { client: { name: 'agent-1', address: '127.0.0.1', subscriptions: ['linux'] }, checkbridge: { entity_limit: 0 } } });
  const { daemon, v2, socket } = await startInstance(root);
  t.after(async () => {
    await daemon.stop('SIGKILL');
    removeTree(root);
  });
  const auth = `Bearer ${await adminToken(v2)}`;
  const ns = `${v2}/api/core/v2/namespaces/default`;
  const put = (entity: string, check: string, body: unknown) => call(`${ns}/events/${entity}/${check}`, 'PUT', auth, body);
  const get = (path: string) => call(`${ns}${path}`, 'GET', auth);

  // PUT minimum payload: entity class and name, check name and interval.
  const minimum = {
    entity: { entity_class: 'proxy', metadata: { name: 'server1' } },
    check: { metadata: { name: 'server-health' }, interval: 60, status: 1, output: 'degraded' },
  };
  const created = await put('server1', 'server-health', minimum);
  assert.equal(created.status, 201);
  assert.equal(created.body, null, '201 with an empty body');
  const event = (await get('/events/server1/server-health')).body;
  assert.deepEqual(Object.keys(event), ['check', 'entity', 'id', 'metadata', 'pipelines', 'sequence', 'timestamp'], 'sorted top-level keys');
  assert.match(event.id, /^[0-9a-f-]{36}$/);
  assert.deepEqual(
    [event.check.state, event.check.status, event.check.occurrences, event.check.occurrences_watermark, event.check.last_ok],
    ['failing', 1, 1, 1, 0],
  );
  assert.deepEqual(event.check.history, [{ status: 1, executed: 0 }]);
  assert.deepEqual(
    [event.check.handlers, event.check.subscriptions, event.check.pipelines, event.check.runtime_assets, event.check.subdue],
    [[], [], [], null, null],
  );
  assert.equal(event.entity.sensu_agent_version, '');
  assert.equal(event.entity.metadata.namespace, 'default', 'namespace from the URL');
  assert.deepEqual(event.entity.subscriptions, ['entity:server1'], 'a proxy entity was created');
  assert.equal(event.entity.metadata.created_by, 'admin');

  // Updates: history grows, occurrences count, OK sets last_ok from executed and passing.
  await put('server1', 'server-health', { ...minimum, check: { ...minimum.check, executed: 100 } });
  await put('server1', 'server-health', { ...minimum, check: { ...minimum.check, status: 0, executed: 200, output: 'fine' } });
  const updated = (await get('/events/server1/server-health')).body;
  assert.deepEqual(
    updated.check.history.map((h: { status: number }) => h.status),
    [1, 1, 0],
  );
  assert.deepEqual([updated.check.state, updated.check.last_ok, updated.check.occurrences], ['passing', 200, 1]);
  assert.equal(updated.id, event.id === updated.id ? event.id : updated.id);

  // An existing entity is never changed by an event.
  await put('server1', 'disk', {
    entity: { entity_class: 'proxy', metadata: { name: 'server1', labels: { region: 'mars' } }, subscriptions: ['evil'] },
    check: { metadata: { name: 'disk' }, interval: 30, status: 2 },
  });
  const disk = (await get('/events/server1/disk')).body;
  assert.deepEqual(disk.entity.subscriptions, ['entity:server1']);
  assert.equal(disk.entity.metadata.labels, undefined);

  // POST collection, then errors.
  assert.equal(
    (
      await call(`${ns}/events`, 'POST', auth, {
        entity: { entity_class: 'proxy', metadata: { name: 'web-1' } },
        check: { metadata: { name: 'http' }, status: 2, output: 'down', interval: 10 },
        pipelines: [],
      })
    ).status,
    201,
  );
  const bad = async (method: string, url: string, body: unknown, message: RegExp) => {
    const reply = await call(url, method, auth, body);
    assert.equal(reply.status, 400, `${method} ${url} ${JSON.stringify(body)}`);
    assert.equal(reply.body.code, 1);
    assert.match(reply.body.message, message);
  };
  await bad('POST', `${ns}/events`, '{"entity":', /JSON|Unexpected|json/i);
  await bad('POST', `${ns}/events`, { check: { metadata: { name: 'x' } } }, /event must contain an entity/);
  await bad('POST', `${ns}/events`, { entity: { metadata: {} }, check: { metadata: { name: 'x' } } }, /entity is invalid: entity name must not be empty/);
  await bad(
    'PUT',
    `${ns}/events/a/b`,
    { entity: { entity_class: 'proxy', metadata: { name: 'a' } }, check: { metadata: { name: 'b' }, publish: true } },
    /^check is invalid: check interval must be greater than or equal to 1$/,
  );
  await bad(
    'PUT',
    `${ns}/events/a/b`,
    { entity: { metadata: { name: 'a', namespace: 'other' } }, check: { metadata: { name: 'b' }, interval: 1 } },
    /does not match the namespace of the URI/,
  );
  await bad(
    'PUT',
    `${ns}/events/a/b`,
    { entity: { metadata: { name: 'zzz' } }, check: { metadata: { name: 'b' }, interval: 1 } },
    /does not match the name of the URI/,
  );
  await bad(
    'PUT',
    `${ns}/events/a/b`,
    {
      entity: { metadata: { name: 'a' } },
      check: { metadata: { name: 'b' }, interval: 1 },
      pipelines: [{ api_version: 'core/v2', type: 'Handler', name: 'x' }],
    },
    /not capable of acting as a pipeline/,
  );
  await bad(
    'PUT',
    `${ns}/events/a/b`,
    { entity: { metadata: { name: 'a b' } }, check: { metadata: { name: 'b' }, interval: 1 } },
    /does not match|name must match/,
  );
  assert.equal((await get('/events/nope/nope')).status, 404);
  assert.deepEqual((await get('/events/nope/nope')).body, { message: 'not found', code: 2 });
  assert.deepEqual((await get('/events/nobody')).body, []);

  // Selectors on the event's fields.
  const names = async (query: string, path = `${ns}/events`) => {
    const reply = await call(`${path}?${query}`, 'GET', auth);
    assert.equal(reply.status, 200, `${query}: ${JSON.stringify(reply.body)}`);
    return (reply.body as any[]).map((e) => `${e.entity.metadata.name}/${e.check.metadata.name}`).sort();
  };
  assert.deepEqual(await names(`fieldSelector=${encodeURIComponent('event.check.status == 2')}`), ['server1/disk', 'web-1/http']);
  assert.deepEqual(await names(`fieldSelector=${encodeURIComponent('event.entity.entity_class == proxy && event.entity.name != server1')}`), ['web-1/http']);
  assert.deepEqual(await names(`fieldSelector=${encodeURIComponent('event.check.name in [disk, http]')}`), ['server1/disk', 'web-1/http']);
  assert.deepEqual(
    await names(
      `fieldSelector=${encodeURIComponent('event.check.name notin [disk, http]')}&fieldSelector=${encodeURIComponent('event.entity.entity_class == proxy')}`,
    ),
    ['server1/server-health'],
  );
  assert.deepEqual(await names(`fieldSelector=${encodeURIComponent('"entity:web-1" in event.entity.subscriptions')}`, `${v2}/api/core/v2/events`), [
    'web-1/http',
  ]);
  assert.deepEqual(await names(`fieldSelector=${encodeURIComponent('event.check.name matches health')}`), ['server1/server-health']);
  assert.equal((await call(`${ns}/events?fieldSelector=${encodeURIComponent('event.check.name=disk')}`, 'GET', auth)).status, 400);

  // Pagination over hundreds of events.
  for (let i = 0; i < 250; i++)
    await put(`bulk-${String(i).padStart(3, '0')}`, 'ping', {
      entity: { entity_class: 'proxy', metadata: { name: `bulk-${String(i).padStart(3, '0')}` } },
      check: { metadata: { name: 'ping' }, interval: 10, status: 0 },
    });
  const seen: string[] = [];
  let token: string | null = '';
  let pages = 0;
  while (token !== null) {
    const page = await call(
      `${ns}/events?limit=100${token ? `&continue=${token}` : ''}&fieldSelector=${encodeURIComponent('event.check.name == ping')}`,
      'GET',
      auth,
    );
    seen.push(...(page.body as any[]).map((e) => e.entity.metadata.name));
    token = page.headers.get('sensu-continue');
    pages++;
  }
  assert.equal(pages, 3);
  assert.equal(seen.length, 250);
  assert.equal(new Set(seen).size, 250, 'no event twice');

  // A pipeline with a real pipe handler receives the created event on stdin.
  const out = join(root, 'pipeline.json');
  assert.equal((await call(`${ns}/handlers/record`, 'PUT', auth, { type: 'pipe', command: `cat > ${out}`, timeout: 10 })).status, 201);
  assert.equal(
    (
      await call(`${ns}/pipelines/incidents`, 'PUT', auth, {
        workflows: [
          {
            name: 'record',
            filters: [{ name: 'is_incident', type: 'EventFilter', api_version: 'core/v2' }],
            handler: { name: 'record', type: 'Handler', api_version: 'core/v2' },
          },
        ],
      })
    ).status,
    201,
  );
  assert.equal((await call(`${ns}/handlers/record`, 'GET', auth)).body.command, `cat > ${out}`);
  await put('web-2', 'http', {
    entity: { entity_class: 'proxy', metadata: { name: 'web-2' } },
    check: { metadata: { name: 'http' }, interval: 10, status: 2, output: 'pipeline me' },
    pipelines: [{ api_version: 'core/v2', type: 'Pipeline', name: 'incidents' }],
  });
  const delivered = await eventually(
    async () => {
      try {
        return JSON.parse(readFileSync(out, 'utf8'));
      } catch {
        return null;
      }
    },
    (e) => e !== null,
  );
  assert.equal(delivered.check.output, 'pipeline me');
  assert.equal(delivered.entity.metadata.name, 'web-2');
  assert.equal((await call(`${ns}/handlers`, 'POST', auth, { metadata: { name: 'record' }, type: 'pipe', command: 'true' })).status, 409);
  assert.equal((await call(`${ns}/handlers/bad`, 'PUT', auth, { type: 'pipe' })).status, 400);

  // A legacy result through the socket is visible as a v2 event.
  assert.equal(await tcpExchange(socket, JSON.stringify({ name: 'legacy_check', output: 'from the socket', status: 2 })), 'ok');
  const legacy = (await get('/events/agent-1/legacy_check')).body;
  assert.deepEqual([legacy.check.output, legacy.check.status, legacy.check.state, legacy.entity.entity_class], ['from the socket', 2, 'failing', 'agent']);
  assert.equal(legacy.check.history.length, 1);
  assert.ok(legacy.check.history[0].executed > 0);
  assert.ok(legacy.entity.subscriptions.includes('entity:agent-1'));

  // Delete.
  assert.equal((await call(`${ns}/events/server1/disk`, 'DELETE', auth)).status, 204);
  assert.equal((await call(`${ns}/events/server1/disk`, 'DELETE', auth)).status, 404);
});
