// Reads a unit of work needed that its connection could not wait for (it runs on the main thread): read outside it,
// then handed to its next runs, which take them instead of waiting, for as long as each answer holds good.

type Read = { readonly sql: string; readonly params: readonly unknown[] };
type Rows = Record<string, unknown>[];

// A read whose rows are the same in or out of the transaction that needed it (no lock, no write, no sequence).
const PLAIN_READ = /^\s*SELECT\b/i;
const NOT_PLAIN =
  /\bFOR\s+(UPDATE|NO KEY UPDATE|SHARE|KEY SHARE)\b|advisory|nextval|setval|txid_current|pg_notify|set_config|now\(|current_timestamp|clock_timestamp|random\(|\b(INSERT|UPDATE|DELETE)\b/i;

/** `read` when it may be answered from outside its transaction, else null. */
export const plainRead = (read: Read): Read | null => (PLAIN_READ.test(read.sql) && !NOT_PLAIN.test(read.sql) ? read : null);

const keyOf = ({ sql, params }: Read) => `${sql}\u0000${JSON.stringify(params)}`;

export class AnsweredReads {
  private readonly rows = new Map<string, { readonly rows: Rows; readonly good: () => boolean }>();

  /** `rows` answer `read` while `good()` says they still hold (no change heard since, no write of the unit's own before). */
  put(read: Read, rows: Rows, good: () => boolean): void {
    this.rows.set(keyOf(read), { rows, good });
  }

  /** The rows answered for `read` while they hold good; undefined when none are (or no longer). */
  take(read: Read): Rows | undefined {
    if (this.rows.size === 0) return undefined;
    const key = keyOf(read);
    const answer = this.rows.get(key);
    if (!answer) return undefined;
    if (answer.good()) return answer.rows;
    this.rows.delete(key);
    return undefined;
  }

  clear(): void {
    this.rows.clear();
  }
}
