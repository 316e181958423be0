import type { SqlDatabase, SqlStatement } from '../sql/database.js';

export interface OutboxRow {
  readonly seq: number;
  readonly namespace: string;
  readonly entity: string;
  readonly check: string;
  readonly body: string;
  readonly enqueuedAt: number;
}

export interface DeadLetter extends Omit<OutboxRow, 'enqueuedAt'> {
  readonly status: number;
  readonly message: string;
  readonly failedAt: number;
}

const COLUMNS = 'seq, namespace, entity, check_name AS "check", body, enqueued_at AS "enqueuedAt"';

/** The bridge's outbox: rows leave only when delivered (or dead-lettered); order is kept per entity/check. */
export class Outbox {
  private readonly s: Record<string, SqlStatement>;

  constructor(private readonly db: SqlDatabase) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      add: p('INSERT INTO outbox (namespace, entity, check_name, body, enqueued_at) VALUES (?, ?, ?, ?, ?) RETURNING seq'),
      heads: p(`SELECT ${COLUMNS} FROM outbox WHERE seq IN (SELECT MIN(seq) FROM outbox GROUP BY namespace, entity, check_name) ORDER BY seq LIMIT ?`),
      remove: p('DELETE FROM outbox WHERE seq = ?'),
      depth: p('SELECT COUNT(*) AS depth, MIN(enqueued_at) AS oldest FROM outbox'),
      dead: p(
        'INSERT INTO dead_letters VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (seq) DO UPDATE SET namespace = excluded.namespace, entity = excluded.entity, ' +
          'check_name = excluded.check_name, body = excluded.body, status = excluded.status, message = excluded.message, failed_at = excluded.failed_at',
      ),
      deadList: p('SELECT seq, namespace, entity, check_name AS "check", body, status, message, failed_at AS "failedAt" FROM dead_letters ORDER BY seq'),
      count: p('INSERT INTO counters VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = counters.value + excluded.value'),
      counter: p('SELECT value FROM counters WHERE name = ?'),
    };
  }

  /** Enqueues one event body (a JSON object); call inside the transaction that stores the event. Returns its sequence. */
  add(namespace: string, entity: string, check: string, body: string, nowMs: number): number {
    return Number((this.s.add!.get(namespace, entity, check, body, nowMs) as { seq: number | bigint }).seq);
  }

  /** The oldest undelivered row of each entity/check, oldest first. */
  heads(limit: number): OutboxRow[] {
    return this.s.heads!.all(limit) as OutboxRow[];
  }

  /** One commit for the rows and the counter. */
  delivered(...seqs: number[]): void {
    this.db.transaction(() => {
      for (const seq of seqs) this.s.remove!.run(seq);
      this.s.count!.run('delivered', seqs.length);
    })();
  }

  deadLetter(row: OutboxRow, status: number, message: string, nowMs: number): void {
    this.db.transaction(() => {
      this.s.dead!.run(row.seq, row.namespace, row.entity, row.check, row.body, status, message, nowMs);
      this.s.remove!.run(row.seq);
      this.s.count!.run('dead_lettered', 1);
    })();
  }

  deadLetters(): DeadLetter[] {
    return this.s.deadList!.all() as DeadLetter[];
  }

  stats(nowMs: number): { depth: number; oldest_age_s: number; delivered: number; dead_lettered: number } {
    const { depth, oldest } = this.s.depth!.get() as { depth: number; oldest: number | null };
    const counter = (name: string) => (this.s.counter!.get(name) as { value: number } | undefined)?.value ?? 0;
    return {
      depth,
      oldest_age_s: oldest === null ? 0 : Math.max(0, Math.round((nowMs - oldest) / 1000)),
      delivered: counter('delivered'),
      dead_lettered: counter('dead_lettered'),
    };
  }
}
