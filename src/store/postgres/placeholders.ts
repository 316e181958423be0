// SQLite's `?` and `@name` placeholders as PostgreSQL's `$n`; quoted text and comments are left alone.
export interface Positional {
  readonly text: string;
  /** The parameter name of each `$n` (named placeholders), or null when the statement uses `?`. */
  readonly names: readonly string[] | null;
  /** The text around the placeholders, and the parameter (0-based) each placeholder takes: for `inline`. */
  readonly parts: readonly string[];
  readonly slots: readonly number[];
}

export function toPositional(sql: string): Positional {
  let out = '';
  let count = 0;
  const names: string[] = [];
  const parts: string[] = [];
  const slots: number[] = [];
  let part = '';
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]!;
    if (c === "'" || c === '"') {
      const end = sql.indexOf(c, i + 1);
      const stop = end < 0 ? sql.length : end + 1;
      out += sql.slice(i, stop);
      part += sql.slice(i, stop);
      i = stop - 1;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end < 0 ? sql.length : end;
      out += sql.slice(i, stop);
      part += sql.slice(i, stop);
      i = stop - 1;
    } else if (c === '?') {
      out += `$${++count}`;
      slots.push(count - 1);
      parts.push(part);
      part = '';
    } else if (c === '@' && /[A-Za-z_]/.test(sql[i + 1] ?? '')) {
      const name = /^[A-Za-z_]\w*/.exec(sql.slice(i + 1))![0];
      const at = names.indexOf(name);
      const n = at < 0 ? names.push(name) : at + 1;
      out += `$${n}`;
      slots.push(n - 1);
      parts.push(part);
      part = '';
      i += name.length;
    } else {
      out += c;
      part += c;
    }
  }
  parts.push(part);
  return { text: out, names: names.length > 0 ? names : null, parts, slots };
}

/** The positional values of one call: better-sqlite3's arguments, or its one object of named values. */
export function bind(positional: Positional, params: readonly unknown[]): unknown[] {
  if (!positional.names) return params.map((p) => (p === undefined ? null : p));
  const named = (params[0] ?? {}) as Record<string, unknown>;
  return positional.names.map((name) => (Object.hasOwn(named, name) ? (named[name] ?? null) : null));
}

/** A value as an SQL literal (standard_conforming_strings on), or undefined for what has no plain literal. */
function literal(value: unknown): string | undefined {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') return Number.isFinite(value) ? (value < 0 ? `(${value})` : String(value)) : undefined;
  if (typeof value === 'bigint') return String(value);
  if (typeof value === 'string') return value.includes('\0') ? undefined : `'${value.replaceAll("'", "''")}'`;
  // An array (the set-based writes' unnest columns) as one array literal, typed by the statement's own cast: one
  // constant however long, so pg_stat_statements counts every batch size as one statement.
  if (Array.isArray(value)) {
    const items = value.map(arrayItem);
    return items.every((item) => item !== undefined) ? literal(`{${items.join(',')}}`) : undefined;
  }
  return undefined;
}

/** An item of an array literal: NULL, a number, or a double-quoted string (backslash and quote escaped). */
function arrayItem(value: unknown): string | undefined {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'bigint') return String(value);
  if (typeof value === 'string') return value.includes('\0') ? undefined : `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
  return undefined;
}

/** The statement with its values written in (so that several can travel as one simple query), or null when one cannot be. */
export function inline(positional: Positional, values: readonly unknown[]): string | null {
  let out = positional.parts[0]!;
  for (let i = 0; i < positional.slots.length; i++) {
    const text = literal(values[positional.slots[i]!]);
    if (text === undefined) return null;
    out += text + positional.parts[i + 1]!;
  }
  return out;
}
