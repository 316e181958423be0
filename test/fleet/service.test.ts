// The fleet consumer as a service: it consumes the broker's keepalives and results from its start, not before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Fleet } from '../../src/fleet/service.js';
import { RedisTransport } from '../../src/transport/redis/transport.js';
import { redisOptions } from '../../src/transport/redis/settings.js';
import { systemClock } from '../../src/schedule/clock.js';
import { redisFor } from '../servers/redis.js';
import { settingsOf } from '../helpers/settings.js';
import { capturedLogger } from '../helpers/log-capture.js';
import { sqliteIntake } from '../helpers/sqlite-intake.js';
import { eventually, until } from '../helpers/wait.js';

test('results sent before the service starts wait on the broker and are consumed once it starts', async (t) => {
  const redis = await redisFor(t);
  if (!redis) return;
  const { store, intake } = sqliteIntake(t);
  const settings = settingsOf({ client: { name: 'door', address: '127.0.0.1', subscriptions: [] }, checkbridge: { entity_limit: 0 } });
  const transport = new RedisTransport(redisOptions(redis.url), capturedLogger().logger);
  const sender = new RedisTransport(redisOptions(redis.url), capturedLogger().logger);
  t.after(() => Promise.all([transport.close(), sender.close()]));
  const fleet = new Fleet({ transport, store, settings: () => settings, intake, logger: capturedLogger().logger, clock: systemClock });
  assert.equal(fleet.name, 'fleet consumer');
  transport.start();
  sender.start();
  assert.ok(await until(() => transport.connected() && sender.connected(), 10_000));
  assert.ok(sender.send('direct', 'results', JSON.stringify({ client: 'web-01', check: { name: 'early', output: 'waited', status: 0 } })));
  assert.equal(
    await eventually(
      async () => (await sender.stats('results')).messages,
      (n) => n === 1,
      15_000,
    ),
    1,
    'waiting on the broker',
  );
  assert.equal(store.getResult('web-01', 'early'), null);
  await fleet.start();
  assert.ok(await until(() => store.getResult('web-01', 'early') !== null, 15_000));
  assert.equal(store.getResult('web-01', 'early')?.check.output, 'waited');
  await fleet.stop();
});
