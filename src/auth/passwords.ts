import { passwordPool } from './password-pool.js';

// scrypt (RFC 7914) from Node's crypto (OpenSSL): a standard password hash, no native add-on to build. N = 2^15 takes
// 32 MiB, above the C library's largest heap allocation: each hash's memory is mapped and given back, where 2^14's 16 MiB
// stayed resident (~19 MB) once the allocator had raised its threshold.
const PARAMS = { N: 32768, r: 8, p: 1 };

// A bcrypt hash as Go's x/crypto/bcrypt writes it (sensuctl's password_hash, Sensu Go's stored users): $2a$10$<53>.
const BCRYPT = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/;
const SCRYPT = /^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/]+=*\$[A-Za-z0-9+/]+=*$/;
// Sensu Go hashes at Go's default cost 10; 12 (Python's bcrypt default) is ~0.5 s of a pool worker in JavaScript, and
// every step above doubles what one guess costs us.
export const MAX_BCRYPT_COST = 12;

// The scrypt hash of a random password nobody kept: an unknown user costs one check too, so timing does not tell which names exist.
const NOBODY = 'scrypt$32768$8$1$+2j/5wcpFeBJi5uYXJM3iQ==$zR3y5MnOYQ0mR4Zm/dNJdlxvNQYgrRrhWwqzTOOPEXs=';

/** Our scrypt hash of a new password, computed in the password pool. */
export async function hashPassword(password: string, signal?: AbortSignal): Promise<string> {
  return String(await passwordPool().run({ op: 'hash', password, ...PARAMS }, signal));
}

const bcryptCost = (hash: unknown): number | null => {
  const match = typeof hash === 'string' ? BCRYPT.exec(hash) : null;
  return match ? Number(match[1]) : null;
};

/** Why `hash` cannot be stored as a user's bcrypt password hash, or null. */
export function bcryptHashProblem(hash: unknown): string | null {
  const cost = bcryptCost(hash);
  if (cost === null) return 'password_hash must be a bcrypt hash ($2a$, $2b$ or $2y$, as `sensuctl user hash-password` prints)';
  return cost < 4 || cost > MAX_BCRYPT_COST ? `password_hash: bcrypt cost ${cost} is outside 4 to ${MAX_BCRYPT_COST}` : null;
}

/** Why a stored hash never signs anyone in (a bcrypt cost over the ceiling, stored by an earlier version), or null. */
export function storedHashProblem(stored: unknown): string | null {
  const cost = bcryptCost(stored);
  return cost !== null && (cost < 4 || cost > MAX_BCRYPT_COST) ? `its bcrypt cost ${cost} is outside 4 to ${MAX_BCRYPT_COST}: reset the password` : null;
}

/**
 * Checks a password against a stored hash (our scrypt, or a bcrypt hash from sensuctl or Sensu Go) in the password
 * pool (ahead of guesses when `priority`); anything else, an over-ceiling bcrypt cost included, is checked against a
 * hash nobody matches, at the same cost.
 */
export async function verifyPassword(password: string, stored: unknown, signal?: AbortSignal, priority = false): Promise<boolean> {
  const usable = typeof stored === 'string' && storedHashProblem(stored) === null && (bcryptCost(stored) !== null || SCRYPT.test(stored));
  const hash = usable ? stored : NOBODY;
  const matches = await passwordPool().run({ op: bcryptCost(hash) !== null ? 'bcrypt' : 'scrypt', password, stored: hash }, signal, priority);
  return usable && matches === true;
}
