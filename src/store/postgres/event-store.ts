import type pg from 'pg';
import type { EventQuery, EventRow, V2EventStore } from '../event-store.js';
import { CheckbridgeError } from '../../errors.js';
import { updateEvent, HISTORY_LENGTH, type Event } from '../../v2/index.js';
import { PG_MIGRATIONS, PG_SCHEMA_VERSION } from './schema.js';
import { selectorColumn, selectorSql } from './selector-sql.js';

const COLUMNS =
  'sensu_namespace, sensu_entity, sensu_check, status, last_ok, occurrences, occurrences_wm, history_index, history_status, history_ts, state, total_state_change, serialized, selectors';
const READ = 'serialized, merged, status, last_ok, occurrences, occurrences_wm, history_index, history_status, history_ts, state, total_state_change';
// A constant key for the migration lock: servers starting together migrate once.
const MIGRATION_LOCK = 0x63627067;

/** The columns of an event stored as given: the ring holds its history in time order, the next slot after it. */
function columnsOf(row: EventRow): Readonly<Record<string, unknown>> {
  const check = row.event.check ?? {};
  const history = (check.history ?? []).slice(-HISTORY_LENGTH);
  return {
    ns: row.namespace,
    entity: row.entity,
    check: row.check,
    status: Number(check.status ?? 0),
    last_ok: Number(check.last_ok ?? 0),
    occurrences: Number(check.occurrences ?? 0),
    occurrences_wm: Number(check.occurrences_watermark ?? 0),
    history_index: (history.length % HISTORY_LENGTH) + 1,
    history_status: history.map((h) => Number(h.status ?? 0)),
    history_ts: history.map((h) => Number(h.executed ?? 0)),
    state: String(check.state ?? ''),
    total_state_change: Number(check.total_state_change ?? 0),
    serialized: JSON.stringify(row.event),
    selectors: selectorColumn(row.event),
  };
}

const RECORDSET = `jsonb_to_recordset($1::jsonb) AS r(ns text, entity text, "check" text, status integer, last_ok bigint, occurrences integer,
  occurrences_wm integer, history_index integer, history_status integer[], history_ts bigint[], state text, total_state_change integer,
  serialized text, selectors jsonb)`;
const VALUES =
  'r.ns, r.entity, r."check", r.status, r.last_ok, r.occurrences, r.occurrences_wm, r.history_index, r.history_status, r.history_ts, r.state, r.total_state_change, r.serialized, r.selectors';

const PUT_MANY = `INSERT INTO events (${COLUMNS}) SELECT ${VALUES} FROM ${RECORDSET}
  ON CONFLICT (sensu_namespace, sensu_entity, sensu_check) DO UPDATE SET
    status = excluded.status, last_ok = excluded.last_ok, occurrences = excluded.occurrences, occurrences_wm = excluded.occurrences_wm,
    history_index = excluded.history_index, history_status = excluded.history_status, history_ts = excluded.history_ts,
    state = excluded.state, total_state_change = excluded.total_state_change, serialized = excluded.serialized,
    previous_serialized = events.serialized, selectors = excluded.selectors, merged = false`;

// First write: the values the update logic gives a new event. Later writes: the ring and counters merged here, in one statement.
const UPDATE = `INSERT INTO events (${COLUMNS}) SELECT ${VALUES} FROM ${RECORDSET}
  ON CONFLICT (sensu_namespace, sensu_entity, sensu_check) DO UPDATE SET
    (status, last_ok, occurrences, occurrences_wm, history_index, history_status, history_ts, state, total_state_change, selectors) =
      (SELECT m.status, m.last_ok, m.occurrences, m.occurrences_wm, m.history_index, m.history_status, m.history_ts, m.state, m.total_state_change,
              excluded.selectors || jsonb_build_object('event.check.last_ok', m.last_ok::text, 'event.check.state', m.state)
         FROM cb_merge_event(events.status, events.last_ok, events.occurrences, events.occurrences_wm, events.history_index,
                             events.history_status, events.history_ts, excluded.status, $2::bigint, $3::integer, $4::integer) m),
    serialized = excluded.serialized, previous_serialized = events.serialized, merged = true
  RETURNING ${READ}`;

/** The columns READ selects, as node-postgres gives them (bigint columns as strings). */
interface ReadColumns {
  readonly serialized: string;
  readonly merged: boolean;
  readonly status: number;
  readonly last_ok: string;
  readonly occurrences: number;
  readonly occurrences_wm: number;
  readonly history_index: number;
  readonly history_status: number[];
  readonly history_ts: string[];
  readonly state: string;
  readonly total_state_change: number;
}

/** An event from its row: merged rows get their history (in time order) and counters from the columns. */
function eventOf(row: ReadColumns): Event {
  const event = JSON.parse(row.serialized) as Event;
  if (!row.merged) return event;
  const next = Number(row.history_index);
  const rotate = <T>(values: T[]) => (values.length < HISTORY_LENGTH ? values : [...values.slice(next - 1), ...values.slice(0, next - 1)]);
  const statuses = rotate(row.history_status);
  const times = rotate(row.history_ts.map(Number));
  // A merged row was written by update, whose event has a check (updateEvent requires one).
  Object.assign(event.check!, {
    history: statuses.map((status, i) => ({ status, executed: times[i] })),
    status: row.status,
    state: row.state,
    total_state_change: row.total_state_change,
    last_ok: Number(row.last_ok),
    occurrences: row.occurrences,
    occurrences_watermark: row.occurrences_wm,
  });
  return event;
}

/** The PostgreSQL event store: selectors run in the database on the GIN-indexed jsonb column. */
export class PostgresEventStore implements V2EventStore {
  constructor(
    readonly pool: pg.Pool,
    readonly label: string,
  ) {}

  /** Creates or migrates the schema under an advisory lock; a database from a newer checkbridge is refused, untouched. */
  static async migrate(pool: pg.Pool): Promise<number> {
    const client = await pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await client.query('CREATE TABLE IF NOT EXISTS checkbridge_schema (version integer NOT NULL)');
      const found = await client.query('SELECT version FROM checkbridge_schema');
      const version = found.rows.length ? Number(found.rows[0].version) : 0;
      if (version > PG_SCHEMA_VERSION)
        throw new CheckbridgeError('CB_STORE_NEWER', `PostgreSQL event store has schema version ${version}, this binary knows ${PG_SCHEMA_VERSION}`);
      for (let v = version; v < PG_SCHEMA_VERSION; v++) {
        await client.query('BEGIN');
        try {
          await client.query(PG_MIGRATIONS[v]!);
          await client.query('DELETE FROM checkbridge_schema');
          await client.query('INSERT INTO checkbridge_schema VALUES ($1)', [v + 1]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
      }
      return PG_SCHEMA_VERSION;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
      client.release();
    }
  }

  async get(namespace: string, entity: string, check: string): Promise<Event | null> {
    const found = await this.pool.query<ReadColumns>(`SELECT ${READ} FROM events WHERE sensu_namespace = $1 AND sensu_entity = $2 AND sensu_check = $3`, [
      namespace,
      entity,
      check,
    ]);
    return found.rows.length ? eventOf(found.rows[0]) : null;
  }

  async list(query: EventQuery): Promise<Event[]> {
    const params: unknown[] = [];
    const where: string[] = [];
    if (query.namespace !== null) where.push(`sensu_namespace = $${params.push(query.namespace)}`);
    if (query.entity !== undefined) where.push(`sensu_entity = $${params.push(query.entity)}`);
    if (query.fields?.length) where.push(selectorSql(query.fields, false, params));
    if (query.labels?.length) where.push(selectorSql(query.labels, true, params));
    const sql = `SELECT ${READ} FROM events ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY sensu_namespace COLLATE "C", sensu_entity COLLATE "C", sensu_check COLLATE "C"`;
    return (await this.pool.query<ReadColumns>(sql, params)).rows.map(eventOf);
  }

  async delete(namespace: string, entity: string, check: string): Promise<boolean> {
    const done = await this.pool.query('DELETE FROM events WHERE sensu_namespace = $1 AND sensu_entity = $2 AND sensu_check = $3', [namespace, entity, check]);
    return (done.rowCount ?? 0) > 0;
  }

  /** One multi-row INSERT ... ON CONFLICT for the whole batch (a group commit), whatever its size. */
  async putMany(rows: readonly EventRow[]): Promise<void> {
    if (rows.length === 0) return;
    // One statement may not touch a row twice: the last write of a key wins, as it would one by one.
    const last = new Map<string, EventRow>();
    for (const row of rows) last.set(JSON.stringify([row.namespace, row.entity, row.check]), row);
    await this.pool.query(PUT_MANY, [JSON.stringify([...last.values()].map(columnsOf))]);
  }

  async update(row: EventRow, nowSeconds: number): Promise<Event> {
    const first = updateEvent(null, row.event, nowSeconds);
    // updateEvent requires a check (it reads event.check!): it has thrown already when there is none.
    const check = first.check!;
    const done = await this.pool.query<ReadColumns>(UPDATE, [
      JSON.stringify([columnsOf({ ...row, event: first })]),
      Number(check.executed ?? 0),
      Number(check.low_flap_threshold ?? 0),
      Number(check.high_flap_threshold ?? 0),
    ]);
    return eventOf(done.rows[0]);
  }

  async hasEvents(namespace: string): Promise<boolean> {
    return (await this.pool.query('SELECT 1 FROM events WHERE sensu_namespace = $1 LIMIT 1', [namespace])).rows.length > 0;
  }

  /** Healthy: connected and the events table can be queried. */
  async probe(): Promise<void> {
    await this.pool.query('SELECT 1 FROM events LIMIT 1');
  }
}
