// npm run bench -- postgres: results/s through the client socket with the PostgreSQL event store, beside the SQLite
// store and a bare batched INSERT ... ON CONFLICT into the same PostgreSQL; fieldSelector over 100,000 events.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { bareUpsertRate } from './load/pg-upsert.js';
import { StateStore } from '../../src/store/index.js';
import { EmbeddedEventStore } from '../../src/store/tables/embedded-event-store.js';
import { PostgresEventStore } from '../../src/store/postgres/event-store.js';
import { EventStoreRouter } from '../../src/store/postgres/event-router.js';
import { Intake } from '../../src/intake/intake.js';
import { legacyToV2Writer } from '../../src/intake/legacy-to-v2.js';
import { listenClientSocket } from '../../src/client/socket.js';
import { systemClock } from '../../src/schedule/clock.js';
import { createLogger } from '../../src/log.js';
import { parseSelector } from '../../src/v2/selectors.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { settingsOf } from '../helpers/settings.js';
import { postgresMissing, startPostgres } from '../servers/postgres.js';
import { drive } from './socket-drive.js';

import type { Json } from '../../src/json.js';

/** Results per second: `payloads`, each carrying `perPayload` results, over `width` connections at a time. */
async function rate(port: number, payloads: string[], width: number, perPayload: number): Promise<number> {
  return Math.round((payloads.length * perPayload) / (await drive(port, payloads, width)).seconds);
}

/** One `checkbridge run`-shaped intake (legacy result, v2 event, entity) over a client socket, into `router`'s store. */
async function socketRates(dir: string, name: string, withPostgres: string | null): Promise<Json> {
  const logger = createLogger('silent');
  const store = StateStore.open(join(dir, `${name}.db`));
  const router = new EventStoreRouter({
    embedded: new EmbeddedEventStore(store.resources, (fn) => store.transaction(fn)),
    resources: store.resources,
    env: {},
    logger,
  });
  await router.start();
  if (withPostgres)
    await router.configure({ type: 'PostgresConfig', api_version: 'store/v1', metadata: { name }, spec: { dsn: withPostgres, pool_size: 8, strict: true } });
  const settings = settingsOf({ client: { name: 'bench', address: '127.0.0.1', subscriptions: [] } });
  const intake = new Intake(store, () => settings, systemClock, logger);
  intake.withinTransaction(legacyToV2Writer(store, () => 'default', null, router));
  intake.afterCommit((committed) => router.flushStaged(committed));
  const listeners = await listenClientSocket({ bind: '127.0.0.1', port: 0, intake, logger, client: () => ({ name: 'bench' }), clock: systemClock });
  try {
    const result = (i: number, check: number) => ({ name: `check_${check}`, output: `output ${i}`, status: i % 3 });
    const singles = Array.from({ length: 10_000 }, (_, i) => JSON.stringify(result(i, i % 500)));
    const arrays = Array.from({ length: 100 }, (_, c) => JSON.stringify(Array.from({ length: 100 }, (_, i) => result(c * 100 + i, i))));
    await drive(listeners.tcp.port, singles.slice(0, 1000), 32);
    return {
      one_per_connection_64_wide: await rate(listeners.tcp.port, singles, 64, 1),
      arrays_of_100_8_wide: await rate(listeners.tcp.port, arrays, 8, 100),
      event_store: router.label,
    };
  } finally {
    await listeners.close();
    await router.close();
    store.close();
  }
}

export async function benchPostgres(report: (figure: object) => void): Promise<void> {
  const missing = postgresMissing();
  if (missing) return report({ bench: 'postgres', skipped: missing });
  const server = await startPostgres();
  const dir = makeTree({});
  try {
    await server.query('CREATE DATABASE bench');
    const dsn = server.url('postgres', 'bench');

    // The same-run baseline: batched upserts straight into the same PostgreSQL.
    const rawRate = await bareUpsertRate(dsn, 200_000);

    const sqlite = await socketRates(dir, 'sqlite', null);
    const postgres = await socketRates(dir, 'pg', dsn);
    report({ bench: 'postgres.socket_results_per_s', postgres, sqlite, bare_insert_on_conflict_rows_per_s: rawRate, batch_rows: 100, in_flight: 8 });

    // fieldSelector over 100,000 events (a database of their own): in PostgreSQL (GIN index) vs in memory over SQLite.
    await server.query('CREATE DATABASE bench_select');
    const selectPool = new pg.Pool({ connectionString: server.url('postgres', 'bench_select'), max: 2 });
    const pgStore = new PostgresEventStore(selectPool, 'postgres:bench');
    await PostgresEventStore.migrate(selectPool);
    const sqliteStore = StateStore.open(join(dir, 'select.db'));
    const sqliteEvents = new EmbeddedEventStore(sqliteStore.resources, (fn) => sqliteStore.transaction(fn));
    const event = (i: number): Json => ({
      entity: { entity_class: 'proxy', metadata: { name: `host-${i % 10_000}`, namespace: 'default' }, subscriptions: ['linux'] },
      check: {
        metadata: { name: `check-${Math.floor(i / 10_000)}`, namespace: 'default', labels: i % 1000 === 0 ? { tier: 'rare' } : {} },
        status: i % 3,
        executed: i,
        output: 'ok',
        handlers: ['default'],
      },
      metadata: { namespace: 'default' },
      id: `id-${i}`,
      timestamp: i,
    });
    for (let b = 0; b < 100_000; b += 1000) {
      const batch = Array.from({ length: 1000 }, (_, k) => event(b + k)).map((e) => ({
        namespace: 'default',
        entity: e.entity.metadata.name,
        check: e.check.metadata.name,
        event: e,
      }));
      await pgStore.putMany(batch);
      await sqliteEvents.putMany(batch);
    }
    await selectPool.query('ANALYZE events');
    const queries = { selective_100_of_100000: 'event.labels.tier == rare', broad_33334_of_100000: 'event.check.status == 0' };
    for (const [label, text] of Object.entries(queries)) {
      const ops = parseSelector(text);
      const time = async (store: { list: PostgresEventStore['list'] }, runs: number) => {
        const found = (await store.list({ namespace: 'default', fields: ops })).length;
        const start = performance.now();
        for (let i = 0; i < runs; i++) await store.list({ namespace: 'default', fields: ops });
        return { ms_per_query: +((performance.now() - start) / runs).toFixed(1), matched: found };
      };
      report({
        bench: `postgres.field_selector.${label}`,
        selector: text,
        events: 100_000,
        postgres: await time(pgStore, 20),
        sqlite_in_memory: await time(sqliteEvents, 3),
      });
    }
    sqliteStore.close();
    await selectPool.end();
  } finally {
    server.stop();
    removeTree(dir);
  }
}
