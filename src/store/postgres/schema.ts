// The PostgreSQL event store's schema: versioned in checkbridge_schema, migrated on start.
export const PG_MIGRATIONS: readonly string[] = [
  // 1: events keyed by namespace/entity/check with the history ring of 21, counters, and a GIN-indexed selectors column.
  `CREATE TABLE events (
     id bigserial PRIMARY KEY,
     sensu_namespace text NOT NULL,
     sensu_entity text NOT NULL,
     sensu_check text NOT NULL,
     status integer NOT NULL,
     last_ok bigint NOT NULL,
     occurrences integer NOT NULL,
     occurrences_wm integer NOT NULL,
     history_index integer NOT NULL DEFAULT 2,
     history_status integer[] NOT NULL,
     history_ts bigint[] NOT NULL,
     state text NOT NULL,
     total_state_change integer NOT NULL,
     serialized text NOT NULL,
     previous_serialized text,
     selectors jsonb NOT NULL,
     -- true when the counters above were merged in the database: reads lay them over the serialized event.
     merged boolean NOT NULL DEFAULT false,
     UNIQUE (sensu_namespace, sensu_entity, sensu_check));
   CREATE INDEX idxginevents ON events USING GIN (selectors jsonb_path_ops);
   -- The ring in time order: slots from the next one to write (the oldest) round to the last written.
   CREATE FUNCTION cb_history_order(h anyarray, next_index integer) RETURNS anyarray LANGUAGE sql IMMUTABLE AS
     $$ SELECT CASE WHEN cardinality(h) < 21 THEN h ELSE h[next_index:21] || h[1:next_index - 1] END $$;
   -- total_state_change of the v2 backend: float32 of the weighted sum, /20*100, truncated.
   CREATE FUNCTION cb_total_state_change(h integer[]) RETURNS integer LANGUAGE plpgsql IMMUTABLE AS $$
     DECLARE w float8 := 0.8; s float8 := 0;
     BEGIN
       IF cardinality(h) < 21 THEN RETURN 0; END IF;
       FOR i IN 2..cardinality(h) LOOP
         IF h[i] <> h[i - 1] THEN s := s + w; END IF;
         w := w + 0.02;
       END LOOP;
       RETURN trunc(s::real::float8 / 20 * 100)::integer;
     END $$;
   -- One update of a stored event: write the ring slot, then state, last_ok, occurrences, watermark.
   CREATE FUNCTION cb_merge_event(old_status integer, old_last_ok bigint, old_occurrences integer, old_wm integer,
       old_index integer, old_hs integer[], old_ht bigint[], new_status integer, executed bigint, low integer, high integer,
       OUT status integer, OUT last_ok bigint, OUT occurrences integer, OUT occurrences_wm integer, OUT history_index integer,
       OUT history_status integer[], OUT history_ts bigint[], OUT state text, OUT total_state_change integer)
     LANGUAGE plpgsql IMMUTABLE AS $$
     DECLARE ordered integer[]; n integer;
     BEGIN
       history_status := old_hs; history_ts := old_ht;
       history_status[old_index] := new_status;
       history_ts[old_index] := executed;
       history_index := (old_index % 21) + 1;
       ordered := cb_history_order(history_status, history_index);
       n := cardinality(ordered);
       status := new_status;
       total_state_change := cb_total_state_change(ordered);
       last_ok := old_last_ok;
       IF low <> 0 AND high <> 0 AND total_state_change >= high THEN state := 'flapping';
       ELSIF new_status = 0 THEN state := 'passing'; last_ok := executed;
       ELSE state := 'failing';
       END IF;
       occurrences := CASE WHEN n > 1 AND ordered[n] = ordered[n - 1] THEN old_occurrences + 1 ELSE 1 END;
       occurrences_wm := CASE WHEN n > 1 AND ordered[n - 1] = 0 AND ordered[n] <> 0 THEN 1
                              WHEN occurrences <= old_wm THEN old_wm ELSE old_wm + 1 END;
     END $$;`,
];

export const PG_SCHEMA_VERSION = PG_MIGRATIONS.length;
