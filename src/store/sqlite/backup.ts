import Database from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, linkSync, mkdtempSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CheckbridgeError } from '../../errors.js';

export interface BackupCopy {
  readonly bytes: number;
  readonly schemaVersion: number;
}

// Every page in one step: the copy is read within one read transaction, so it is one consistent instant of the store.
const ALL_PAGES = 0x7fffffff;

/**
 * A private place for the copy beside `destination`: a new directory of a random name, owner-only, holding an empty
 * file created exclusively with mode 0600, so nobody else can have made it or read it while SQLite fills it.
 */
export function privateCopyFile(destination: string): { directory: string; file: string } {
  let directory: string;
  try {
    directory = mkdtempSync(join(dirname(destination), `.${basename(destination)}.partial-`));
  } catch (error) {
    throw new CheckbridgeError('CB_CLI_USAGE', `cannot write the backup into ${dirname(destination)}: ${(error as Error).message}`);
  }
  const file = join(directory, 'copy.db');
  closeSync(openSync(file, 'wx', 0o600));
  return { directory, file };
}

// Into place without replacing anything: a hard link fails if the name exists, even as a symlink; rename where a
// file system has no links.
function publish(file: string, destination: string): void {
  try {
    linkSync(file, destination);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP')
      throw new CheckbridgeError('CB_RUNTIME', `backup not written to ${destination}: ${(error as Error).message}`);
    if (existsSync(destination)) throw new CheckbridgeError('CB_RUNTIME', `${destination} appeared during the backup: a backup never overwrites a file`);
    renameSync(file, destination);
  }
}

/** SQLite's online backup of a live store into `destination` (a new file): checked, self-contained (no WAL), owner-only. */
export async function backupSqliteStore(source: string, destination: string): Promise<BackupCopy> {
  const db = new Database(source, { fileMustExist: true });
  const { directory, file } = (() => {
    try {
      return privateCopyFile(destination);
    } catch (error) {
      db.close();
      throw error;
    }
  })();
  try {
    try {
      await db.backup(file, { progress: () => ALL_PAGES });
    } catch (error) {
      throw new CheckbridgeError('CB_RUNTIME', `backup of ${source} to ${destination}: ${(error as Error).message}`);
    } finally {
      db.close();
    }
    const schemaVersion = checkCopy(file, source);
    chmodSync(file, 0o600);
    publish(file, destination);
    return { bytes: statSync(destination).size, schemaVersion };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** The copy's integrity and schema version, left self-contained (rollback journal, no WAL). */
function checkCopy(file: string, source: string): number {
  const copy = new Database(file);
  try {
    const integrity = copy.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') throw new CheckbridgeError('CB_RUNTIME', `the copy of ${source} fails its integrity check: ${String(integrity)}`);
    copy.pragma('journal_mode = DELETE');
    return copy.pragma('user_version', { simple: true }) as number;
  } finally {
    copy.close();
  }
}
