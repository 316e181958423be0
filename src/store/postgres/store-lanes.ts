// A PostgreSQL store's connections: the statements' (blocking), and the units' and the reader's, opened on first use.
// Awaited units' and the reader's run on the main thread once the store listens for other servers' changes (a
// daemon's, whose thread must never wait on the network); blocking units' (legacy results), and a command's, in
// worker threads, where a read a unit did not name may block (750 ms at most).
import type { PgEnvironment } from './connection.js';
import { workerLink } from './connection-link.js';
import { LanedPostgres, type UnitKind } from './laned-connection.js';
import { mainThreadLink } from './main-thread-link.js';
import { STORE_SCHEMA } from './store-schema.js';
import type { SyncPostgres } from './sync-client.js';
import { UnitPostgres } from './unit-connection.js';

/** What the lanes ask of the store they serve, once it exists. */
export interface LanesReach {
  readonly listening: boolean;
  outOfReach(): string | null;
}

export function storeLanes(db: SyncPostgres, where: { dsn: string; env: PgEnvironment }, reach: () => LanesReach | undefined, count: number): LanedPostgres {
  const unit = (kind: UnitKind) => {
    const link = kind === 'awaited' && reach()?.listening ? mainThreadLink : workerLink;
    const lane = new UnitPostgres(where.dsn, where.env, db.name, STORE_SCHEMA, undefined, link);
    lane.onCommit = db.onCommit;
    return lane;
  };
  return new LanedPostgres(db, unit, () => reach()?.outOfReach() ?? null, count);
}
