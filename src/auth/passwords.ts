import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { compare as compareBcrypt } from 'bcryptjs';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, length: number, options: object) => Promise<Buffer>;
// scrypt (RFC 7914) from Node's crypto (OpenSSL): a standard password hash, no native add-on to build.
const PARAMS = { N: 16384, r: 8, p: 1 };

// A bcrypt hash as Go's x/crypto/bcrypt writes it (sensuctl's password_hash, Sensu Go's stored users): $2a$10$<53>.
const BCRYPT = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/;
// Each step doubles a check's cost: past 14 (about a second in JavaScript) one login would stall the daemon.
const MAX_BCRYPT_COST = 14;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, 32, PARAMS);
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

/** Why `hash` cannot be stored as a user's bcrypt password hash, or null. */
export function bcryptHashProblem(hash: unknown): string | null {
  const match = typeof hash === 'string' ? BCRYPT.exec(hash) : null;
  if (!match) return 'password_hash must be a bcrypt hash ($2a$, $2b$ or $2y$, as `sensuctl user hash-password` prints)';
  const cost = Number(match[1]);
  return cost < 4 || cost > MAX_BCRYPT_COST ? `password_hash: bcrypt cost ${cost} is outside 4 to ${MAX_BCRYPT_COST}` : null;
}

/** Checks a password against a stored hash: our scrypt, or a bcrypt hash a user was given (sensuctl, Sensu Go). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (bcryptHashProblem(stored) === null) return compareBcrypt(password, stored);
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
  return timingSafeEqual(expected, actual);
}
