import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { instanceFor } from '../helpers/instance.js';
import { healthWhile } from '../helpers/liveness.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';
import { PROTOTYPE_NAMES, BAD_STATUSES, MAX_STATUS, LONGEST_NAME, TOO_LONG_NAME, nested } from '../helpers/hostile-inputs.js';

const config = { 'conf.d/a.json': { client: { name: 'adv', address: '127.0.0.1', subscriptions: [] } } };
const eventText = (entity: string, check: string, status: string, extra = '') =>
  `{"entity":{"entity_class":"proxy","metadata":{"name":"${entity}"}},"check":{"metadata":{"name":"${check}"},"publish":false,"output":"hostile","status":${status}${extra}}}`;

async function v2Of(t: Parameters<typeof instanceFor>[0]) {
  const { v2, daemon, root } = await instanceFor(t, config);
  const auth = `Bearer ${await adminToken(v2)}`;
  const ns = `${v2}/api/core/v2/namespaces/default`;
  return { daemon, root, ns, auth, send: (method: string, path: string, body?: string) => call(`${ns}${path}`, method, auth, body) };
}

test('v2 events: PUT and POST refuse a status that is not a uint32 with 400 naming status; 2^32-1 is stored', async (t) => {
  const { send } = await v2Of(t);
  for (const status of BAD_STATUSES) {
    for (const [method, path] of [
      ['PUT', '/events/e1/c1'],
      ['POST', '/events'],
    ] as const) {
      const reply = await send(method, path, eventText('e1', 'c1', status));
      // Decoded as Sensu Go decodes it (a Go type error naming the field), else refused by the event's own rule.
      assert.equal(reply.status, 400, `${method} status ${status}`);
      assert.match(
        reply.body.message,
        /Check\.check\.status of type uint32|event\.check\.status must be an unsigned 32-bit integer/,
        `${method} status ${status}`,
      );
    }
  }
  assert.equal((await send('GET', '/events/e1/c1')).status, 404, 'nothing stored');
  assert.equal((await send('PUT', '/events/e1/c1', eventText('e1', 'c1', String(MAX_STATUS)))).status, 201);
  assert.equal((await send('GET', '/events/e1/c1')).body.check.status, MAX_STATUS);
});

test('v2 events: prototype-member names are ordinary names, for events and for the filters their pipelines name', async (t) => {
  const { daemon, root, send } = await v2Of(t);
  for (const name of PROTOTYPE_NAMES) {
    assert.equal((await send('PUT', `/events/${name}/${name}`, eventText(name, name, '1'))).status, 201, name);
    assert.deepEqual((await send('GET', `/events/${name}/${name}`)).body.check.metadata.name, name);
  }
  // No event filter is called `constructor`: the handler's filter is missing, not Object found on a prototype.
  const out = join(root, 'handled.json');
  assert.equal((await send('PUT', '/handlers/record', JSON.stringify({ type: 'pipe', command: `cat > ${out}`, filters: ['constructor'] }))).status, 201);
  assert.equal((await send('PUT', '/events/e1/filtered', eventText('e1', 'filtered', '2', ',"handlers":["record"]'))).status, 201);
  const line = await daemon.waitFor((l) => l.handler === 'record' && l.filter === 'constructor');
  assert.equal(line.msg, 'filter not found');
  assert.equal(existsSync(out), false, 'the handler did not run');
});

test('v2 events: the longest accepted names round-trip through GET and DELETE; one more character is a 400', async (t) => {
  const { send } = await v2Of(t);
  const expected = (what: string) => ({ message: `${what} is invalid: ${what} name must be 1 to 255 letters, digits, _ . - : (not . or ..)`, code: 1 });
  assert.deepEqual((await send('POST', '/events', eventText('e1', TOO_LONG_NAME, '1'))).body, expected('check'));
  assert.deepEqual((await send('POST', '/events', eventText(TOO_LONG_NAME, 'c1', '1'))).body, expected('entity'));
  assert.deepEqual((await send('PUT', `/events/e1/${TOO_LONG_NAME}`, eventText('e1', TOO_LONG_NAME, '1'))).body, expected('check'));

  const path = `/events/${LONGEST_NAME}/${LONGEST_NAME}`;
  assert.equal((await send('PUT', path, eventText(LONGEST_NAME, LONGEST_NAME, '2'))).status, 201);
  const stored = await send('GET', path);
  assert.deepEqual([stored.status, stored.body.check.metadata.name, stored.body.entity.metadata.name], [200, LONGEST_NAME, LONGEST_NAME]);
  assert.equal((await send('DELETE', path)).status, 204);
  assert.equal((await send('GET', path)).status, 404);
});

test('v2 events: 10,000 levels of nesting are a 400 naming the depth; the API keeps answering', async (t) => {
  const { daemon, send } = await v2Of(t);
  const deep = `,"custom":${nested(10_000)}`;
  for (const [method, path] of [
    ['PUT', '/events/e1/deep'],
    ['POST', '/events'],
  ] as const) {
    const reply = await send(method, path, eventText('e1', 'deep', '1', deep));
    assert.deepEqual([reply.status, reply.body], [400, { message: 'JSON nested deeper than 100 levels', code: 1 }], method);
  }
  assert.equal((await send('PUT', '/events/e1/after', eventText('e1', 'after', '0'))).status, 201);
  assert.equal((await send('GET', '/events/e1/after')).status, 200);
  assert.equal(daemon.proc.exitCode, null);
});

test('v2 events: a PUT of the largest body (512,000 bytes of labels) is decoded once and stored whole while /health answers; one byte more is a 413', async (t) => {
  const { ns, auth } = await v2Of(t);
  const LIMIT = 512_000;
  // As many distinct labels as fit: each one a field the door decodes, the intake copies and the store writes.
  const head = '{"entity":{"entity_class":"proxy","metadata":{"name":"big","labels":{';
  const tail = '}}},"check":{"metadata":{"name":"c"},"status":1,"output":"big"}}';
  const labels: string[] = [];
  for (let i = 0, size = head.length + tail.length; ; i++) {
    const label = `"l${i.toString(36)}":"v"`;
    if (size + label.length + 1 > LIMIT) break;
    labels.push(label);
    size += label.length + 1;
  }
  const body = head + labels.join(',') + tail;
  const put = fetch(`${ns}/events/big/c`, { method: 'PUT', headers: { authorization: auth, 'content-type': 'application/json' }, body });
  const latencies = await healthWhile(ns.slice(0, ns.indexOf('/api/')), put);
  assert.equal((await put).status, 201);
  t.diagnostic(
    `${labels.length} labels in ${body.length} bytes; ${latencies.length} /health answers during the write, the slowest ${Math.round(Math.max(...latencies))} ms`,
  );
  const stored = await call(`${ns}/events/big/c`, 'GET', auth);
  assert.equal(Object.keys(stored.body.entity.metadata.labels).length, labels.length, 'every label stored');
  const over = await fetch(`${ns}/events/big/c`, {
    method: 'PUT',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: body + ' '.repeat(LIMIT + 1 - body.length),
  });
  assert.equal(over.status, 413);
});
