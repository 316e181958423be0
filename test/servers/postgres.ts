// A real, throwaway PostgreSQL for tests: initdb into a temp dir, pg_ctl on a free 127.0.0.1 port, stopped after.
import { after } from 'node:test';
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chownSync, copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync, chmodSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../helpers/net.js';

export interface PostgresServer {
  readonly host: '127.0.0.1';
  readonly port: number;
  readonly dataDir: string;
  /** A URL DSN for `user` (trust auth unless the server was started with other hba rules). */
  url(user?: string, database?: string): string;
  /** Runs SQL as the superuser `postgres` over the Unix socket. */
  query(sql: string, database?: string): Promise<pg.QueryResult>;
  /** Stops it at once (`-m immediate`), keeping the data directory for `start`. */
  kill(): void;
  start(): void;
  /** `pg_ctl restart -m <mode>` without blocking the test's event loop; resolves once it accepts connections again. */
  restart(mode: 'fast' | 'immediate'): Promise<void>;
  stop(): void;
}

export interface PostgresOptions {
  /** Server certificate, key and client CA files: starts with `ssl=on`. */
  readonly ssl?: { cert: string; key: string; ca: string };
  /** pg_hba.conf lines used instead of the default trust rules. */
  readonly hba?: readonly string[];
}

function binDir(): string | null {
  try {
    const dir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
    return existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')) ? dir : null;
  } catch {
    return null;
  }
}

function userId(name: string): { uid: number; gid: number } | null {
  try {
    return { uid: Number(execFileSync('id', ['-u', name], { encoding: 'utf8' })), gid: Number(execFileSync('id', ['-g', name], { encoding: 'utf8' })) };
  } catch {
    return null;
  }
}

/** Why PostgreSQL cannot be started here, or null. */
export function postgresMissing(): string | null {
  if (!binDir()) return 'PostgreSQL server binaries not found (pg_config --bindir with initdb and pg_ctl)';
  if (process.getuid?.() === 0 && !userId('postgres')) return 'running as root and there is no postgres user to run the server as';
  return null;
}

/** A started server, or null after `t.skip` when binaries are missing (an error under CI=true). */
export async function postgresFor(
  t: { skip(message: string): void; after(fn: () => void | Promise<void>): void },
  options: PostgresOptions = {},
): Promise<PostgresServer | null> {
  const missing = postgresMissing();
  if (missing) {
    if (process.env.CI === 'true') throw new Error(`PostgreSQL is required under CI: ${missing}`);
    t.skip(missing);
    return null;
  }
  const server = await startPostgres(options);
  t.after(() => server.stop());
  return server;
}

/**
 * One PostgreSQL for a whole test file, stopped after it; `server` null with `missing` saying why where none is
 * installed (under CI that throws), and `freshDsn` a new empty database each call (`prefix_1`, `prefix_2`...).
 */
export async function postgresForFile(prefix = 'db'): Promise<{ server: PostgresServer | null; missing: string | null; freshDsn(): Promise<string> }> {
  const missing = postgresMissing();
  if (missing && process.env.CI === 'true') throw new Error(`PostgreSQL is required under CI: ${missing}`);
  const server = missing ? null : await startPostgres();
  after(() => server?.stop());
  let databases = 0;
  const freshDsn = async () => {
    const name = `${prefix}_${++databases}`;
    await server!.query(`CREATE DATABASE ${name}`);
    return server!.url('postgres', name);
  };
  return { server, missing, freshDsn };
}

export async function startPostgres(options: PostgresOptions = {}): Promise<PostgresServer> {
  const bin = binDir()!;
  const root = mkdtempSync(join(tmpdir(), 'cb-pg-'));
  const dataDir = join(root, 'data');
  const socketDir = root;
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? userId('postgres')! : null;
  if (owner) chownSync(root, owner.uid, owner.gid);
  chmodSync(root, 0o755);
  // PostgreSQL refuses to run as root: every server command runs as the postgres user.
  const run = (tool: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args], { stdio: 'pipe' })
      : execFileSync(join(bin, tool), args, { stdio: 'pipe' });
  run('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const port = await freePort();
  const settings = [
    `port = ${port}`,
    "listen_addresses = '127.0.0.1'",
    `unix_socket_directories = '${socketDir}'`,
    'fsync = off',
    'full_page_writes = off',
    'max_connections = 60',
  ];
  if (options.ssl) {
    for (const [file, source] of [
      ['server.crt', options.ssl.cert],
      ['server.key', options.ssl.key],
      ['root.crt', options.ssl.ca],
    ] as const) {
      const target = join(dataDir, file);
      copyFileSync(source, target);
      chmodSync(target, 0o600);
      if (owner) chownSync(target, owner.uid, owner.gid);
    }
    settings.push('ssl = on', "ssl_cert_file = 'server.crt'", "ssl_key_file = 'server.key'", "ssl_ca_file = 'root.crt'");
  }
  appendFileSync(join(dataDir, 'postgresql.conf'), settings.join('\n') + '\n');
  if (options.hba) writeFileSync(join(dataDir, 'pg_hba.conf'), ['local all postgres trust', ...options.hba].join('\n') + '\n');
  const logFile = join(root, 'server.log');
  const start = () => void run('pg_ctl', ['-D', dataDir, '-l', logFile, '-w', '-t', '30', 'start']);
  const kill = () => {
    try {
      run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
    } catch {
      /* already stopped */
    }
  };
  start();
  let stopped = false;
  return {
    host: '127.0.0.1',
    port,
    dataDir,
    url: (user = 'postgres', database = 'postgres') => `postgres://${encodeURIComponent(user)}@127.0.0.1:${port}/${encodeURIComponent(database)}`,
    async query(sql, database = 'postgres') {
      const client = new pg.Client({ host: socketDir, port, user: 'postgres', database });
      await client.connect();
      try {
        return await client.query(sql);
      } finally {
        await client.end();
      }
    },
    kill,
    start,
    async restart(mode) {
      const args = ['-D', dataDir, '-l', logFile, '-m', mode, '-w', '-t', '30', 'restart'];
      if (asRoot) await promisify(execFile)('runuser', ['-u', 'postgres', '--', join(bin, 'pg_ctl'), ...args]);
      else await promisify(execFile)(join(bin, 'pg_ctl'), args);
    },
    stop() {
      if (stopped) return;
      stopped = true;
      kill();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
