// The kept messages of the cluster channel: a row per message a server may not have heard, its expiry by the sender.

/** The advisory lock that serialises creating the table of kept messages: ('chkb', 2). */
export const KEPT_LOCK = [0x63686b62, 2] as const;

export const CREATE_KEPT_SQL = `CREATE TABLE IF NOT EXISTS checkbridge_channel_kept (
  seq bigserial PRIMARY KEY, id uuid NOT NULL UNIQUE, channel text NOT NULL, sender text NOT NULL,
  at timestamptz NOT NULL DEFAULT now(), until timestamptz NOT NULL, text text NOT NULL);
  CREATE INDEX IF NOT EXISTS checkbridge_channel_kept_until ON checkbridge_channel_kept (until)`;

/** The notifications of one turn: $1 channel, $2 pieces. */
export const NOTIFY_SQL = 'SELECT pg_notify($1, p) FROM unnest($2::text[]) WITH ORDINALITY AS t(p, n) ORDER BY n';

// Kept rows and their notifications commit together; a row sent again (its outcome unknown) is not stored twice.
// Expired rows stay a minute more, so that a server coming back still sees (and logs) what it missed.
export const KEEP_AND_NOTIFY_SQL = `WITH gone AS (DELETE FROM checkbridge_channel_kept WHERE until < now() - interval '1 minute'),
  kept AS (INSERT INTO checkbridge_channel_kept (id, channel, sender, until, text)
    SELECT k.id, $1, $3, to_timestamp(k.until / 1000.0), k.text FROM unnest($4::uuid[], $5::float8[], $6::text[]) WITH ORDINALITY AS k(id, until, text, n)
    ORDER BY k.n ON CONFLICT (id) DO NOTHING)
  ${NOTIFY_SQL}`;

/** The database's time, read right after LISTEN: rows from then on are ones this server may have missed. */
export const NOW_SQL = 'SELECT now() AS now';

// Read after LISTEN: what committed before is here, what commits after is notified.
export const MISSED_SQL = `SELECT text FROM (SELECT seq, text FROM checkbridge_channel_kept
  WHERE channel = $1 AND sender <> $2 AND at >= $3 AND until >= now() - interval '1 minute' ORDER BY seq DESC LIMIT $4) r ORDER BY seq`;
