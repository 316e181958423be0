// Reads a transaction needed that its connection could not wait for (it runs on the main thread): read outside it, then
// handed to its next run, which takes each once instead of waiting.

type Read = { readonly sql: string; readonly params: readonly unknown[] };
type Rows = Record<string, unknown>[];

// A read whose rows are the same in or out of the transaction that needed it (no lock, no write, no sequence).
const PLAIN_READ = /^\s*SELECT\b/i;
const NOT_PLAIN = /\bFOR\s+(UPDATE|NO KEY UPDATE|SHARE|KEY SHARE)\b|pg_advisory|nextval|txid_current|\b(INSERT|UPDATE|DELETE)\b/i;

/** `read` when it may be answered from outside its transaction, else null. */
export const plainRead = (read: Read): Read | null => (PLAIN_READ.test(read.sql) && !NOT_PLAIN.test(read.sql) ? read : null);

const keyOf = ({ sql, params }: Read) => `${sql}\u0000${JSON.stringify(params)}`;

export class AnsweredReads {
  private readonly rows = new Map<string, Rows>();

  put(read: Read, rows: Rows): void {
    this.rows.set(keyOf(read), rows);
  }

  /** The rows answered for `read`, once; undefined when none are. */
  take(read: Read): Rows | undefined {
    if (this.rows.size === 0) return undefined;
    const key = keyOf(read);
    const rows = this.rows.get(key);
    this.rows.delete(key);
    return rows;
  }

  clear(): void {
    this.rows.clear();
  }
}
