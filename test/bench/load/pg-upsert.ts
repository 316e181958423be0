// The same-run PostgreSQL baseline: one INSERT ... ON CONFLICT DO UPDATE of 100 rows at a time, 8 statements in flight.
import { performance } from 'node:perf_hooks';
import pg from 'pg';

/** Rows/s upserted into a table of its own in the database of `dsn`. */
export async function bareUpsertRate(dsn: string, rows: number): Promise<number> {
  const pool = new pg.Pool({ connectionString: dsn, max: 8 });
  try {
    await pool.query('CREATE TABLE raw_bench (k text PRIMARY KEY, v text NOT NULL)');
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < rows) {
          const from = next;
          next += 100;
          const keys = Array.from({ length: 100 }, (_, i) => `k${(from + i) % 5000}`);
          await pool.query('INSERT INTO raw_bench SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT (k) DO UPDATE SET v = excluded.v', [
            keys,
            keys.map(() => '{"status":0,"output":"ok"}'),
          ]);
        }
      }),
    );
    return Math.round(rows / ((performance.now() - started) / 1000));
  } finally {
    await pool.end();
  }
}
