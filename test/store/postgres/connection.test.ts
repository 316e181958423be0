// A PostgresConfig's DSN (URL or libpq keywords) and the start-time PG* variables as the pool's connection settings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pgEnvironment, poolConfigOf } from '../../../src/store/postgres/connection.js';
import { CheckbridgeError } from '../../../src/errors.js';

const refusal = (message: string) => (error: unknown) => {
  assert.ok(error instanceof CheckbridgeError);
  assert.equal(error.code, 'CB_PG_DSN');
  assert.equal(error.message, `invalid PostgreSQL connection settings: ${message}`);
  return true;
};

test('pgEnvironment keeps the PG* connection variables that are set and not empty, and nothing else', () => {
  assert.deepEqual(pgEnvironment({ PGHOST: 'db', PGPORT: '', PGUSER: 'u', PGAPPNAME: 'x', HOME: '/root', PGPASSWORD: 'pw' }), {
    PGHOST: 'db',
    PGUSER: 'u',
    PGPASSWORD: 'pw',
  });
});

test('a postgres:// URL: host, port, user, password and database decoded, query parameters as keywords', () => {
  const config = poolConfigOf('postgresql://us%40er:p%40ss%2Fw@db.example:6543/my%20db?sslmode=disable&application_name=mine&connect_timeout=2', 4, {});
  assert.equal(config.host, 'db.example');
  assert.equal(config.port, 6543);
  assert.equal(config.user, 'us@er');
  assert.equal(config.password, 'p@ss/w');
  assert.equal(config.database, 'my db');
  assert.equal(config.ssl, false);
  assert.equal(config.application_name, 'mine');
  assert.equal(config.connectionTimeoutMillis, 2000);
  assert.equal(config.max, 4);
  assert.equal(poolConfigOf('postgres://[::1]:5433/d', 1, {}).host, '::1', 'an IPv6 host without its brackets');
  assert.equal(poolConfigOf('  POSTGRES://h/d  ', 1, {}).host, 'h', 'scheme in any case, spaces around');
});

test('libpq keywords: quoted values with spaces, doubled escapes, keywords in any case', () => {
  const config = poolConfigOf(`host=db  PORT = 5439 dbname='my db' user=u\\ v password='it\\'s s3cr3t'`, 1, {});
  assert.equal(config.host, 'db');
  assert.equal(config.port, 5439);
  assert.equal(config.database, 'my db');
  assert.equal(config.user, 'u v');
  assert.equal(config.password, "it's s3cr3t");
});

test('what the DSN leaves out comes from the PG* variables, then from libpq defaults', () => {
  const env = pgEnvironment({ PGHOST: 'envhost', PGPORT: '7000', PGUSER: 'envuser', PGPASSWORD: 'envpw', PGDATABASE: 'envdb', PGCONNECT_TIMEOUT: '9' });
  const fromEnv = poolConfigOf('dbname=mine', 0, env);
  assert.deepEqual(
    [fromEnv.host, fromEnv.port, fromEnv.user, fromEnv.password, fromEnv.database, fromEnv.connectionTimeoutMillis],
    ['envhost', 7000, 'envuser', 'envpw', 'mine', 9000],
  );
  const defaults = poolConfigOf('user=alice', 0, {});
  assert.equal(defaults.host, 'localhost');
  assert.equal(defaults.port, 5432);
  assert.equal(defaults.database, 'alice', "libpq's default database is the user's name");
  assert.equal(defaults.ssl, false, 'sslmode disable by default');
  assert.equal(defaults.application_name, 'checkbridge');
  assert.equal(defaults.connectionTimeoutMillis, 5000);
  assert.equal(defaults.max, 20, 'pool_size 0 is bounded at 20');
  assert.equal(defaults.idle_in_transaction_session_timeout, 5000);
  assert.equal(poolConfigOf('connect_timeout=0', 1, {}).connectionTimeoutMillis, 5000, 'no timeout is not waiting forever');
  assert.equal(poolConfigOf('connect_timeout=soon', 1, {}).connectionTimeoutMillis, 5000);
  assert.equal(poolConfigOf('', 1, {}).host, 'localhost', 'an empty keyword string');
});

test('sslmode: disable, allow and prefer without TLS; require, verify-ca and verify-full with their checks', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cb-pg-dsn-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const [name, text] of [
    ['ca.pem', 'CA'],
    ['cert.pem', 'CERT'],
    ['key.pem', 'KEY'],
  ])
    writeFileSync(join(dir, name!), text!);
  for (const mode of ['disable', 'allow', 'prefer']) assert.equal(poolConfigOf(`sslmode=${mode}`, 1, {}).ssl, false, mode);
  assert.deepEqual(poolConfigOf('sslmode=require', 1, {}).ssl, { rejectUnauthorized: false });
  const files = `sslrootcert=${join(dir, 'ca.pem')} sslcert=${join(dir, 'cert.pem')} sslkey=${join(dir, 'key.pem')}`;
  const verifyCa = poolConfigOf(`host=db sslmode=verify-ca ${files}`, 1, {}).ssl as Record<string, unknown>;
  assert.deepEqual([verifyCa.ca, verifyCa.cert, verifyCa.key, verifyCa.rejectUnauthorized], ['CA', 'CERT', 'KEY', true]);
  assert.equal((verifyCa.checkServerIdentity as () => unknown)(), undefined, 'verify-ca does not check the host name');
  const verifyFull = poolConfigOf(`host=db.example sslmode=verify-full sslrootcert=${join(dir, 'ca.pem')}`, 1, {}).ssl as Record<string, unknown>;
  assert.deepEqual(verifyFull, { ca: 'CA', rejectUnauthorized: true, servername: 'db.example' });
  const fromEnv = poolConfigOf('host=h', 1, { PGSSLMODE: 'verify-full', PGSSLROOTCERT: join(dir, 'ca.pem') }).ssl as Record<string, unknown>;
  assert.equal(fromEnv.ca, 'CA', 'sslmode and files from the PG* variables too');
});

test('a DSN that cannot be read is refused with where and why, never with its text', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cb-pg-dsn-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  // The quote left open is where reading stops: its position is said, not the password after it.
  assert.throws(
    () => poolConfigOf("host=db password='s3cr3t", 1, {}),
    refusal('dsn: cannot read the keyword/value pair at character 18 (keyword=value, values with spaces in single quotes)'),
  );
  assert.throws(
    () => poolConfigOf('host', 1, {}),
    refusal('dsn: cannot read the keyword/value pair at character 1 (keyword=value, values with spaces in single quotes)'),
  );
  assert.throws(() => poolConfigOf('postgres://u:s3cr3t@[bad/d', 1, {}), refusal('dsn: not a valid postgres:// URL'));
  assert.throws(() => poolConfigOf('sslmode=on', 1, {}), refusal('sslmode on is not one of disable, allow, prefer, require, verify-ca, verify-full'));
  const missing = join(dir, 'absent.pem');
  assert.throws(() => poolConfigOf(`sslmode=verify-full sslrootcert=${missing}`, 1, {}), refusal(`sslrootcert ${missing}: ENOENT`));
  assert.throws(() => poolConfigOf(`sslmode=require sslkey=${dir}`, 1, {}), refusal(`sslkey ${dir}: EISDIR`));
});
