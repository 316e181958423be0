import type { SqlDatabase, SqlStatement } from '../sql/database.js';

/** Aggregate name → `client:check` members (only membership is kept, summaries are computed). */
export class AggregateTable {
  private readonly add$: SqlStatement;
  private readonly names$: SqlStatement;
  private readonly members$: SqlStatement;
  private readonly remove$: SqlStatement;
  private readonly drop$: SqlStatement;

  constructor(db: SqlDatabase) {
    this.add$ = db.prepare('INSERT INTO aggregate_members (name, member) VALUES (?, ?) ON CONFLICT DO NOTHING');
    this.names$ = db.prepare('SELECT DISTINCT name FROM aggregate_members ORDER BY name');
    this.members$ = db.prepare('SELECT member FROM aggregate_members WHERE name = ? ORDER BY member');
    this.remove$ = db.prepare('DELETE FROM aggregate_members WHERE name = ? AND member = ?');
    this.drop$ = db.prepare('DELETE FROM aggregate_members WHERE name = ?');
  }

  add(name: string, client: string, check: string): void {
    this.add$.run(name, `${client}:${check}`);
  }

  names(): string[] {
    return (this.names$.all() as { name: string }[]).map((r) => r.name);
  }

  members(name: string): string[] {
    return (this.members$.all(name) as { member: string }[]).map((r) => r.member);
  }

  remove(name: string, member: string): void {
    this.remove$.run(name, member);
  }

  /** True when the aggregate existed. */
  delete(name: string): boolean {
    return this.drop$.run(name).changes > 0;
  }
}
