// Datastore read requests over 100 ms and log syncs over 1 s are logged as warnings (thresholds settable).
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { datastoreWarningsOf, type Settings } from '../config/index.js';
import type { SqlDatabase, SqlParam, SqlStatement } from './sql/database.js';

export interface DatastoreWatch {
  /** Milliseconds a read may take before it is reported. */
  readonly readMs: () => number;
  /** Milliseconds a log sync (a WAL checkpoint and its fsync, a PostgreSQL COMMIT) may take before it is reported. */
  readonly syncMs: () => number;
  readonly report: (kind: 'read' | 'log sync', ms: number, what: string) => void;
}

/** The daemon's watch: the thresholds of the settings in force (live, so a test can lower them), each slow one a warning. */
export class DatastoreWarnings implements DatastoreWatch {
  constructor(
    private readonly settings: () => Settings,
    private readonly log: Logger,
    private readonly engine: 'sqlite' | 'postgres',
  ) {}

  readonly readMs = (): number => datastoreWarningsOf(this.settings()).readMs;

  readonly syncMs = (): number => datastoreWarningsOf(this.settings()).syncMs;

  readonly report = (kind: 'read' | 'log sync', ms: number, what: string): void => {
    const { readMs, syncMs } = datastoreWarningsOf(this.settings());
    this.log.warn({ kind, ms: Math.round(ms * 10) / 10, what, engine: this.engine }, `datastore ${kind} took over ${kind === 'read' ? readMs : syncMs} ms`);
  };
}

/** Where the store's statements look for a watch: none until the daemon sets one (then each read is timed). */
export class WatchHolder {
  watch: DatastoreWatch | null = null;

  /** Reports `ms` of a log sync when it is over the threshold. */
  sync(ms: number, what: string): void {
    const watch = this.watch;
    if (watch && ms > watch.syncMs()) watch.report('log sync', ms, what);
  }
}

// The statement's first words name it in the warning; never its parameters (they may be secrets).
const labelOf = (sql: string) => sql.replace(/\s+/g, ' ').trim().slice(0, 80);

function timedStatement(statement: SqlStatement, sql: string, holder: WatchHolder): SqlStatement {
  const timed = <T>(read: () => T): T => {
    const watch = holder.watch;
    if (!watch) return read();
    const started = performance.now();
    try {
      return read();
    } finally {
      const ms = performance.now() - started;
      if (ms > watch.readMs()) watch.report('read', ms, labelOf(sql));
    }
  };
  // SQLite's lazy `iterate` (the TTL monitor's walk) is passed through untimed: its rows are read as it is consumed.
  const iterate = (statement as { iterate?: (...params: SqlParam[]) => unknown }).iterate;
  return {
    get: (...params: SqlParam[]) => timed(() => statement.get(...params)),
    all: (...params: SqlParam[]) => timed(() => statement.all(...params)),
    run: (...params: SqlParam[]) => statement.run(...params),
    ...(iterate ? { iterate: (...params: SqlParam[]) => iterate.apply(statement, params) } : {}),
  };
}

/** `db` whose prepared statements time their reads (`get`, `all`) against the holder's watch. */
export function watchedDatabase<D extends SqlDatabase>(db: D, holder: WatchHolder): SqlDatabase {
  return {
    prepare: (sql: string) => timedStatement(db.prepare(sql), sql, holder),
    transaction: (fn) => db.transaction(fn),
    get inTransaction() {
      return db.inTransaction;
    },
    get open() {
      return db.open;
    },
    get name() {
      return db.name;
    },
    close: () => db.close(),
  };
}
