// A RabbitMQ session against a real broker: two connections and their channels with the endpoint's prefetch, an
// exchange declared once per channel before its first message, confirmed sends, legacy queues, and a lost session said.
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import assert from 'node:assert/strict';
import type { ChannelModel } from 'amqplib';
import { closeQuietly, declareRoute, declaredExchange, openSession, publishDeclared, watchSession } from '../../../src/transport/rabbitmq/session.js';
import { rabbitEndpoints } from '../../../src/transport/rabbitmq/settings.js';
import { rabbitFor } from '../../servers/rabbitmq.js';
import { capturedLogger } from '../../helpers/log-capture.js';
import { eventually } from '../../helpers/wait.js';

test(
  'a session: exchanges declared once per channel, confirmed sends, queues bound as legacy declares them, and a loss said',
  { timeout: 120_000 },
  async (t) => {
    const rabbit = await rabbitFor(t);
    if (!rabbit) return;
    const [endpoint] = rabbitEndpoints({ host: '127.0.0.1', port: rabbit.port, user: 'guest', password: 'guest', prefetch: 7 });
    const opened: ChannelModel[] = [];
    const session = await openSession(endpoint!, 3, opened, () => false);
    // The broker's own cleanup may run first: closing must not wait for a broker gone.
    t.after(() => Promise.race([closeQuietly(session), sleep(1000)]));
    assert.equal(session.generation, 3);
    assert.deepEqual(opened, [session.primary, session.secondary], 'both connections are handed over as they open');

    // The same exchange on the same channel is declared once; on another channel, again.
    const first = declaredExchange(session, session.other, 'direct', 'results');
    assert.equal(declaredExchange(session, session.other, 'direct', 'results'), first);
    assert.notEqual(declaredExchange(session, session.confirms, 'direct', 'results'), first);
    await first;

    // A legacy server's queue, bound to its direct exchange: what is sent there waits in it.
    await declareRoute(session, 'results', 'results');
    assert.ok(session.queues.has('results'));
    const confirmed = await new Promise<boolean>((resolve) => publishDeclared(session, session.confirms, 'direct', 'results', '{"n":1}', undefined, resolve));
    assert.equal(confirmed, true);
    publishDeclared(session, session.other, 'direct', 'results', '{"n":2}');
    const waiting = await eventually(
      async () => (await session.main.checkQueue('results')).messageCount,
      (n) => n === 2,
      15_000,
    );
    assert.equal(waiting, 2);
    const message = await session.main.get('results', { noAck: true });
    assert.ok(message);
    assert.deepEqual([message.content.toString(), message.properties.contentType, message.properties.deliveryMode], ['{"n":1}', 'application/octet-stream', 1]);

    // A connection closing loses the whole session, and says why.
    const { logger } = capturedLogger();
    const reasons: string[] = [];
    watchSession(session, logger, (reason) => reasons.push(reason));
    await session.secondary.close();
    assert.ok(reasons.includes('tcp connection lost'), reasons.join(', '));
  },
);

test('an attempt superseded while it opened fails, its opened connections handed over to be closed', { timeout: 120_000 }, async (t) => {
  const rabbit = await rabbitFor(t);
  if (!rabbit) return;
  const [endpoint] = rabbitEndpoints(rabbit.url);
  const opened: ChannelModel[] = [];
  await assert.rejects(
    openSession(endpoint!, 1, opened, () => true),
    { message: 'superseded' },
  );
  assert.equal(opened.length, 2);
  await Promise.all(opened.map((connection) => connection.close()));
});
