import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { StateStore } from '../../src/store/index.js';
import { buildV2Api } from '../../src/api/v2/server.js';
import { TokenIssuer, newSigningKey, hashApiKey } from '../../src/auth/tokens.js';
import { ensureAdmin } from '../../src/auth/bootstrap.js';
import { BridgeSender } from '../../src/bridge/sender.js';
import { createLogger } from '../../src/log.js';
import { Intake } from '../../src/intake/intake.js';
import { systemClock } from '../../src/schedule/clock.js';
import { settingsOf } from '../helpers/settings.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { freePort } from '../helpers/net.js';

const KEY = '11111111-2222-4333-8444-555555555555';

function body(i: number): string {
  return JSON.stringify({
    entity: { entity_class: 'proxy', metadata: { name: `host-${i % 100}` } },
    check: { metadata: { name: `check-${i % 10}` }, publish: false, status: i % 3, output: `output ${i}`, executed: 1_700_000_000 + i },
  });
}

/** Events/s delivered to a backend (outbox durable in SQLite on both sides), and the drain of a 60,000-event backlog. */
export async function benchBridge(report: (figure: object) => void): Promise<void> {
  const dir = makeTree({});
  const logger = createLogger('silent');
  const backendStore = StateStore.open(join(dir, 'backend.db'));
  await ensureAdmin(backendStore.resources, { CHECKBRIDGE_ADMIN_PASSWORD: 'bench-password' }, () => undefined);
  // As the daemon's v2 API, without the entity limit (no entity gate was given before the one intake).
  const settings = settingsOf({ client: { name: 'bench', address: '127.0.0.1', subscriptions: [] }, checkbridge: { entity_limit: 0 } });
  const intake = new Intake(backendStore, () => settings, systemClock, logger);
  backendStore.resources.putApiKey({ keyHash: hashApiKey(KEY), username: 'admin', createdBy: 'bench', createdAt: 0, hint: KEY.slice(0, 8) });
  const backend = buildV2Api({
    store: backendStore,
    tokens: new TokenIssuer(newSigningKey()),
    logger,
    clock: systemClock,
    spawn: async () => ({ status: 0, output: '', timedOut: false, signal: null, durationMs: 0 }),
    intake,
  });
  const port = await freePort();
  const senderStore = StateStore.open(join(dir, 'sender.db'));
  const enqueue = (count: number, offset: number) =>
    senderStore.transaction(() => {
      for (let i = offset; i < offset + count; i++) senderStore.outbox.add('default', `host-${i % 100}`, `check-${i % 10}`, body(i), Date.now());
    });
  const sender = new BridgeSender(
    senderStore.outbox,
    { url: `http://127.0.0.1:${port}`, apiKey: KEY, namespace: 'default', timeout: 10, concurrency: 16 },
    logger,
  );
  const drained = async () => {
    while (senderStore.outbox.stats(Date.now()).depth > 0) {
      sender.kick();
      await sleep(5);
    }
  };
  try {
    await backend.listen({ host: '127.0.0.1', port });
    sender.start();
    const steady = 10_000;
    let started = performance.now();
    for (let b = 0; b < steady; b += 1000) {
      enqueue(1000, b);
      sender.kick();
      await sleep(1);
    }
    await drained();
    const steadyRate = steady / ((performance.now() - started) / 1000);
    report({
      bench: 'bridge.delivered',
      events: steady,
      events_per_s: Math.round(steadyRate),
      entity_checks: 1000,
      concurrency: 16,
      durability: 'sqlite WAL on both sides',
    });

    // Outage: the backend goes away; 60 s at 1,000 events/s is a backlog of 60,000 (enqueued here at once).
    await backend.close();
    enqueue(60_000, steady);
    sender.kick();
    await sleep(2000);
    const backlog = senderStore.outbox.stats(Date.now()).depth;
    const backend2 = buildV2Api({
      store: backendStore,
      tokens: new TokenIssuer(newSigningKey()),
      logger,
      clock: systemClock,
      spawn: async () => ({ status: 0, output: '', timedOut: false, signal: null, durationMs: 0 }),
      intake,
    });
    await backend2.listen({ host: '127.0.0.1', port });
    started = performance.now();
    await drained();
    const drainS = (performance.now() - started) / 1000;
    report({
      bench: 'bridge.drain_after_outage',
      backlog,
      drain_s: +drainS.toFixed(1),
      events_per_s: Math.round(backlog / drainS),
      includes_backoff_wait: true,
      delivered_total: senderStore.outbox.stats(Date.now()).delivered,
    });
    await backend2.close();
  } finally {
    await sender.stop();
    senderStore.close();
    backendStore.close();
    removeTree(dir);
  }
}
