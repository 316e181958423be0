// The legacy Redis transport against a real server: fanout subscriptions on channels, roundrobin: ones and results
// on lists (popped in order), the keys legacy uses, queue figures, and the state said on loss and return.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createConnection } from 'node:net';
import { RedisTransport } from '../../../src/transport/redis/transport.js';
import { redisOptions } from '../../../src/transport/redis/settings.js';
import { transportInfo, type CheckRequest } from '../../../src/transport/transport.js';
import { redisFor, type RedisServer } from '../../servers/redis.js';
import { capturedLogger } from '../../helpers/log-capture.js';
import { eventually, until } from '../../helpers/wait.js';

async function connected(t: TestContext, redis: RedisServer, db = 0) {
  const { logger, messages } = capturedLogger();
  const transport = new RedisTransport(redisOptions({ host: '127.0.0.1', port: redis.port, db }), logger);
  t.after(() => transport.close());
  transport.start();
  assert.ok(await until(() => transport.connected(), 10_000), 'connected');
  return { transport, messages };
}

/** Raw Redis commands (inline protocol, one a line): their replies. */
function redisCommand(port: number, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(port, '127.0.0.1', () => socket.end(`${command}\r\n`));
    let reply = '';
    socket.on('data', (chunk) => (reply += chunk.toString()));
    socket.on('end', () => resolve(reply));
    socket.on('error', reject);
  });
}

test('redis transport: requests, results, keys and figures over one server', { timeout: 60_000 }, async (t) => {
  const redis = await redisFor(t);
  if (!redis) return;
  const { transport: server } = await connected(t, redis, 2);
  const { transport: one } = await connected(t, redis, 2);
  const { transport: two } = await connected(t, redis, 2);

  await t.test('a subscription gets every request; a roundrobin: one goes to one reader', async () => {
    const heard: string[] = [];
    const record = (who: string) => (request: CheckRequest, subscription: string) => heard.push(`${who} ${subscription} ${request.name}`);
    one.subscribe('linux', 'one', record('one'));
    two.subscribe('linux', 'two', record('two'));
    one.subscribe('roundrobin:pool', 'one', record('one'));
    two.subscribe('roundrobin:pool', 'two', record('two'));
    // Channel subscriptions take a round trip: publish until both have heard one.
    await eventually(
      async () => (server.publish('linux', { name: 'probe', issued: 1 }), new Set(heard.filter((h) => h.endsWith(' probe')).map((h) => h.split(' ')[0])).size),
      (readers) => readers === 2,
      10_000,
    );
    heard.length = 0;
    server.publish('linux', { name: 'disk', issued: 1 });
    for (let i = 0; i < 4; i++) server.publish('roundrobin:pool', { name: `turn-${i}`, issued: 1 });
    assert.ok(await until(() => heard.filter((h) => h.includes(' linux disk')).length === 2 && heard.filter((h) => h.includes('turn-')).length === 4, 10_000));
    const turns = heard.filter((h) => h.includes('turn-')).map((h) => h.split(' ')[2]);
    assert.deepEqual(turns.sort(), ['turn-0', 'turn-1', 'turn-2', 'turn-3'], 'each turn to exactly one reader');
  });

  await t.test('results wait on the list legacy names (transport:<db>:list:<pipe>) and are read in order', async () => {
    for (let i = 0; i < 5; i++) assert.ok(one.send('direct', 'results', `{"n":${i}}`));
    // The hash's db is both the database selected and the number in the key.
    const length = await eventually(
      () => redisCommand(redis.port, 'SELECT 2\r\nLLEN transport:2:list:results'),
      (reply) => reply === '+OK\r\n:5\r\n',
      5000,
    );
    assert.equal(length, '+OK\r\n:5\r\n');
    const info = await transportInfo(server);
    assert.deepEqual([info.name, info.connected, info.results], ['redis', true, { messages: 5, consumers: 0 }]);
    const bodies: string[] = [];
    server.consume('results', 'results', (delivery) => {
      assert.equal(delivery.redelivered, false);
      bodies.push(delivery.body.toString());
      delivery.ack();
    });
    assert.ok(await until(() => bodies.length === 5, 10_000));
    assert.deepEqual(
      bodies,
      [0, 1, 2, 3, 4].map((n) => `{"n":${n}}`),
    );
    assert.deepEqual(await server.stats('results'), { messages: 0, consumers: 0 });
  });

  await t.test('a request that does not parse is logged and skipped', async () => {
    const { transport: listener, messages } = await connected(t, redis, 2);
    const heard: string[] = [];
    listener.subscribe('roundrobin:solo', 'solo', (request) => heard.push(request.name));
    one.send('direct', 'roundrobin:solo', 'not json');
    one.send('direct', 'roundrobin:solo', '{"name":"after"}');
    assert.ok(await until(() => heard.length === 1, 10_000));
    assert.deepEqual(heard, ['after']);
    assert.ok(messages().includes('failed to parse the check request payload'));
  });

  await t.test('closed, nothing is sent and the figures are unknown', async () => {
    await two.close();
    assert.equal(two.connected(), false);
    assert.equal(two.send('direct', 'results', '{}'), false);
    assert.deepEqual(await two.stats('results'), { messages: null, consumers: null });
  });
});

test('a lost server is said once, and its return reconnects and says so', { timeout: 60_000 }, async (t) => {
  const redis = await redisFor(t);
  if (!redis) return;
  const { transport, messages } = await connected(t, redis);
  let [lost, back] = [0, 0];
  transport.onDisconnected(() => lost++);
  transport.onConnected(() => back++);
  await redis.kill();
  assert.ok(await until(() => lost === 1, 10_000), 'the loss is said');
  assert.equal(transport.connected(), false);
  await redis.start();
  assert.ok(await until(() => back === 1 && transport.connected(), 15_000), 'reconnected');
  assert.ok(messages().includes('reconnected to transport'));
});
