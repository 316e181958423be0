import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { SqliteStateStore } from './sqlite-state-store.js';
import { SCHEMA_VERSION } from './migrations.js';
import type { SqlDatabase } from '../sql/database.js';
import { missingNamespaceChecks, missingNamespacesMessage } from '../tables/missing-namespaces.js';

/** Checks stored in a namespace that does not exist (the 6.2.0 rule): upgrade and start refuse them by name. */
export function checksInMissingNamespaces(db: Database.Database): { check: string; namespace: string }[] {
  const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'v2_resources'").get();
  return hasTable ? missingNamespaceChecks(db as unknown as SqlDatabase) : [];
}

export type UpgradePlan =
  | { kind: 'new' }
  | { kind: 'current'; version: number; alreadyRan: boolean }
  | { kind: 'newer'; version: number }
  | { kind: 'refused'; version: number; message: string }
  | { kind: 'upgrade'; from: number; to: number };

/** What `checkbridge upgrade` would do to the store at `path`, read without changing anything. */
export function planUpgrade(path: string): UpgradePlan {
  if (!existsSync(path)) return { kind: 'new' };
  const db = new Database(path, { readonly: true });
  try {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) return { kind: 'newer', version };
    const missing = checksInMissingNamespaces(db);
    if (missing.length > 0) return { kind: 'refused', version, message: missingNamespacesMessage(missing) };
    if (version === SCHEMA_VERSION) {
      const ran =
        db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'upgrades'").get() &&
        db.prepare('SELECT 1 FROM upgrades WHERE version = ?').get(version);
      return { kind: 'current', version, alreadyRan: Boolean(ran) };
    }
    return { kind: 'upgrade', from: version, to: SCHEMA_VERSION };
  } finally {
    db.close();
  }
}

/** Backs the store up next to itself (an online SQLite backup), then migrates it and records the upgrade. */
export async function upgradeStore(path: string, from: number, nowMs: number): Promise<{ backup: string }> {
  const backup = `${path}.backup-schema-${from}-${new Date(nowMs).toISOString().replace(/[:.]/g, '-')}`;
  const source = new Database(path, { readonly: true });
  try {
    await source.backup(backup);
  } finally {
    source.close();
  }
  const store = SqliteStateStore.open(path, { upgrade: true });
  try {
    store.db.prepare('INSERT OR REPLACE INTO upgrades VALUES (?, ?, ?, ?)').run(SCHEMA_VERSION, from, Math.floor(nowMs / 1000), backup);
  } finally {
    store.close();
  }
  return { backup };
}
