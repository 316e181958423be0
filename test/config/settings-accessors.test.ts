import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as read from '../../src/config/settings-accessors.js';
import { settingsOf } from '../helpers/settings.js';

test('with nothing configured, every accessor gives the documented default', () => {
  const settings = settingsOf({});
  assert.equal(read.legacyNamespace(settings), 'default');
  assert.equal(read.entityLimitOf(settings), 100);
  assert.equal(read.resultBufferOf(settings), 10_000);
  assert.equal(read.spawnLimitOf(settings), 12);
  assert.equal(read.keepaliveIntervalOf(settings), 20);
  assert.equal(read.monitorIntervalOf(settings), 30);
  assert.deepEqual(read.socketLimitsOf(settings), { maxMessageBytes: undefined, bufferLimitBytes: undefined, messageDeadlineMs: 10_000 });
  assert.deepEqual(read.handlerTuningOf(settings), { handler_concurrency: 16, handler_queue_limit: 10_000, handler_timeout: 600 });
  assert.equal(read.legacyApiCredentialsOf(settings), null);
  assert.equal(read.legacyApiCorsOf(settings).Origin, '*');
  assert.deepEqual(read.configuredChecks(settings), {});
  assert.deepEqual(read.configuredAssets(settings), {});
  assert.deepEqual(read.serverSettingsOf(settings), {});
  assert.deepEqual(read.assetSettingsOf(settings), {});
  assert.deepEqual(read.legacyApiListenerOf(settings), {});
  assert.deepEqual(read.v2ApiListenerOf(settings), {});
  // Legacy's own defaults are in the merged settings already (transport rabbitmq, keepalive thresholds).
  assert.equal(read.configuredTransportName(settings), 'rabbitmq');
  for (const unset of [read.configuredStoreDsn, read.storeQuotaOf, read.defaultCheckTimeoutOf]) assert.equal(unset(settings), undefined);
});

test('configured values win over the defaults; an entity limit or buffer that is not a whole number keeps the default', () => {
  const settings = settingsOf({
    api: { port: 4568, user: 'admin', password: 'secret', cors: { Origin: 'https://example.test' } },
    sensu: { spawn: { limit: 3 }, server: { max_message_size: 1024 }, keepalives: { thresholds: { warning: 60 } } },
    transport: { name: 'redis' },
    checkbridge: {
      namespace: 'ops',
      entity_limit: 2.5,
      transport_buffer: 5,
      keepalive_interval: 7,
      monitor_interval: 9,
      socket_buffer_limit: 2048,
      socket_message_timeout: 3,
      handler_concurrency: 4,
      store: { dsn: 'postgres://db/x' },
      store_quota: 1_000_000,
      default_timeout: 60,
      v2_api: { port: 8088 },
    },
  });
  assert.equal(read.legacyNamespace(settings), 'ops');
  assert.equal(read.entityLimitOf(settings), 100);
  assert.equal(read.resultBufferOf(settings), 5);
  assert.equal(read.spawnLimitOf(settings), 3);
  assert.equal(read.keepaliveIntervalOf(settings), 7);
  assert.equal(read.monitorIntervalOf(settings), 9);
  assert.deepEqual(read.socketLimitsOf(settings), { maxMessageBytes: 1024, bufferLimitBytes: 2048, messageDeadlineMs: 3000 });
  assert.deepEqual(read.handlerTuningOf(settings), { handler_concurrency: 4, handler_queue_limit: 10_000, handler_timeout: 600 });
  assert.deepEqual(read.legacyApiCredentialsOf(settings), { user: 'admin', password: 'secret' });
  assert.equal(read.legacyApiCorsOf(settings).Origin, 'https://example.test');
  assert.equal(read.legacyApiCorsOf(settings).Methods, 'GET, POST, PUT, DELETE, OPTIONS');
  assert.equal((read.keepaliveDefaultsOf(settings) as { thresholds: { warning: number } }).thresholds.warning, 60);
  assert.equal(read.configuredTransportName(settings), 'redis');
  assert.equal(read.configuredStoreDsn(settings), 'postgres://db/x');
  assert.equal(read.storeQuotaOf(settings), 1_000_000);
  assert.equal(read.defaultCheckTimeoutOf(settings), 60);
  assert.equal(read.legacyApiListenerOf(settings).port, 4568);
  assert.equal(read.v2ApiListenerOf(settings).port, 8088);
});

test("an agent's largest message: checkbridge.agentd.max_message_bytes when a positive whole number, else 1 MiB", () => {
  const limit = (value: unknown) => read.agentdMaxMessageBytesOf(settingsOf({ checkbridge: { agentd: { max_message_bytes: value } } }));
  assert.equal(read.agentdMaxMessageBytesOf(settingsOf({})), 1024 * 1024);
  assert.equal(limit(4096), 4096);
  assert.equal(limit('4096'), 4096, 'a number written as a string');
  for (const refused of [0, -1, 1.5, 'big', null]) assert.equal(limit(refused), 1024 * 1024, String(refused));
});
