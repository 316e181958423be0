// A PostgresConfig's DSN (URL or libpq keyword string) and the PG* environment read once at start, as a pg pool config.
import { readFileSync } from 'node:fs';
import type { PoolConfig } from 'pg';
import type { ConnectionOptions } from 'node:tls';
import { CheckbridgeError } from '../../errors.js';

const ENV_NAMES = [
  'PGHOST',
  'PGPORT',
  'PGDATABASE',
  'PGUSER',
  'PGPASSWORD',
  'PGSSLMODE',
  'PGSSLCERT',
  'PGSSLKEY',
  'PGSSLROOTCERT',
  'PGCONNECT_TIMEOUT',
] as const;
export type PgEnvironment = Readonly<Partial<Record<(typeof ENV_NAMES)[number], string>>>;

/** The connection variables at start: a restart is what loads new ones. */
export function pgEnvironment(env: NodeJS.ProcessEnv): PgEnvironment {
  const out: Partial<Record<(typeof ENV_NAMES)[number], string>> = {};
  for (const name of ENV_NAMES) if (typeof env[name] === 'string' && env[name] !== '') out[name] = env[name];
  return out;
}

/** libpq keyword/value pairs: `host=a port=5432 password='it''s'`, single quotes and backslash escapes. */
function keywords(dsn: string): Map<string, string> {
  const out = new Map<string, string>();
  const pair = /\s*([A-Za-z_]+)\s*=\s*('((?:[^'\\]|\\.)*)'|((?:[^\s'\\]|\\.)*))/y;
  let at = 0;
  while (at < dsn.length) {
    if (/^\s*$/.test(dsn.slice(at))) break;
    pair.lastIndex = at;
    const match = pair.exec(dsn);
    if (!match)
      // The position only: the text there may be a password with a typo in its quoting.
      if (!match)
        throw new CheckbridgeError(
          'CB_PG_DSN',
          `dsn: cannot read the keyword/value pair at character ${at + 1} (keyword=value, values with spaces in single quotes)`,
        );
    out.set(match[1]!.toLowerCase(), (match[3] ?? match[4] ?? '').replace(/\\(.)/g, '$1'));
    at = pair.lastIndex;
  }
  return out;
}

function urlParts(dsn: string): Map<string, string> {
  let url: URL;
  try {
    url = new URL(dsn);
  } catch {
    throw new CheckbridgeError('CB_PG_DSN', 'dsn: not a valid postgres:// URL');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw new CheckbridgeError('CB_PG_DSN', `dsn: unsupported scheme ${url.protocol}`);
  const out = new Map<string, string>();
  if (url.hostname) out.set('host', decodeURIComponent(url.hostname.replace(/^\[|\]$/g, '')));
  if (url.port) out.set('port', url.port);
  if (url.username) out.set('user', decodeURIComponent(url.username));
  if (url.password) out.set('password', decodeURIComponent(url.password));
  if (url.pathname.length > 1) out.set('dbname', decodeURIComponent(url.pathname.slice(1)));
  for (const [key, value] of url.searchParams) out.set(key.toLowerCase(), value);
  return out;
}

function readFile(label: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new CheckbridgeError('CB_PG_DSN', `${label} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** The TLS options of an sslmode (libpq's meaning); prefer and allow connect without TLS. */
function tlsOf(mode: string, host: string | undefined, files: { cert?: string; key?: string; root?: string }): false | ConnectionOptions {
  if (mode === 'disable' || mode === 'allow' || mode === 'prefer') return false;
  if (!['require', 'verify-ca', 'verify-full'].includes(mode))
    throw new CheckbridgeError('CB_PG_DSN', `sslmode ${mode} is not one of disable, allow, prefer, require, verify-ca, verify-full`);
  const tls: ConnectionOptions = {
    ...(files.cert ? { cert: readFile('sslcert', files.cert) } : {}),
    ...(files.key ? { key: readFile('sslkey', files.key) } : {}),
    ...(files.root ? { ca: readFile('sslrootcert', files.root) } : {}),
  };
  if (mode === 'require') return { ...tls, rejectUnauthorized: false };
  if (mode === 'verify-ca') return { ...tls, rejectUnauthorized: true, checkServerIdentity: () => undefined };
  return { ...tls, rejectUnauthorized: true, servername: host };
}

/** The pool config: DSN values first, then the start-time PG* variables, then libpq's defaults. */
export function poolConfigOf(dsn: string, poolSize: number, env: PgEnvironment): PoolConfig {
  const parts = /^postgres(ql)?:\/\//i.test(dsn.trim()) ? urlParts(dsn.trim()) : keywords(dsn);
  const pick = (key: string, envName: (typeof ENV_NAMES)[number]) => parts.get(key) ?? env[envName];
  const host = pick('host', 'PGHOST') ?? 'localhost';
  const mode = pick('sslmode', 'PGSSLMODE') ?? 'disable';
  const timeout = Number(pick('connect_timeout', 'PGCONNECT_TIMEOUT') ?? 5);
  const user = pick('user', 'PGUSER');
  return {
    host,
    port: Number(pick('port', 'PGPORT') ?? 5432),
    // libpq's default database is the user's name.
    database: pick('dbname', 'PGDATABASE') ?? user,
    user,
    password: pick('password', 'PGPASSWORD'),
    ssl: tlsOf(mode, host, { cert: pick('sslcert', 'PGSSLCERT'), key: pick('sslkey', 'PGSSLKEY'), root: pick('sslrootcert', 'PGSSLROOTCERT') }),
    application_name: parts.get('application_name') ?? 'checkbridge',
    connectionTimeoutMillis: (Number.isFinite(timeout) && timeout > 0 ? timeout : 5) * 1000,
    // A server frozen inside a transaction must not hold its locks, and with them every other server's store, for long.
    idle_in_transaction_session_timeout: 5000,
    // pool_size 0 means unlimited in the reference; a pool needs a bound, and 20 is the recommended size.
    max: poolSize > 0 ? poolSize : 20,
  };
}

export { redactDsn } from '../../config/index.js';
