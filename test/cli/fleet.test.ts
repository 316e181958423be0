import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Command } from 'commander';
import { Redis } from 'ioredis';
import { openTransport, roleFrom, transportNameFrom, withFleetOptions, wireClient } from '../../src/cli/fleet.js';
import { CheckbridgeError } from '../../src/errors.js';
import { InProcessTransport, RabbitTransport, RedisTransport } from '../../src/transport/index.js';
import { createLogger } from '../../src/log.js';
import { settingsOf } from '../helpers/settings.js';
import { redisFor } from '../servers/redis.js';

const plain = settingsOf({});
const redisConfigured = settingsOf({ transport: { name: 'redis' } });

test('--role and --transport are options of the command', () => {
  const command = withFleetOptions(new Command('run').exitOverride());
  command.parse(['--role', 'client', '--transport', 'redis'], { from: 'user' });
  assert.deepEqual(command.opts(), { role: 'client', transport: 'redis' });
});

test('the role comes from the flag, then CHECKBRIDGE_ROLE, else both; anything else is a usage error', () => {
  assert.equal(roleFrom({ role: 'server' }, { CHECKBRIDGE_ROLE: 'client' }), 'server');
  assert.equal(roleFrom({}, { CHECKBRIDGE_ROLE: 'client' }), 'client');
  assert.equal(roleFrom({}, {}), 'both');
  assert.throws(
    () => roleFrom({}, { CHECKBRIDGE_ROLE: 'worker' }),
    (error: unknown) =>
      error instanceof CheckbridgeError && error.code === 'CB_CLI_USAGE' && /--role must be server, client or both, not worker/.test(error.message),
  );
});

test('one process stays on the in-process bus unless the flag or variable names a broker', () => {
  assert.equal(transportNameFrom('both', {}, redisConfigured, {}), 'local');
  assert.equal(transportNameFrom('both', { transport: 'redis' }, plain, {}), 'redis');
  assert.equal(transportNameFrom('both', {}, plain, { CHECKBRIDGE_TRANSPORT: 'rabbitmq' }), 'rabbitmq');
});

test('a server or client takes the flag, then CHECKBRIDGE_TRANSPORT, then transport.name, else rabbitmq', () => {
  assert.equal(transportNameFrom('server', { transport: 'rabbitmq' }, redisConfigured, { CHECKBRIDGE_TRANSPORT: 'redis' }), 'rabbitmq');
  assert.equal(transportNameFrom('server', {}, plain, { CHECKBRIDGE_TRANSPORT: 'redis' }), 'redis');
  assert.equal(transportNameFrom('client', {}, redisConfigured, {}), 'redis');
  assert.equal(transportNameFrom('client', {}, plain, {}), 'rabbitmq');
});

test('an unknown transport is refused configuration; the in-process bus for a server or client alone is a usage error', () => {
  assert.throws(
    () => transportNameFrom('both', { transport: 'kafka' }, plain, {}),
    (error: unknown) =>
      error instanceof CheckbridgeError &&
      error.code === 'CB_CONFIG_REFUSED' &&
      /transport name must be local, rabbitmq or redis, not kafka/.test(error.message),
  );
  assert.throws(
    () => transportNameFrom('client', { transport: 'local' }, plain, {}),
    (error: unknown) =>
      error instanceof CheckbridgeError && error.code === 'CB_CLI_USAGE' && /--role client needs a broker: --transport rabbitmq or redis/.test(error.message),
  );
});

test('each name opens its transport, a broker one not yet connected', async () => {
  const logger = createLogger('silent');
  const local = openTransport('local', plain, Date.now(), logger);
  assert.ok(local instanceof InProcessTransport);
  const redis = openTransport('redis', plain, Date.now(), logger);
  assert.ok(redis instanceof RedisTransport);
  assert.equal(redis.connected(), false);
  const rabbit = openTransport('rabbitmq', plain, Date.now(), logger);
  assert.ok(rabbit instanceof RabbitTransport);
  assert.equal(rabbit.connected(), false);
  await Promise.all([redis.close(), rabbit.close()]);
  await local.close();
});

test('a client over a broker sends a keepalive at every connection and on demand, and its results to the results pipe', async (t) => {
  const redis = await redisFor(t);
  if (!redis) return;
  const settings = settingsOf({ client: { name: 'edge-1', address: '10.0.0.7', subscriptions: [] }, redis: { host: '127.0.0.1', port: redis.port } });
  const transport = openTransport('redis', settings, Date.now(), createLogger('silent'));
  assert.ok(transport instanceof RedisTransport);
  const peer = new Redis({ host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: 0 });
  peer.on('error', () => undefined);
  t.after(async () => {
    peer.disconnect();
    await transport.close();
  });
  const { results, keepalive } = wireClient(transport, () => settings, createLogger('silent'));
  transport.start();
  const next = async (pipe: string) => {
    const popped = await peer.blpop(`transport:0:list:${pipe}`, 10);
    assert.ok(popped, `something on ${pipe}`);
    return JSON.parse(popped[1]) as Record<string, unknown>;
  };
  const first = await next('keepalives');
  assert.equal(first.name, 'edge-1');
  assert.equal(first.address, '10.0.0.7');
  assert.equal(first.version, '1.9.0');
  keepalive();
  assert.equal((await next('keepalives')).name, 'edge-1');
  await results.submit({ client: 'edge-1', check: { name: 'disk', output: 'ok', status: 0, executed: 1 } });
  const result = await next('results');
  assert.equal(result.client, 'edge-1');
  assert.equal((result.check as { name: string }).name, 'disk');
});
