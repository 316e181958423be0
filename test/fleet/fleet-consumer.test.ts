// The server's side of the wire, on a real Redis: keepalives become client records, results enter the intake, and
// anything malformed is logged, acknowledged and dropped without stopping what follows.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { consumeFleet } from '../../src/fleet/fleet-consumer.js';
import { RedisTransport } from '../../src/transport/redis/transport.js';
import { redisOptions } from '../../src/transport/redis/settings.js';
import { systemClock } from '../../src/schedule/clock.js';
import { redisFor } from '../servers/redis.js';
import { settingsOf } from '../helpers/settings.js';
import { capturedLogger } from '../helpers/log-capture.js';
import { sqliteIntake } from '../helpers/sqlite-intake.js';
import { until } from '../helpers/wait.js';

/** A consumer on one Redis transport, and a second transport that sends to it as legacy clients would. */
async function fleet(t: TestContext) {
  const redis = await redisFor(t);
  if (!redis) return null;
  const { store, intake } = sqliteIntake(t);
  const { logger, lines } = capturedLogger();
  const settings = settingsOf({ client: { name: 'door', address: '127.0.0.1', subscriptions: [] }, checkbridge: { entity_limit: 0 } });
  const transport = new RedisTransport(redisOptions(redis.url), logger);
  const sender = new RedisTransport(redisOptions(redis.url), capturedLogger().logger);
  t.after(() => Promise.all([transport.close(), sender.close()]));
  consumeFleet({ transport, store, settings: () => settings, intake, logger, clock: systemClock });
  transport.start();
  sender.start();
  assert.ok(await until(() => transport.connected() && sender.connected(), 10_000), 'connected to Redis');
  const send = (pipe: 'keepalives' | 'results', body: unknown) =>
    assert.ok(sender.send('direct', pipe, typeof body === 'string' ? body : JSON.stringify(body)));
  return { store, lines, send };
}

const keepalive = (name: string, fields: Record<string, unknown> = {}) => ({
  name,
  address: '10.0.0.1',
  subscriptions: ['linux'],
  timestamp: Math.floor(Date.now() / 1000),
  ...fields,
});

test('a keepalive becomes the client record; a result enters the intake as that client', async (t) => {
  const setup = await fleet(t);
  if (!setup) return;
  const { store, send } = setup;
  send('keepalives', keepalive('web-01'));
  assert.ok(await until(() => store.getClient('web-01') !== null, 15_000));
  assert.ok((store.getClient('web-01')?.subscriptions as string[]).includes('linux'));
  send('results', { client: 'web-01', check: { name: 'disk', output: 'disk 91%', status: 1 } });
  assert.ok(await until(() => store.getResult('web-01', 'disk') !== null, 15_000));
  assert.equal(store.getResult('web-01', 'disk')?.check.output, 'disk 91%');
});

test('malformed keepalives and results are dropped with the reason, and what follows them is still handled', async (t) => {
  const setup = await fleet(t);
  if (!setup) return;
  const { store, lines, send } = setup;
  send('keepalives', 'not json');
  send('keepalives', [1, 2]);
  send('keepalives', keepalive('spoof', { entity_class: 'agent' }));
  send('keepalives', keepalive('subs', { subscriptions: 'linux' }));
  send('keepalives', keepalive('stamp', { timestamp: 'now' }));
  send('results', { client: 'web-01', check: { output: 'no name', status: 0 } });
  send('results', { client: 7, check: { name: 'x', output: 'x', status: 0 } });
  send('keepalives', keepalive('after'));
  send('results', { client: 'after', check: { name: 'after', output: 'fine', status: 0 } });
  assert.ok(await until(() => store.getClient('after') !== null && store.getResult('after', 'after') !== null, 15_000));
  // Each pipe is read in order; the two pipes are read side by side.
  const dropped = (kind: string) =>
    lines.filter((l) => l.msg === `discarding invalid ${kind}`).map((l) => String(l.reason).replace(/^not JSON: .*/, 'not JSON'));
  assert.deepEqual(dropped('keepalive'), [
    'not JSON',
    'not a JSON object',
    'entity_class "agent" is for Sensu Go agents, which connect over the agent WebSocket',
    'subscriptions must be an array of strings',
    'timestamp must be a number',
  ]);
  assert.deepEqual(dropped('result'), ['check name must be a string', 'client name must be a string']);
  assert.equal(store.getClient('spoof'), null);
});

test('a result_id over Redis is ignored (checkbridge clients send none there), said once, and the result handled without it', async (t) => {
  const setup = await fleet(t);
  if (!setup) return;
  const { store, lines, send } = setup;
  for (const check of ['one', 'two'])
    send('results', { client: 'web-02', result_id: '6f1c3e1e-8f7a-4a0b-9a51-2d3c4b5a6f70', check: { name: check, output: 'x', status: 0 } });
  assert.ok(await until(() => store.getResult('web-02', 'two') !== null, 15_000));
  const ignored = lines.filter((l) => String(l.msg).startsWith('result_id ignored'));
  assert.deepEqual(
    ignored.map((l) => l.msg),
    ['result_id ignored, the result handled without it: checkbridge clients send none over redis'],
  );
});
