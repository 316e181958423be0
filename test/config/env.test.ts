// The legacy environment variables that set transport, client and API settings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { settingsFromEnv } from '../../src/config/env.js';

test('each variable sets its setting; none set gives nothing', () => {
  assert.deepEqual(settingsFromEnv({}), {});
  assert.deepEqual(
    settingsFromEnv({
      SENSU_TRANSPORT_NAME: 'redis',
      RABBITMQ_URL: 'amqp://broker',
      REDIS_URL: 'redis://cache',
      SENSU_CLIENT_NAME: 'web-1',
      SENSU_CLIENT_ADDRESS: '10.0.0.1',
      SENSU_CLIENT_SUBSCRIPTIONS: 'web,linux',
      SENSU_API_PORT: '4568',
      UNRELATED: 'x',
    }),
    {
      transport: { name: 'redis' },
      rabbitmq: 'amqp://broker',
      redis: 'redis://cache',
      client: { name: 'web-1', address: '10.0.0.1', subscriptions: ['web', 'linux'] },
      api: { port: 4568 },
    },
  );
});

test('sentinels win over a Redis URL; an empty variable is unset; an unreadable port is 0', () => {
  assert.deepEqual(settingsFromEnv({ REDIS_URL: 'redis://cache', REDIS_SENTINEL_URLS: 'redis://s1:26379,s2' }), {
    redis: { sentinels: 'redis://s1:26379,s2' },
  });
  assert.deepEqual(settingsFromEnv({ SENSU_CLIENT_NAME: '', RABBITMQ_URL: '' }), {});
  assert.deepEqual(settingsFromEnv({ SENSU_API_PORT: 'http' }), { api: { port: 0 } });
  assert.deepEqual(settingsFromEnv({ SENSU_CLIENT_ADDRESS: 'h' }), { client: { address: 'h' } });
});
