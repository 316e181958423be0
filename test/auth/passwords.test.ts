// Password hashes: what a new one is, and that older and Sensu Go's hashes still sign in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import bcryptjs from 'bcryptjs';
import { randomBytes, scryptSync } from 'node:crypto';
import { hashPassword, verifyPassword } from '../../src/auth/passwords.js';

test('passwords: a new hash is scrypt at N 2^15 (its memory is given back) and checks its password only', async () => {
  const hash = await hashPassword('correct horse');
  assert.match(hash, /^scrypt\$32768\$8\$1\$/);
  assert.equal(await verifyPassword('correct horse', hash), true);
  assert.equal(await verifyPassword('correct horsE', hash), false);
});

test('passwords: a hash stored at N 2^14 by an earlier version, and a bcrypt hash as Sensu Go writes, still sign in', async () => {
  const salt = randomBytes(16);
  const older = `scrypt$16384$8$1$${salt.toString('base64')}$${scryptSync('an older password', salt, 32, { N: 16384, r: 8, p: 1 }).toString('base64')}`;
  assert.equal(await verifyPassword('an older password', older), true);
  assert.equal(await verifyPassword('not this one', older), false);
  const bcrypt = bcryptjs.hashSync('sensu-go-password', 10).replace(/^\$2b\$/, '$2a$');
  assert.equal(await verifyPassword('sensu-go-password', bcrypt), true);
});

test('passwords: a stored scrypt hash asking for more than 64 MiB is refused, not computed', async () => {
  const greedy = 'scrypt$1048576$8$1$P8i/WbKGKea1jjqK6K0ANA==$FyH9GCiCUZPZ9sJ3PnHL23TqocbGCPZ6nEMfq93V/Bg=';
  await assert.rejects(verifyPassword('x', greedy), /memory/);
});
