import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, getJson, eventually } from '../helpers/instance.js';
import { tcpExchange } from '../helpers/net.js';
import { PROTOTYPE_NAMES, BAD_STATUSES, MAX_STATUS, LONGEST_NAME, TOO_LONG_NAME, nested, resultText } from '../helpers/hostile-inputs.js';

const config = { 'conf.d/a.json': { client: { name: 'adv', address: '127.0.0.1', subscriptions: [] } } };
const REFUSED = 'failed to process check result from socket';

test('socket: prototype-member names among many concurrent senders are ordinary names; every result is answered ok and stored', async (t) => {
  const { daemon, socket, api } = await instanceFor(t, config);
  const valid = Array.from({ length: 60 }, (_, i) => ({ name: `good-${i}`, output: `fine ${i}`, status: i % 3 }));
  const named = PROTOTYPE_NAMES.map((name) => ({ name, output: `named ${name}`, status: 2 }));
  const sourced = PROTOTYPE_NAMES.map((source) => ({ name: 'proxied', source, output: `from ${source}`, status: 1 }));
  const handled = { name: 'handled', output: 'x', status: 2, handlers: ['constructor'] };
  // Interleaved so that every group commit mixes valid and prototype-member names.
  const all = valid.flatMap((result, i) => [result, ...(named[i] ? [named[i]!] : []), ...(sourced[i] ? [sourced[i]!] : [])]).concat(handled);
  const answers = await Promise.all(
    all.map(async (result) => [result.name + '@' + ('source' in result ? result.source : 'adv'), await tcpExchange(socket, JSON.stringify(result))]),
  );
  assert.deepEqual(
    answers.filter(([, answer]) => answer !== 'ok'),
    [],
    'every result answered ok',
  );

  for (const result of [...valid, ...named]) {
    const stored = await getJson(`${api}/results/adv/${result.name}`);
    assert.equal(stored.status, 200, `result ${result.name} readable`);
    assert.deepEqual([stored.body.check.name, stored.body.check.output], [result.name, result.output]);
  }
  for (const source of PROTOTYPE_NAMES) {
    const stored = await getJson(`${api}/results/${source}/proxied`);
    assert.deepEqual([stored.status, stored.body?.check.source], [200, source], `proxy client ${source}`);
    assert.equal((await getJson(`${api}/clients/${source}`)).body.name, source);
  }
  const event = await getJson(`${api}/events/adv/constructor`);
  assert.deepEqual([event.status, event.body.check.name, event.body.check.status], [200, 'constructor', 2]);
  // A handler named like an Object member is an unknown handler, not a function found on the prototype.
  const line = await daemon.waitFor((l) => l.check === 'handled' && l.handler === 'constructor');
  assert.equal(line.msg, 'unknown handler');
  assert.equal(await tcpExchange(socket, 'ping'), 'pong');
});

test('socket: a status that is not an integer from -2^31 to 2^32-1 is invalid, logged with the reason, and not stored', async (t) => {
  const { daemon, socket, api } = await instanceFor(t, config);
  for (const status of BAD_STATUSES) {
    const from = daemon.logs.length;
    assert.equal(await tcpExchange(socket, resultText('bad_status', status)), 'invalid', `status ${status}`);
    const line = await daemon.waitFor((l) => l.msg === REFUSED, 5000, from);
    assert.match(String(line.reason), /^check status must be an integer/, `status ${status}: ${JSON.stringify(line)}`);
  }
  assert.equal((await getJson(`${api}/results/adv/bad_status`)).status, 404, 'nothing stored');
  assert.equal(await tcpExchange(socket, resultText('max_status', String(MAX_STATUS))), 'ok');
  const stored = await eventually(
    () => getJson(`${api}/results/adv/max_status`),
    (r) => r.status === 200,
  );
  assert.equal(stored.body.check.status, MAX_STATUS);
  // A negative status is kept (legacy accepted it; here it is unknown), and its v2 copy says 3.
  assert.equal(await tcpExchange(socket, resultText('negative_status', '-1')), 'ok');
  const negative = await eventually(
    () => getJson(`${api}/events/adv/negative_status`),
    (r) => r.status === 200,
  );
  assert.equal(negative.body.check.status, -1);
});

test('socket: a name or source longer than 255 characters is invalid with the reason; 255 is accepted and served', async (t) => {
  const { daemon, socket, api } = await instanceFor(t, config);
  for (const [result, reason] of [
    [{ name: TOO_LONG_NAME, output: 'x', status: 1 }, 'check name must be at most 255 characters'],
    [{ name: 'short', source: TOO_LONG_NAME, output: 'x', status: 1 }, 'check source must be at most 255 characters'],
  ] as const) {
    const from = daemon.logs.length;
    assert.equal(await tcpExchange(socket, JSON.stringify(result)), 'invalid');
    assert.equal((await daemon.waitFor((l) => l.msg === REFUSED, 5000, from)).reason, reason);
  }
  assert.equal(await tcpExchange(socket, JSON.stringify({ name: LONGEST_NAME, output: 'longest', status: 1 })), 'ok');
  assert.equal((await getJson(`${api}/results/adv/${LONGEST_NAME}`)).body.check.output, 'longest');
  assert.equal((await getJson(`${api}/events/adv/${LONGEST_NAME}`)).status, 200);
});

test('socket: 10,000 levels of nesting in a custom attribute are invalid with the reason; the socket keeps answering', async (t) => {
  const { daemon, socket, api } = await instanceFor(t, config);
  const from = daemon.logs.length;
  assert.equal(await tcpExchange(socket, resultText('deep', '1', `,"custom":${nested(10_000)}`)), 'invalid');
  assert.equal((await daemon.waitFor((l) => l.msg === REFUSED, 5000, from)).reason, 'JSON nested deeper than 100 levels');
  // As deep as allowed: the result (a level) plus 99 levels of custom attribute.
  assert.equal(await tcpExchange(socket, resultText('deep', '1', `,"custom":${nested(99)}`)), 'ok');
  assert.equal(await tcpExchange(socket, 'ping'), 'pong');
  assert.equal(await tcpExchange(socket, resultText('after', '0')), 'ok');
  assert.equal(
    (
      await eventually(
        () => getJson(`${api}/results/adv/after`),
        (r) => r.status === 200,
      )
    ).status,
    200,
  );
  assert.equal(daemon.proc.exitCode, null);
});
