import Database from 'better-sqlite3';
import { chmodSync, renameSync, rmSync, statSync } from 'node:fs';
import { CheckbridgeError } from '../../errors.js';

export interface BackupCopy {
  readonly bytes: number;
  readonly schemaVersion: number;
}

// Every page in one step: the copy is read within one read transaction, so it is one consistent instant of the store.
const ALL_PAGES = 0x7fffffff;

/** SQLite's online backup of a live store into `destination` (a new file): checked, self-contained (no WAL), owner-only. */
export async function backupSqliteStore(source: string, destination: string): Promise<BackupCopy> {
  const partial = `${destination}.partial-${process.pid}`;
  const db = new Database(source, { fileMustExist: true });
  try {
    await db.backup(partial, { progress: () => ALL_PAGES });
  } catch (error) {
    rmSync(partial, { force: true });
    throw new CheckbridgeError('CB_RUNTIME', `backup of ${source} to ${destination}: ${(error as Error).message}`);
  } finally {
    db.close();
  }
  const copy = new Database(partial);
  try {
    chmodSync(partial, 0o600);
    const integrity = copy.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') throw new CheckbridgeError('CB_RUNTIME', `the copy of ${source} fails its integrity check: ${String(integrity)}`);
    copy.pragma('journal_mode = DELETE');
    const schemaVersion = copy.pragma('user_version', { simple: true }) as number;
    copy.close();
    renameSync(partial, destination);
    return { bytes: statSync(destination).size, schemaVersion };
  } catch (error) {
    if (copy.open) copy.close();
    rmSync(partial, { force: true });
    throw error;
  }
}
