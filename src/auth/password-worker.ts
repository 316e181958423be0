// Runs inside a worker thread of the password pool: bcrypt and scrypt here never hold the daemon's event loop.
import { parentPort } from 'node:worker_threads';
import { scryptSync, timingSafeEqual, randomBytes } from 'node:crypto';
import bcryptjs from 'bcryptjs';

export type PasswordJob =
  | { readonly op: 'hash'; readonly password: string; readonly N: number; readonly r: number; readonly p: number }
  | { readonly op: 'bcrypt'; readonly password: string; readonly stored: string }
  | { readonly op: 'scrypt'; readonly password: string; readonly stored: string };

// 2^15 × r 8 is 32 MiB and a bit; a stored hash asking for more fails instead of taking the memory.
const MAX_MEMORY = 64 * 1024 * 1024;

function run(job: PasswordJob): string | boolean {
  if (job.op === 'bcrypt') return bcryptjs.compareSync(job.password, job.stored);
  if (job.op === 'hash') {
    const salt = randomBytes(16);
    const hash = scryptSync(job.password, salt, 32, { N: job.N, r: job.r, p: job.p, maxmem: MAX_MEMORY });
    return `scrypt$${job.N}$${job.r}$${job.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
  }
  const [, n, r, p, salt, hash] = job.stored.split('$');
  const expected = Buffer.from(hash!, 'base64');
  const actual = scryptSync(job.password, Buffer.from(salt!, 'base64'), expected.length, { N: Number(n), r: Number(r), p: Number(p), maxmem: MAX_MEMORY });
  return timingSafeEqual(expected, actual);
}

parentPort?.on('message', (job: PasswordJob) => {
  try {
    parentPort!.postMessage({ result: run(job) });
  } catch (error) {
    parentPort!.postMessage({ error: (error as Error).message });
  }
});
