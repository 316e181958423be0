// Another server's session on a v2 row's advisory lock (the key group commits take, `v2/` and the row's key), in a
// process of its own: one that tries it for half a second, one that takes it and holds it until it is stopped.
import { execFileSync, spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { v2Key } from '../../src/store/postgres/batch-rows.js';
import { ROOT } from './paths.js';

const lockIn = (dsn: string, parts: readonly string[], before: string) => `
  const pg = require('pg');
  const c = new pg.Client(${JSON.stringify(dsn)});
  const locked = c.connect().then(() => c.query("BEGIN; ${before}SELECT pg_advisory_xact_lock(hashtextextended($$v2/${v2Key(...parts)}$$, 0))"));`;

/** Tries the row's lock for half a second from another session: 'granted', or 'waited' when it is held. */
export function tryRowLock(dsn: string, ...parts: string[]): string {
  const script = `${lockIn(dsn, parts, "SET LOCAL lock_timeout = '500ms'; ")}
    locked
      .then(() => process.stdout.write('granted'), (e) => process.stdout.write(e.code === '55P03' ? 'waited' : String(e.message)))
      .finally(() => c.end());`;
  return execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', cwd: ROOT });
}

/** Takes the row's lock in another session and holds it until the process is killed; resolves once it is held. */
export async function holdRowLock(dsn: string, ...parts: string[]): Promise<ChildProcessByStdio<null, Readable, null>> {
  const script = `${lockIn(dsn, parts, '')}
    locked.then(() => process.stdout.write('locked'));`;
  const child = spawn(process.execPath, ['-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && resolve());
    child.once('exit', () => reject(new Error('the lock holder ended before it held the lock')));
  });
  return child;
}
