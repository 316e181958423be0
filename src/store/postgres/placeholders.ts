// SQLite's `?` and `@name` placeholders as PostgreSQL's `$n`; quoted text and comments are left alone.
export interface Positional {
  readonly text: string;
  /** The parameter name of each `$n` (named placeholders), or null when the statement uses `?`. */
  readonly names: readonly string[] | null;
}

export function toPositional(sql: string): Positional {
  let out = '';
  let count = 0;
  const names: string[] = [];
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]!;
    if (c === "'" || c === '"') {
      const end = sql.indexOf(c, i + 1);
      const stop = end < 0 ? sql.length : end + 1;
      out += sql.slice(i, stop);
      i = stop - 1;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end < 0 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop - 1;
    } else if (c === '?') {
      out += `$${++count}`;
    } else if (c === '@' && /[A-Za-z_]/.test(sql[i + 1] ?? '')) {
      const name = /^[A-Za-z_]\w*/.exec(sql.slice(i + 1))![0];
      const at = names.indexOf(name);
      out += `$${at < 0 ? names.push(name) : at + 1}`;
      i += name.length;
    } else {
      out += c;
    }
  }
  return { text: out, names: names.length > 0 ? names : null };
}

/** The positional values of one call: better-sqlite3's arguments, or its one object of named values. */
export function bind(positional: Positional, params: readonly unknown[]): unknown[] {
  if (!positional.names) return params.map((p) => (p === undefined ? null : p));
  const named = (params[0] ?? {}) as Record<string, unknown>;
  return positional.names.map((name) => (Object.hasOwn(named, name) ? named[name] ?? null : null));
}
