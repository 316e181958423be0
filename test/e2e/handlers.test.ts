import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { makeTree, removeTree, writeTree } from '../helpers/tree.js';
import { startInstance, postJson, eventually } from '../helpers/instance.js';
import { tcpExchange, tcpCollector, udpCollector } from '../helpers/net.js';

const client = { name: 'handled', address: '127.0.0.1', subscriptions: ['web'] };
const readLines = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

test('pipe, tcp, udp and set handlers, mutators, failures and timeouts: each event reaches its handlers, failures are logged', async (t) => {
  const tcp = await tcpCollector();
  const udp = await udpCollector();
  const root = makeTree({});
  const file = (name: string) => join(root, `${name}.log`);
  writeTree(root, {
    'conf.d/config.json': {
      client,
      handlers: {
        record: { type: 'pipe', command: `{ cat; echo; } >> ${file('record')}` },
        mutated: { type: 'pipe', command: `{ cat; echo; } >> ${file('mutated')}`, mutator: 'tag' },
        output_only: { type: 'pipe', command: `{ cat; echo; } >> ${file('output')}`, mutator: 'only_check_output' },
        to_tcp: { type: 'tcp', socket: { host: '127.0.0.1', port: tcp.port } },
        to_udp: { type: 'udp', socket: { host: '127.0.0.1', port: udp.port } },
        dead_tcp: { type: 'tcp', socket: { host: '127.0.0.1', port: 1 }, timeout: 2 },
        failing: { type: 'pipe', command: 'echo broken pipe handler; exit 3' },
        hanging: { type: 'pipe', command: 'sleep 30', timeout: 1 },
        flooding: { type: 'pipe', command: 'head -c 3000000 /dev/zero | tr "\\0" x; exit 1' },
        bad_mutator: { type: 'pipe', command: `cat >> ${file('never')}`, mutator: 'broken' },
        via_broker: { type: 'transport', pipe: { type: 'topic', name: 'events' } },
        everything: { type: 'set', handlers: ['record', 'mutated', 'output_only', 'to_tcp', 'to_udp', 'everything'] },
        trouble: { type: 'set', handlers: ['dead_tcp', 'failing', 'hanging', 'flooding', 'bad_mutator', 'via_broker', 'record'] },
      },
      mutators: { tag: { command: "sed -e 's/^/mutated:/'", timeout: 5 }, broken: { command: 'exit 4' } },
    },
  });
  const { daemon, socket } = await startInstance(root);
  t.after(async () => {
    await daemon.stop('SIGKILL');
    await tcp.close();
    await udp.close();
    removeTree(root);
  });

  assert.equal(await tcpExchange(socket, JSON.stringify({ name: 'disk', output: 'disk full\nsecond line', status: 2, handler: 'everything' })), 'ok');
  const records = await eventually(
    async () => readLines(file('record')),
    (l) => l.length === 1,
  );
  const event = JSON.parse(records[0]!);
  assert.equal(event.check.output, 'disk full\nsecond line', 'handlers get the full output');
  assert.deepEqual(event.check.history, ['2'], 'history as strings');
  assert.equal(event.action, 'create');
  assert.equal(event.client.name, 'handled');
  assert.equal(event.silenced, false);
  assert.ok(!('last_state_change' in event) || typeof event.last_state_change === 'number');
  const mutated = await eventually(
    async () => readLines(file('mutated')),
    (l) => l.length === 1,
  );
  assert.ok(mutated[0]!.startsWith('mutated:{'), mutated[0]);
  assert.equal(JSON.parse(mutated[0]!.slice('mutated:'.length)).id, event.id);
  assert.deepEqual(
    await eventually(
      async () => readFileSync(file('output'), 'utf8'),
      (s) => s.length > 0,
    ),
    'disk full\nsecond line\n',
  );
  await eventually(
    async () => tcp.received.length + udp.received.length,
    (n) => n === 2,
  );
  assert.equal(JSON.parse(tcp.received[0]!).id, event.id);
  assert.equal(JSON.parse(udp.received[0]!).id, event.id);
  await daemon.waitFor((l) => l.msg === 'handler set loop: everything -> everything');

  // Trouble: a dead peer, a non-zero exit, a hang, a flood, a failing mutator, a transport handler. The good one still runs.
  const started = daemon.logs.length;
  assert.equal(await tcpExchange(socket, JSON.stringify({ name: 'app', output: 'app down', status: 2, handler: 'trouble' })), 'ok');
  const after = (match: (l: Record<string, any>) => boolean) => daemon.waitFor(match, 15_000, started);
  await eventually(
    async () => readLines(file('record')),
    (l) => l.length === 2,
  );
  const failing = await after((l) => l.handler === 'failing' && l.msg === 'handler output');
  assert.equal(failing.level, 50, 'a non-zero exit is logged at error');
  assert.deepEqual([failing.output, failing.status], [['broken pipe handler'], 3]);
  const hanging = await after((l) => l.handler === 'hanging' && l.msg === 'handler output');
  assert.deepEqual([hanging.output, hanging.status], [['Execution timed out'], 2]);
  const dead = await after((l) => l.handler === 'dead_tcp' && l.msg === 'handler error');
  assert.match(String(dead.error), /ECONNREFUSED/);
  const flood = await after((l) => l.handler === 'flooding' && l.msg === 'handler output');
  assert.ok(JSON.stringify(flood).length < 100_000, 'a flood is capped in the log');
  assert.match(String((flood.output as string[]).at(-1)), /more characters not logged/);
  const mutator = await after((l) => l.handler === 'bad_mutator' && l.msg === 'mutator error');
  assert.equal(mutator.status, 4);
  assert.equal(existsSync(file('never')), false, 'a failing mutator stops its handler');
  const broker = await after((l) => l.handler === 'via_broker' && l.msg === 'handler error');
  assert.match(String(broker.error), /no message broker/);
  assert.ok(
    daemon.logs.some((l) => l.msg?.toString().startsWith('transport handlers are not supported')),
    'warned at load',
  );

  // Intake did not wait for any of it.
  const t0 = Date.now();
  assert.equal(await tcpExchange(socket, JSON.stringify({ name: 'quick', output: 'x', status: 0 })), 'ok');
  assert.ok(Date.now() - t0 < 5000);
});

test('filters and silences over sequences of results: occurrences, severities, handle_silenced, resolve handling', async (t) => {
  const root = makeTree({});
  const file = (name: string) => join(root, `${name}.log`);
  // One write per event (O_APPEND keeps it whole): a handler runs several events at once.
  const record = (name: string, extra: Record<string, unknown> = {}) => ({
    type: 'pipe',
    command: `event=$(cat); printf '%s\\n' "$event" >> ${file(name)}`,
    ...extra,
  });
  writeTree(root, {
    'conf.d/config.json': {
      client,
      checks: { flaky: { command: 'true', interval: 60, subscribers: ['none'], occurrences: 2, handlers: ['occ', 'crit_only', 'loud', 'quiet'] } },
      handlers: {
        occ: record('occ', { filters: ['occurrences'] }),
        crit_only: record('crit', { severities: ['critical'] }),
        loud: record('loud', { handle_silenced: true }),
        quiet: record('quiet'),
      },
    },
  });
  const { daemon, socket, api } = await startInstance(root);
  t.after(async () => {
    await daemon.stop('SIGKILL');
    removeTree(root);
  });
  const send = (status: number) => tcpExchange(socket, JSON.stringify({ name: 'flaky', output: `status ${status}`, status }));
  // Handlers run concurrently, so the order they finish in is not the order of the events.
  const summary = (name: string) =>
    readLines(file(name))
      .map((l) => JSON.parse(l))
      .map((e) => `${e.action}:${e.check.status}:${e.occurrences}`)
      .sort();

  for (const status of [1, 1, 1, 0]) assert.equal(await send(status), 'ok');
  await eventually(
    async () => summary('quiet'),
    (l) => l.length === 4,
  );
  assert.deepEqual(summary('occ'), ['create:1:2', 'resolve:0:3'], 'handled at n, then every 30; the resolve passes on the watermark');
  assert.deepEqual(summary('crit'), [], 'warnings and their resolve are not critical');
  assert.deepEqual(summary('quiet'), ['create:1:1', 'create:1:2', 'create:1:3', 'resolve:0:3']);

  assert.equal((await postJson(`${api}/silenced`, { check: 'flaky' })).status, 201);
  for (const status of [2, 0]) assert.equal(await send(status), 'ok');
  await eventually(
    async () => summary('loud'),
    (l) => l.length === 6,
  );
  assert.deepEqual(
    summary('loud').filter((e) => e.endsWith(':1') && !e.startsWith('create:1')),
    ['create:2:1', 'resolve:0:1'],
  );
  assert.deepEqual(summary('quiet').length, 4, 'silenced: not handled');
  assert.deepEqual(summary('crit'), [], 'crit_only does not handle silenced events either');
  await daemon.waitFor((l) => l.msg === 'handler is silenced' && l.handler === 'quiet');

  assert.equal((await postJson(`${api}/silenced/clear`, { check: 'flaky' })).status, 204);
  for (const status of [2, 0]) assert.equal(await send(status), 'ok');
  await eventually(
    async () => summary('crit'),
    (l) => l.length === 2,
  );
  assert.deepEqual(summary('crit'), ['create:2:1', 'resolve:0:1'], 'a critical, and the resolve of a history holding a critical');
});

test('a new client raises a registration event to the registration handler; OK metric results are handled every time', async (t) => {
  const root = makeTree({});
  const file = (name: string) => join(root, `${name}.log`);
  writeTree(root, {
    'conf.d/config.json': {
      client: { ...client, registration: { team: 'ops' } },
      handlers: {
        registration: { type: 'pipe', command: `{ cat; echo; } >> ${file('registration')}` },
        graphite: { type: 'pipe', command: `line=$(cat); printf '%s\\n' "$line" >> ${file('metrics')}`, mutator: 'only_check_output' },
      },
    },
  });
  const { daemon, socket } = await startInstance(root);
  t.after(async () => {
    await daemon.stop('SIGKILL');
    removeTree(root);
  });
  const registration = JSON.parse(
    (
      await eventually(
        async () => readLines(file('registration')),
        (l) => l.length === 1,
      )
    )[0]!,
  );
  assert.deepEqual(
    [registration.check.name, registration.check.output, registration.check.status, registration.check.team, registration.client.name],
    ['registration', 'new client registration', 1, 'ops', 'handled'],
  );
  for (let i = 0; i < 2; i++) {
    assert.equal(
      await tcpExchange(socket, JSON.stringify({ name: 'cpu_metrics', type: 'metric', output: `cpu.user ${i} 1700000000`, status: 0, handler: 'graphite' })),
      'ok',
    );
  }
  // Two handler runs may finish in either order: one append each (one write), compared as a set.
  assert.deepEqual(
    (
      await eventually(
        async () => readLines(file('metrics')),
        (l) => l.length === 2,
      )
    ).sort(),
    ['cpu.user 0 1700000000', 'cpu.user 1 1700000000'],
  );
});
