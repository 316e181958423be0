// The legacy RabbitMQ wire, checked against the broker itself: declarations, names, properties, bodies, bad input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import amqp from 'amqplib';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rabbitFor } from '../servers/rabbitmq.js';
import { fleetServer, fleetClient } from '../helpers/fleet.js';
import { getJson, postJson, eventually } from '../helpers/instance.js';

const EXCHANGE = { durable: false, autoDelete: false, internal: false };
const QUEUE = { durable: false, autoDelete: true, exclusive: false };

async function open(url: string) {
  const connection = await amqp.connect(url);
  connection.on('error', () => undefined);
  const channel = await connection.createChannel();
  let closedBy: Error | null = null;
  channel.on('error', (error: Error) => (closedBy = error));
  // The broker may be gone by then: closing must not wait for it.
  const close = () => Promise.race([connection.close().catch(() => undefined), new Promise((r) => setTimeout(r, 1000))]);
  return { connection, channel, closedBy: () => closedBy, close };
}

/** `rabbitmqctl list_<what> <columns>` as rows of columns. */
function rows(ctl: (...args: string[]) => string, what: string, ...columns: string[]): string[][] {
  return ctl(`list_${what}`, '-q', '--no-table-headers', ...columns)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.split('\t'));
}

test('declarations match the legacy flags both ways, with the legacy names, properties and bodies', { timeout: 120_000 }, async (t) => {
  const rabbit = await rabbitFor(t);
  if (!rabbit) return;
  // A legacy process declared everything first, with its flags: a different declaration from checkbridge would be a 406.
  const legacy = await open(rabbit.url);
  t.after(() => legacy.close());
  for (const [name, type] of [
    ['keepalives', 'direct'],
    ['results', 'direct'],
    ['linux', 'fanout'],
    ['roundrobin:pool', 'direct'],
    ['client:w1', 'fanout'],
  ] as const) {
    await legacy.channel.assertExchange(name, type, EXCHANGE);
  }
  for (const name of ['keepalives', 'results', 'roundrobin:pool']) await legacy.channel.assertQueue(name, QUEUE);
  // What travels: our own queues bound to the legacy exchanges.
  const captured = new Map<string, amqp.ConsumeMessage[]>();
  for (const exchange of ['keepalives', 'results', 'linux']) {
    const { queue } = await legacy.channel.assertQueue('', { exclusive: true, autoDelete: true });
    await legacy.channel.bindQueue(queue, exchange, '');
    captured.set(exchange, []);
    await legacy.channel.consume(queue, (m) => m && captured.get(exchange)!.push(m), { noAck: true });
  }
  const before = rows(rabbit.ctl, 'connections', 'name').length;

  const server = await fleetServer(t, 'rabbitmq', {
    'conf.d/s.json': {
      rabbitmq: { host: '127.0.0.1', port: rabbit.port, user: 'guest', password: 'guest' },
      checks: { w_check: { command: 'echo wire; exit 1', subscribers: ['linux'], interval: 1 } },
    },
  });
  const client = await fleetClient(t, 'rabbitmq', {
    'conf.d/c.json': {
      rabbitmq: [rabbit.url],
      client: { name: 'w1', address: '127.0.0.1', subscriptions: ['linux', 'roundrobin:pool'], signature: 'sig-1', password: 'hidden' },
    },
  });
  await eventually(
    async () => captured.get('results')!.length,
    (n) => n >= 1,
    10_000,
  );

  // Neither side ever hit a refused declaration.
  for (const daemon of [server.daemon, client.daemon]) {
    assert.equal(
      daemon.logs.filter((l) => l.msg === 'transport connection lost' || l.msg === 'rabbitmq channel error').length,
      0,
      JSON.stringify(daemon.logs.slice(-5)),
    );
  }
  assert.equal(legacy.closedBy(), null);

  // The client's own queue: `<name>-1.9.0-<start epoch>`, legacy flags, no arguments, bound to all its fanout subscriptions.
  const queues = rows(rabbit.ctl, 'queues', 'name', 'durable', 'auto_delete', 'exclusive', 'arguments');
  const own = queues.filter(([name]) => /^w1-/.test(name!));
  assert.equal(own.length, 1, JSON.stringify(queues));
  assert.match(own[0]![0]!, /^w1-1\.9\.0-\d{10}$/);
  const started = Number(own[0]![0]!.split('-').pop());
  assert.ok(Math.abs(started - Date.now() / 1000) < 120);
  assert.deepEqual(own[0]!.slice(1), ['false', 'true', 'false', '[]']);
  for (const name of ['keepalives', 'results', 'roundrobin:pool']) {
    assert.deepEqual(queues.find(([n]) => n === name)?.slice(1), ['false', 'true', 'false', '[]'], name);
  }
  const bindings = rows(rabbit.ctl, 'bindings', 'source_name', 'destination_name', 'routing_key').filter(([source]) => source !== '');
  for (const exchange of ['linux', 'client:w1'])
    assert.ok(
      bindings.some(([s, d, key]) => s === exchange && d === own[0]![0] && key === ''),
      `${exchange} → own queue`,
    );
  assert.ok(bindings.some(([s, d, key]) => s === 'roundrobin:pool' && d === 'roundrobin:pool' && key === ''));
  assert.ok(bindings.some(([s, d, key]) => s === 'results' && d === 'results' && key === ''));

  // Exchanges as legacy declares them.
  const exchanges = rows(rabbit.ctl, 'exchanges', 'name', 'type', 'durable', 'auto_delete', 'internal', 'arguments');
  for (const [name, type] of [
    ['keepalives', 'direct'],
    ['results', 'direct'],
    ['linux', 'fanout'],
    ['client:w1', 'fanout'],
    ['roundrobin:pool', 'direct'],
  ]) {
    assert.deepEqual(exchanges.find(([n]) => n === name)?.slice(1), [type, 'false', 'false', 'false', '[]'], name);
  }

  // Server consumers acknowledge with prefetch 1; client consumers do not acknowledge.
  const consumers = rows(rabbit.ctl, 'consumers', 'queue_name', 'ack_required', 'prefetch_count');
  assert.deepEqual(consumers.find(([q]) => q === 'results')?.slice(1), ['true', '1']);
  assert.deepEqual(consumers.find(([q]) => q === 'keepalives')?.slice(1), ['true', '1']);
  assert.equal(consumers.find(([q]) => q === own[0]![0])?.[1], 'false');
  assert.equal(consumers.find(([q]) => q === 'roundrobin:pool')?.[1], 'false');

  // Two connections per process; with no `heartbeat` set, each adopted the broker's proposal (60 s), as legacy does.
  assert.equal(rows(rabbit.ctl, 'connections', 'name').length - before, 4);
  assert.deepEqual([...new Set(rows(rabbit.ctl, 'connections', 'timeout').map(([timeout]) => timeout))], ['60']);

  // A second legacy declaration after checkbridge's: accepted as it stands.
  const again = await open(rabbit.url);
  t.after(() => again.close());
  for (const [name, type] of [
    ['keepalives', 'direct'],
    ['results', 'direct'],
    ['linux', 'fanout'],
    ['client:w1', 'fanout'],
    ['roundrobin:pool', 'direct'],
  ] as const) {
    await again.channel.assertExchange(name, type, EXCHANGE);
  }
  for (const name of ['keepalives', 'results', 'roundrobin:pool', own[0]![0]!]) await again.channel.assertQueue(name, QUEUE);
  assert.equal(again.closedBy(), null);

  // Messages: octet-stream, transient, priority 0, routing key "", no headers; legacy bodies.
  await eventually(
    async () => captured.get('keepalives')!.length + captured.get('linux')!.length,
    () => captured.get('keepalives')!.length >= 1 && captured.get('linux')!.length >= 1,
    10_000,
  );
  for (const message of [captured.get('keepalives')![0]!, captured.get('results')![0]!, captured.get('linux')![0]!]) {
    assert.equal(message.fields.routingKey, '');
    assert.equal(message.properties.contentType, 'application/octet-stream');
    assert.equal(message.properties.deliveryMode, 1);
    assert.equal(message.properties.priority, 0);
    assert.ok(message.properties.headers === undefined || Object.keys(message.properties.headers).length === 0);
  }
  const keepalive = JSON.parse(captured.get('keepalives')![0]!.content.toString());
  assert.equal(keepalive.name, 'w1');
  assert.equal(keepalive.signature, 'sig-1');
  assert.equal(keepalive.password, 'REDACTED');
  assert.equal(keepalive.version, '1.9.0');
  assert.ok(Number.isInteger(keepalive.timestamp));
  assert.deepEqual(keepalive.subscriptions, ['linux', 'roundrobin:pool', 'client:w1']);
  const request = JSON.parse(captured.get('linux')![0]!.content.toString());
  // The definition as written minus subscribers and interval, plus name and issued.
  assert.deepEqual(Object.keys(request), ['command', 'name', 'issued']);
  assert.equal(request.name, 'w_check');
  assert.equal(request.command, 'echo wire; exit 1');
  assert.ok(Number.isInteger(request.issued));
  const result = JSON.parse(captured.get('results')!.at(-1)!.content.toString());
  // The legacy keys in their order, then the id a server recognises a re-sent copy by (a Sensu 1.x server reads only the first three).
  assert.deepEqual(Object.keys(result), ['client', 'check', 'signature', 'result_id']);
  assert.match(result.result_id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(result.client, 'w1');
  assert.equal(result.signature, 'sig-1');
  assert.equal(result.check.name, 'w_check');
  assert.equal(result.check.status, 1);

  // And the server took the signed result.
  const events = await eventually(
    () => getJson(`${server.api}/events/w1/w_check`),
    (r) => r.status === 200,
    10_000,
  );
  assert.equal(events.body.check.output, 'wire\n');
});

test(
  'malformed and hostile messages straight into results and keepalives: logged, acknowledged, dropped; the server goes on',
  { timeout: 120_000 },
  async (t) => {
    const rabbit = await rabbitFor(t);
    if (!rabbit) return;
    const server = await fleetServer(t, 'rabbitmq', { 'conf.d/s.json': { rabbitmq: rabbit.url, sensu: { server: { max_message_size: 4096 } } } });
    const peer = await open(rabbit.url);
    t.after(() => peer.close());
    const deep = '{"client":"x","check":{"name":"d","output":"","status":0,"n":' + '['.repeat(5000) + ']'.repeat(5000) + '}}';
    const badResults = [
      'null',
      '[]',
      '""',
      '42',
      '{"client":"x","check":"str"}',
      '{"client":"x","check":{"output":"no name","status":0}}',
      '{"client":"x","check":{"name":"s","output":"o","status":"two"}}',
      '{"check":{"name":"nc","output":"o","status":0}}',
      '{"client":"x","check":{"name":"sig","output":"o","status":0},"signature":7}',
      Buffer.from([0x7b, 0xff, 0xfe, 0x00]),
      'not json at all',
      JSON.stringify({ client: 'x', check: { name: 'big', output: 'x'.repeat(5000), status: 0 } }),
      deep,
    ];
    const badKeepalives = [
      'null',
      '[]',
      '{"name":"k2"}',
      '{"name":"k3","subscriptions":"notarray"}',
      '{"name":"k 4","subscriptions":[],"timestamp":1}',
      '{{{',
      JSON.stringify({ name: 'k5', subscriptions: [], timestamp: 1, pad: 'y'.repeat(5000) }),
    ];
    for (const body of badResults)
      peer.channel.publish('results', '', Buffer.isBuffer(body) ? body : Buffer.from(body), {
        contentType: 'application/octet-stream',
        deliveryMode: 1,
        priority: 0,
      });
    for (const body of badKeepalives) peer.channel.publish('keepalives', '', Buffer.from(body));
    // A good result behind them all: the queue did not stall.
    peer.channel.publish('results', '', Buffer.from(JSON.stringify({ client: 'good', check: { name: 'after', output: 'fine', status: 1 } })));
    peer.channel.publish(
      'keepalives',
      '',
      Buffer.from(JSON.stringify({ name: 'k-good', address: '127.0.0.1', subscriptions: ['a'], version: '1.9.0', timestamp: Math.floor(Date.now() / 1000) })),
    );

    const after = await eventually(
      () => getJson(`${server.api}/results/good`),
      (r) => r.status === 200 && r.body.length === 1,
      15_000,
    );
    assert.equal(after.body[0].check.name, 'after');
    await eventually(
      () => getJson(`${server.api}/clients/k-good`),
      (r) => r.status === 200,
      10_000,
    );
    assert.equal(server.daemon.proc.exitCode, null, 'the server is still running');
    const dropped = (kind: string) => server.daemon.logs.filter((l) => l.msg === `discarding invalid ${kind}`);
    assert.equal(dropped('result').length, badResults.length, JSON.stringify(dropped('result').map((l) => l.reason)));
    assert.equal(dropped('keepalive').length, badKeepalives.length, JSON.stringify(dropped('keepalive').map((l) => l.reason)));
    assert.ok(dropped('result').some((l) => /exceeds max_message_size 4096/.test(String(l.reason))));
    // Nothing left behind, nothing unacknowledged, nothing registered from the garbage.
    const queues = rows(rabbit.ctl, 'queues', 'name', 'messages_ready', 'messages_unacknowledged');
    for (const name of ['results', 'keepalives']) assert.deepEqual(queues.find(([n]) => n === name)?.slice(1), ['0', '0'], name);
    const names = (await getJson(`${server.api}/clients`)).body.map((c: { name: string }) => c.name).sort();
    assert.deepEqual(names, ['good', 'k-good']);
  },
);

test(
  'a server over a broker: API results go through `results` as legacy publishes them; a stopping server cancels its consumers at once',
  { timeout: 120_000 },
  async (t) => {
    const rabbit = await rabbitFor(t);
    if (!rabbit) return;
    const marks = mkdtempSync(join(tmpdir(), 'cb-stop-'));
    t.after(() => rmSync(marks, { recursive: true, force: true }));
    const started = join(marks, 'handler-started');
    const server = await fleetServer(t, 'rabbitmq', {
      'conf.d/s.json': { rabbitmq: rabbit.url, handlers: { slow: { type: 'pipe', command: `touch ${started}; sleep 15` } } },
    });
    const legacy = await open(rabbit.url);
    t.after(() => legacy.close());
    const captured: amqp.ConsumeMessage[] = [];
    const { queue } = await legacy.channel.assertQueue('', { exclusive: true, autoDelete: true });
    await legacy.channel.bindQueue(queue, 'results', '');
    await legacy.channel.consume(queue, (m) => m && captured.push(m), { noAck: true });

    // POST /results: published to `results` as our API client, then consumed like any result.
    assert.equal((await postJson(`${server.api}/results`, { name: 'api_check', output: 'hello', status: 2, handlers: ['slow'] })).status, 202);
    assert.ok(
      (await eventually(
        async () => captured.length,
        (n) => n >= 1,
        10_000,
      )) >= 1,
      'published to results',
    );
    const body = JSON.parse(captured[0]!.content.toString());
    assert.equal(body.client, 'checkbridge-api');
    assert.equal(body.check.name, 'api_check');
    assert.equal(body.check.output, 'hello');
    assert.equal(captured[0]!.properties.contentType, 'application/octet-stream');
    const event = await eventually(
      () => getJson(`${server.api}/events/checkbridge-api/api_check`),
      (r) => r.status === 200,
      10_000,
    );
    assert.equal(event.body.check.status, 2);

    // Another consumer of `results` (a second server): it keeps the auto-delete queue, and shows who is served.
    const other = await open(rabbit.url);
    t.after(() => other.close());
    await other.channel.assertQueue('results', QUEUE);
    const seen: string[] = [];
    await other.channel.consume('results', (m) => {
      if (!m) return;
      seen.push(JSON.parse(m.content.toString()).check.name);
      other.channel.ack(m);
    });
    // The handler keeps the server's stop going for its grace; the consumers go at once.
    assert.ok(
      await eventually(
        async () => existsSync(started),
        (ok) => ok,
        10_000,
      ),
      'the handler started',
    );
    const consumersOfResults = () => rows(rabbit.ctl, 'consumers', 'queue_name').filter(([q]) => q === 'results').length;
    assert.equal(consumersOfResults(), 2);
    server.daemon.proc.kill('SIGTERM');
    assert.equal(
      await eventually(
        async () => consumersOfResults(),
        (n) => n === 1,
        6000,
      ),
      1,
      'the stopping server still consumes results',
    );
    for (let i = 0; i < 5; i++)
      legacy.channel.publish('results', '', Buffer.from(JSON.stringify({ client: 'x', check: { name: `after-stop-${i}`, output: '', status: 0 } })), {
        contentType: 'application/octet-stream',
        deliveryMode: 1,
        priority: 0,
      });
    const taken = await eventually(
      async () => seen.filter((n) => n.startsWith('after-stop-')).length,
      (n) => n === 5,
      5000,
    );
    assert.equal(taken, 5, 'every result published during the stop went to the other server');
    assert.ok(!server.daemon.logs.some((l) => l.msg === 'stopped'), 'the server was still stopping');
  },
);
