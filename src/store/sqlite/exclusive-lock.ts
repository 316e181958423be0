import type Database from 'better-sqlite3';
import { CheckbridgeError } from '../../errors.js';

/**
 * Takes the file's exclusive lock before anything else reads it, and keeps it until the connection closes. Every open
 * WAL connection (a running daemon's) holds a shared lock on the file, so a held store is refused at once, not waited for.
 */
export function holdExclusively(db: Database.Database, path: string): void {
  db.pragma('busy_timeout = 0');
  db.pragma('locking_mode = EXCLUSIVE');
  try {
    db.exec('BEGIN EXCLUSIVE; COMMIT');
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY')
      throw new CheckbridgeError('CB_STORE_IN_USE', `${path} is open in another process (a checkbridge run on this state directory?)`);
    throw new CheckbridgeError('CB_STORE_OPEN', `${path}: ${(error as Error).message}`);
  }
}
