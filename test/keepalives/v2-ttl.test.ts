// Check TTLs of v2 events (server/v2-ttl.ts), as Sensu Go's eventd: the deadline index, then the daemon.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TtlDeadlines, watchOf, ttlEventOf, type TtlWatch } from '../../src/keepalives/v2-ttl.js';
import { instanceFor, startInstance, postJson, eventually, type Instance } from '../helpers/instance.js';
import { adminToken, call, type Reply } from '../api/v2/v2-helpers.js';

const watch = (name: string, ttlS = 5): TtlWatch => ({
  key: `default\u0000e\u0000${name}`,
  namespace: 'default',
  entity: 'e',
  check: name,
  ttlS,
  eventId: name,
});

test('TTL deadlines: lapsed in deadline order, re-armed later or earlier, disarmed; one live heap entry per key', () => {
  const deadlines = new TtlDeadlines();
  deadlines.arm(watch('a'), 3000);
  deadlines.arm(watch('b'), 1000);
  deadlines.arm(watch('c'), 2000);
  deadlines.arm(watch('c'), 500);
  deadlines.disarm(watch('b').key);
  assert.deepEqual(
    deadlines.lapsed(999).map((w) => w.check),
    ['c'],
  );
  assert.deepEqual(
    deadlines.lapsed(2500).map((w) => w.check),
    [],
    'c lapsed once; b disarmed',
  );
  // A result every second for a day: the key keeps one entry in the heap, which re-queues itself when it surfaces.
  for (let at = 0; at < 86_400; at++) deadlines.arm(watch('a'), 3000 + at * 1000);
  assert.ok(deadlines.queued <= 3, `heap entries: ${deadlines.queued}`);
  assert.deepEqual(
    deadlines.lapsed(3000 + 86_398 * 1000).map((w) => w.check),
    [],
  );
  assert.deepEqual(
    deadlines.lapsed(3000 + 86_399 * 1000).map((w) => w.check),
    ['a'],
  );
  assert.equal(deadlines.size, 0);
  // laterOnly: a stored event's older deadline never moves a fresher one back.
  deadlines.arm(watch('d'), 9000);
  deadlines.arm(watch('d'), 4000, true);
  assert.deepEqual(deadlines.lapsed(8000), []);
  assert.deepEqual(
    deadlines.lapsed(9000).map((w) => w.check),
    ['d'],
  );
});

test('TTL deadlines: a check sent again and again with a far ttl then ttl 0 leaves the heap bounded, and live watches still lapse', () => {
  const deadlines = new TtlDeadlines();
  deadlines.arm(watch('live'), 5000);
  for (let i = 0; i < 100_000; i++) {
    deadlines.arm(watch('far'), 1e18);
    deadlines.disarm(watch('far').key);
  }
  assert.equal(deadlines.size, 1);
  assert.ok(deadlines.queued <= 2 * deadlines.size + 1024 + 1, `heap entries: ${deadlines.queued}`);
  assert.deepEqual(
    deadlines.lapsed(5000).map((w) => w.check),
    ['live'],
  );
  assert.equal(deadlines.size, 0);
});

test('TTL watches: keyed by entity and check (by check for round robin); ttl 0 ends one; keepalives and checkless events are not watched', () => {
  const event = (check: Record<string, unknown>) => ({ id: 'e1', entity: { metadata: { name: 'web' } }, check: { metadata: { name: 'http' }, ...check } });
  assert.deepEqual(watchOf('ns', event({ ttl: 30 })), {
    key: 'ns\u0000web\u0000http',
    watch: { key: 'ns\u0000web\u0000http', namespace: 'ns', entity: 'web', check: 'http', ttlS: 30, eventId: 'e1' },
  });
  assert.equal(watchOf('ns', event({ ttl: 30, round_robin: true }))?.key, 'ns\u0000\u0000http');
  assert.deepEqual(watchOf('ns', event({ ttl: 0 })), { key: 'ns\u0000web\u0000http', watch: null });
  assert.equal(watchOf('ns', { entity: { metadata: { name: 'web' } }, check: { metadata: { name: 'keepalive' }, ttl: 120 } }), null);
  assert.equal(watchOf('ns', { entity: { metadata: { name: 'web' } }, metrics: {} }), null);
  const stored = {
    id: 'x',
    entity: { metadata: { name: 'old' } },
    check: { metadata: { name: 'http' }, ttl: 30, executed: 100, duration: 1.5, issued: 99, output: 'fine', status: 0 },
  };
  const lapsed = ttlEventOf(stored, { metadata: { name: 'web' } }, 160);
  assert.deepEqual(
    [
      lapsed.id,
      lapsed.entity?.metadata?.name,
      lapsed.timestamp,
      lapsed.check?.output,
      lapsed.check?.status,
      lapsed.check?.executed,
      lapsed.check?.duration,
      lapsed.check?.issued,
    ],
    [undefined, 'web', 160, 'Last check execution was 60 seconds ago', 1, 160, undefined, undefined],
  );
});

import type { Json } from '../../src/json.js';

/** The v2 API of an instance, as an admin: PUT an event, GET one. */
async function v2Of(instance: Instance) {
  const auth = `Bearer ${await adminToken(instance.v2)}`;
  const ns = `${instance.v2}/api/core/v2/namespaces/default`;
  const get = (entity: string, check: string) => call(`${ns}/events/${entity}/${check}`, 'GET', auth);
  const putEvent = async (entity: string, check: Json) => {
    const reply = await call(`${ns}/events/${entity}/${check.metadata.name}`, 'PUT', auth, {
      entity: { entity_class: 'proxy', metadata: { name: entity } },
      check,
    });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
  };
  const until = async (entity: string, check: string, ok: (event: Json) => boolean): Promise<Json> => {
    const reply: Reply = await eventually(
      () => get(entity, check),
      (r) => r.status === 200 && ok(r.body),
      20_000,
    );
    if (reply.status !== 200 || !ok(reply.body)) throw new Error(`event ${entity}/${check} never matched: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body;
  };
  return { auth, ns, get, putEvent, until };
}

const lapsed = (event: Json) => /^Last check execution was \d+ seconds ago$/.test(event.check.output);
const CONF = { 'conf.d/config.json': { client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] }, checkbridge: { monitor_interval: 3600 } } };

test(
  'a v2 event with a ttl whose results stop: the TTL event follows, handled, again each ttl; a result without ttl ends it',
  { timeout: 90_000 },
  async (t) => {
    const instance = await instanceFor(t, CONF);
    const v2 = await v2Of(instance);
    const out = join(instance.root, 'handled.json');
    assert.equal((await call(`${v2.ns}/handlers/record`, 'PUT', v2.auth, { type: 'pipe', command: `cat >> ${out}; echo >> ${out}`, timeout: 10 })).status, 201);
    await v2.putEvent('web-1', {
      metadata: { name: 'http' },
      status: 0,
      output: 'fine',
      interval: 1,
      ttl: 5,
      executed: Math.floor(Date.now() / 1000),
      handlers: ['record'],
    });

    const first = await v2.until('web-1', 'http', lapsed);
    assert.deepEqual([first.check.status, first.check.state, first.check.ttl], [1, 'failing', 5]);
    // Re-armed: it keeps reporting while no result comes, each one a failing entry of the history.
    const second = await v2.until('web-1', 'http', (e) => lapsed(e) && e.check.history.filter((h: Json) => h.status === 1).length >= 2);
    assert.deepEqual(second.check.history.map((h: Json) => h.status).slice(0, 3), [0, 1, 1]);
    // Handled like any event: the check's handler received the TTL event.
    const handled = await eventually(
      async () => (existsSync(out) ? readFileSync(out, 'utf8') : ''),
      (text) => /Last check execution was/.test(text),
      20_000,
    );
    assert.match(handled, /Last check execution was/);

    // A result without a ttl ends the watch: another check's TTL event comes and goes, this one stays as posted.
    await v2.putEvent('web-1', { metadata: { name: 'http' }, status: 0, output: 'back, no ttl', interval: 1, executed: Math.floor(Date.now() / 1000) });
    await v2.putEvent('web-2', { metadata: { name: 'witness' }, status: 0, output: 'fine', interval: 1, ttl: 5, executed: Math.floor(Date.now() / 1000) });
    await v2.until('web-2', 'witness', lapsed);
    assert.equal((await v2.get('web-1', 'http')).body.check.output, 'back, no ttl');
  },
);

test('TTL of v2 events: a deleted entity, a failing keepalive and a legacy result raise none (a later watch lapses first)', { timeout: 90_000 }, async (t) => {
  const instance = await instanceFor(t, CONF);
  const v2 = await v2Of(instance);
  const nowS = () => Math.floor(Date.now() / 1000);
  // A legacy result with a ttl is the legacy monitor's (off here: monitor_interval 3600); its v2 copy is not watched.
  assert.equal((await postJson(`${instance.api}/results`, { source: 'legacy-1', name: 'disk', output: 'ok', status: 0, ttl: 5, interval: 1 })).status, 202);
  // An entity whose legacy keepalive event is failing: no TTL event, as legacy.
  assert.equal(
    (
      await postJson(`${instance.api}/results`, {
        source: 'down-1',
        name: 'keepalive',
        output: 'No keepalive sent from client for 200 seconds (>=180)',
        status: 2,
      })
    ).status,
    202,
  );
  await v2.putEvent('down-1', { metadata: { name: 'http' }, status: 0, output: 'as posted', interval: 1, ttl: 5, executed: nowS() });
  // A deleted entity: its watch ends.
  await v2.putEvent('gone-1', { metadata: { name: 'http' }, status: 0, output: 'as posted', interval: 1, ttl: 5, executed: nowS() });
  assert.equal((await call(`${v2.ns}/entities/gone-1`, 'DELETE', v2.auth)).status, 204);
  await v2.putEvent('witness-1', { metadata: { name: 'http' }, status: 0, output: 'fine', interval: 1, ttl: 8, executed: nowS() });

  await v2.until('witness-1', 'http', lapsed);
  const legacy = await call(`${instance.v2}/api/core/v2/namespaces/default/events/legacy-1/disk`, 'GET', v2.auth);
  assert.deepEqual([legacy.status, legacy.body.check.output, legacy.body.check.history.length], [200, 'ok', 1]);
  assert.equal((await v2.get('down-1', 'http')).body.check.output, 'as posted');
  // An entity goes with its events (as Sensu Go), and no TTL event brings either back as a proxy.
  assert.equal((await v2.get('gone-1', 'http')).status, 404);
  assert.equal((await call(`${v2.ns}/entities/gone-1`, 'GET', v2.auth)).status, 404);
  assert.deepEqual([...new Set(instance.daemon.logs.filter((l) => l.msg === 'check TTL expired').map((l) => l.entity))], ['witness-1']);
});

test('TTL of v2 events after a restart: the stored event is watched again and lapses', { timeout: 90_000 }, async (t) => {
  const first = await instanceFor(t, CONF);
  const v2 = await v2Of(first);
  await v2.putEvent('web-1', { metadata: { name: 'http' }, status: 0, output: 'fine', interval: 1, ttl: 5, executed: Math.floor(Date.now() / 1000) });
  // A legacy result's v2 copy carries its ttl too; it stays the legacy monitor's.
  assert.equal((await postJson(`${first.api}/results`, { source: 'legacy-1', name: 'disk', output: 'ok', status: 0, ttl: 5, interval: 1 })).status, 202);
  await first.daemon.stop('SIGTERM');
  const second = await startInstance(first.root);
  t.after(() => second.daemon.stop('SIGKILL'));
  const again = await v2Of(second);
  const event = await again.until('web-1', 'http', lapsed);
  assert.equal(event.check.status, 1);
  assert.ok(
    second.daemon.logs.some((l) => l.msg === 'check TTLs of v2 events watched' && l.watched === 1),
    "the v2 event's watch came from the store, not the legacy result's",
  );
});
