// The legacy RabbitMQ transport against a real broker: check requests fanned out to subscribers or taken in turns,
// results consumed with acknowledgement (requeued once), confirmed sends, queue figures, and nothing while away.
import { test, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import assert from 'node:assert/strict';
import { RabbitTransport } from '../../../src/transport/rabbitmq/transport.js';
import { rabbitEndpoints } from '../../../src/transport/rabbitmq/settings.js';
import { transportInfo, type CheckRequest, type WireDelivery } from '../../../src/transport/transport.js';
import { rabbitFor, type RabbitServer } from '../../servers/rabbitmq.js';
import { capturedLogger } from '../../helpers/log-capture.js';
import { eventually, until } from '../../helpers/wait.js';

async function connected(t: TestContext, rabbit: RabbitServer, queue: string): Promise<RabbitTransport> {
  const transport = new RabbitTransport(rabbitEndpoints(rabbit.url), queue, capturedLogger().logger);
  // The broker's own cleanup may run first: closing must not wait for a broker gone.
  t.after(() => Promise.race([transport.close(), sleep(1000)]));
  transport.start();
  assert.ok(await until(() => transport.connected(), 30_000), 'connected');
  return transport;
}

test('rabbitmq transport: requests, results and figures over one broker', { timeout: 180_000 }, async (t) => {
  const rabbit = await rabbitFor(t);
  if (!rabbit) return;
  const server = await connected(t, rabbit, 'server-queue');
  const [one, two] = [await connected(t, rabbit, 'client-one'), await connected(t, rabbit, 'client-two')];

  await t.test('a subscription gets every request; a roundrobin: one is taken in turns', async () => {
    const heard: string[] = [];
    const record = (who: string) => (request: CheckRequest, subscription: string) => heard.push(`${who} ${subscription} ${request.name}`);
    one.subscribe('linux', 'one', record('one'));
    two.subscribe('linux', 'two', record('two'));
    one.subscribe('roundrobin:pool', 'one', record('one'));
    two.subscribe('roundrobin:pool', 'two', record('two'));
    // Each transport declares in order: both consumers on the shared queue means their fanout bindings are there too.
    assert.equal(
      (
        await eventually(
          () => server.stats('roundrobin:pool'),
          (s) => s.consumers === 2,
          10_000,
        )
      ).consumers,
      2,
    );
    server.publish('linux', { name: 'disk', issued: 1 });
    for (let i = 0; i < 4; i++) server.publish('roundrobin:pool', { name: `turn-${i}`, issued: 1 });
    assert.ok(await until(() => heard.length === 6, 10_000), heard.join('\n'));
    assert.deepEqual(heard.filter((h) => h.includes(' linux ')).sort(), ['one linux disk', 'two linux disk']);
    const turns = heard.filter((h) => h.includes('roundrobin:pool'));
    assert.deepEqual([turns.filter((h) => h.startsWith('one')).length, turns.filter((h) => h.startsWith('two')).length], [2, 2]);
  });

  await t.test('results are consumed with acknowledgement: one requeued comes back redelivered', async () => {
    const deliveries: [string, boolean][] = [];
    server.consume('results', 'results', (delivery: WireDelivery) => {
      deliveries.push([delivery.body.toString(), delivery.redelivered]);
      if (delivery.redelivered) delivery.ack();
      else delivery.requeue();
    });
    // Sent once the server's queue is bound and consumed: a direct exchange drops what no queue is bound to.
    await eventually(
      () => server.stats('results'),
      (s) => s.consumers === 1,
      10_000,
    );
    const confirmed = await new Promise<boolean>((resolve) => {
      if (!one.sendConfirmed!('results', '{"client":"c","check":{"name":"x"}}', resolve)) resolve(false);
    });
    assert.equal(confirmed, true);
    assert.ok(await until(() => deliveries.length === 2, 10_000), JSON.stringify(deliveries));
    assert.deepEqual(deliveries, [
      ['{"client":"c","check":{"name":"x"}}', false],
      ['{"client":"c","check":{"name":"x"}}', true],
    ]);
    const info = await eventually(
      () => transportInfo(server),
      (i) => i.results?.messages === 0 && i.results?.consumers === 1,
      10_000,
    );
    assert.deepEqual([info.name, info.connected, info.results], ['rabbitmq', true, { messages: 0, consumers: 1 }]);
  });

  await t.test('a routed queue keeps what is sent to its pipe until a server reads it', async () => {
    server.route('keepalives', 'keepalives');
    const waiting = await eventually(
      async () => {
        one.send('direct', 'keepalives', '{"name":"c"}');
        return (await server.stats('keepalives')).messages ?? 0;
      },
      (n) => n > 0,
      10_000,
    );
    assert.ok(waiting > 0);
  });

  await t.test('closed, nothing is sent and the figures are unknown', async () => {
    await two.close();
    assert.equal(two.connected(), false);
    assert.equal(two.send('fanout', 'linux', '{}'), false);
    assert.equal(
      two.sendConfirmed!('results', '{}', () => undefined),
      false,
    );
    assert.deepEqual(await two.stats('results'), { messages: null, consumers: null });
  });
});
