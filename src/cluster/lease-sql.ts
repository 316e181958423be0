// The leadership lease: one row in PostgreSQL, its expiry computed by the database's own clock.

/** The lease every server of one database contends for. */
export const LEASE_NAME = 'tasks';

export const CREATE_LEASE_SQL = `CREATE TABLE IF NOT EXISTS checkbridge_leadership (
  name text PRIMARY KEY, holder text NOT NULL, backend integer NOT NULL, term bigint NOT NULL, expires_at timestamptz NOT NULL)`;

// Taken when free: expired, held by this elector before, or its holder's session gone (a killed server frees it at once).
export const ACQUIRE_SQL = `INSERT INTO checkbridge_leadership AS l (name, holder, backend, term, expires_at)
  VALUES ($1, $2, pg_backend_pid(), 1, now() + $3::int * interval '1 millisecond')
  ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, backend = EXCLUDED.backend, term = l.term + 1, expires_at = EXCLUDED.expires_at
  WHERE l.expires_at <= now() OR l.holder = EXCLUDED.holder OR NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = l.backend)
  RETURNING term::text AS term`;

// Extended only by its holder, in the term it won, before it expired: a lease lost meanwhile stays lost.
export const RENEW_SQL = `UPDATE checkbridge_leadership SET expires_at = now() + $4::int * interval '1 millisecond', backend = pg_backend_pid()
  WHERE name = $1 AND holder = $2 AND term = $3::bigint AND expires_at > now()
  RETURNING term::text AS term`;

export const RELEASE_SQL = `UPDATE checkbridge_leadership SET expires_at = '-infinity' WHERE name = $1 AND holder = $2 AND term = $3::bigint`;

// The sessions of the election in this database, and whether each holds the lease now.
export const SERVERS_SQL = `SELECT a.application_name AS application, host(a.client_addr) AS address, COALESCE(a.pid = l.backend, false) AS leader
  FROM pg_stat_activity a
  LEFT JOIN checkbridge_leadership l ON l.name = $1 AND l.expires_at > now()
  WHERE a.datname = current_database() AND a.application_name LIKE $2
  ORDER BY a.application_name`;
