// The bridge as a service, against a real HTTP backend: the sender kicked every tick sends what waits in the outbox,
// the outbox figures are logged every few ticks, and nothing is sent after stop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { BridgeSender, OutboxTicker, bridgeConfigOf } from '../../src/bridge/index.js';
import { capturedLogger } from '../helpers/log-capture.js';
import { sqliteStore } from '../helpers/sqlite-store.js';
import { until } from '../helpers/wait.js';

test('every tick the sender sends what waits; the figures are logged every few ticks; nothing after stop', async (t) => {
  const store = sqliteStore(t);
  const received: string[] = [];
  const backend = createServer((request, response) => {
    received.push(`${request.method} ${request.url}`);
    request.resume();
    request.on('end', () => response.writeHead(201).end());
  });
  backend.listen(0, '127.0.0.1');
  await once(backend, 'listening');
  t.after(() => backend.close());
  const url = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
  const { logger, lines } = capturedLogger();
  const sender = new BridgeSender(store.outbox, bridgeConfigOf({ url, api_key: 'k' }, {}, {})!, logger);
  const ticker = new OutboxTicker(sender, { status: () => sender.status, outbox: store.outbox }, logger, 20, 5);
  assert.equal(ticker.name, 'bridge');
  sender.start();
  await sleep(50); // the start's own pump has found the outbox empty
  await ticker.start();
  // Written without a kick: only the tick sends it.
  store.outbox.add('default', 'web-1', 'disk', '{}', Date.now());
  assert.ok(await until(() => received.length === 1, 5000), 'sent on a tick');
  assert.equal(received[0], 'PUT /api/core/v2/namespaces/default/events/web-1/disk');
  assert.ok(await until(() => lines.some((l) => l.msg === 'bridge outbox' && l.delivered === 1), 5000), 'the figures logged');
  const figures = lines.find((l) => l.msg === 'bridge outbox' && l.delivered === 1)!;
  assert.deepEqual([figures.component, figures.depth, figures.status], ['bridge', 0, sender.status]);

  await ticker.stop();
  store.outbox.add('default', 'web-1', 'cpu', '{}', Date.now());
  await sleep(200);
  assert.equal(received.length, 1, 'nothing sent after stop');
});

test('without a bridge the ticks do nothing and log nothing', async () => {
  const { logger, lines } = capturedLogger();
  const ticker = new OutboxTicker(null, null, logger, 10, 2);
  await ticker.start();
  await sleep(100);
  await ticker.stop();
  assert.deepEqual(lines, []);
});
