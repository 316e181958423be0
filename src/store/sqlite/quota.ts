// The embedded datastore's maximum size: 4 GB by default; past it growing writes fail, reads go on.
import { statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import type Database from 'better-sqlite3';
import { CheckbridgeError } from '../../errors.js';

export const DEFAULT_STORE_QUOTA = 4 * 1024 ** 3;

/** SQLite refuses to grow the file past max_page_count (SQLITE_FULL); freed pages are reused below it. */
export function applyQuota(db: Database.Database, bytes: number): void {
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.pragma(`max_page_count = ${Math.max(1, Math.floor(bytes / pageSize))}`);
}

/** The size in use: pages minus the free list. */
export function usedBytes(db: Database.Database): number {
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  return ((db.pragma('page_count', { simple: true }) as number) - (db.pragma('freelist_count', { simple: true }) as number)) * pageSize;
}

/** The `/health` alarm: no page left to grow into, or a write refused at this size or more (`refusedAt`); else null. */
export function quotaAlarm(db: Database.Database, bytes: number, refusedAt: number | null): string | null {
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const used = usedBytes(db);
  if (used + pageSize <= Math.floor(bytes / pageSize) * pageSize && (refusedAt === null || used < refusedAt)) return null;
  return `NOSPACE: the embedded datastore uses ${used} of its ${bytes} bytes (checkbridge.store_quota); writes that grow it are refused`;
}

// Free space below this on the file's filesystem keeps a full disk's alarm; above it, writes can grow the file again.
const DISK_ROOM_BYTES = 1024 * 1024;

/** The `/health` alarm of a full disk under the file at `path` while it has less than 1 MB free; else null. */
export function diskAlarm(path: string): string | null {
  const stats = statfsSync(dirname(path));
  const free = Number(stats.bavail) * Number(stats.bsize);
  if (free >= DISK_ROOM_BYTES) return null;
  return `NOSPACE: the disk holding the embedded datastore is full (${free} bytes free under ${dirname(path)}); writes that grow it are refused`;
}

/** SQLITE_FULL as a clear error naming the quota; anything else unchanged. */
export function quotaFailure(error: unknown, bytes: number): unknown {
  if ((error as { code?: unknown }).code !== 'SQLITE_FULL') return error;
  return new CheckbridgeError(
    'CB_STORE_QUOTA',
    `the embedded datastore reached its maximum size of ${bytes} bytes (checkbridge.store_quota, or the disk is full)`,
  );
}
