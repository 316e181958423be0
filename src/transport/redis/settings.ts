import type { RedisOptions } from 'ioredis';
import { CheckbridgeError } from '../../errors.js';

export interface RedisEndpoint {
  readonly options: RedisOptions;
  /** The `<db>` of the transport's key names: `redis.db` in Hash form, else 0 (reference §3). */
  readonly db: number;
  /** host:port or the sentinel master, for logs. */
  readonly label: string;
}

const refuse = (detail: string) => new CheckbridgeError('CB_CONFIG_REFUSED', `redis: ${detail}`);

function sentinelList(value: unknown): { host: string; port: number }[] {
  // A String (REDIS_SENTINEL_URLS) never connects in legacy (QUIRK, reference §4): here it is read as a list of URLs.
  const entries = typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter(Boolean) : Array.isArray(value) ? value : [];
  return entries.map((entry) => {
    if (typeof entry === 'string') {
      const url = new URL(entry.includes('://') ? entry : `redis://${entry}`);
      return { host: url.hostname || '127.0.0.1', port: url.port ? Number(url.port) : 26379 };
    }
    const hash = (entry ?? {}) as { host?: unknown; port?: unknown };
    return { host: String(hash.host ?? '127.0.0.1'), port: Number(hash.port ?? 26379) };
  });
}

/** The `redis` setting: a Hash (host, port, password, db, tls/ssl, sentinels, master) or a URL whose `/db` is ignored. */
export function redisOptions(value: unknown): RedisEndpoint {
  if (typeof value === 'string') {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw refuse('not a URL');
    }
    if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw refuse(`URL scheme must be redis, not ${url.protocol.replace(/:$/, '')}`);
    const host = url.hostname || '127.0.0.1';
    const port = url.port ? Number(url.port) : 6379;
    const password = url.password ? decodeURIComponent(url.password) : undefined;
    return { options: { host, port, ...(password ? { password } : {}), ...(url.protocol === 'rediss:' ? { tls: { rejectUnauthorized: false } } : {}) }, db: 0, label: `${host}:${port}` };
  }
  if (value !== undefined && value !== null && (typeof value !== 'object' || Array.isArray(value))) throw refuse('must be a hash or a redis:// URL');
  const hash = (value ?? {}) as Record<string, unknown>;
  const get = (key: string) => (Object.hasOwn(hash, key) ? hash[key] : undefined);
  const db = Number(get('db') ?? 0);
  if (!Number.isInteger(db) || db < 0) throw refuse(`db must be a non-negative integer, not ${String(get('db'))}`);
  const tlsSetting = get('tls') ?? get('ssl');
  // EventMachine's start_tls verified nothing; neither does this.
  const tls = tlsSetting ? { tls: { rejectUnauthorized: false } } : {};
  const password = typeof get('password') === 'string' ? { password: get('password') as string } : {};
  const sentinels = sentinelList(get('sentinels'));
  if (sentinels.length > 0) {
    const name = String(get('master') ?? get('master_group') ?? 'mymaster');
    return { options: { sentinels, name, db, ...password, ...tls }, db, label: `sentinel master ${name}` };
  }
  const host = String(get('host') ?? '127.0.0.1');
  const port = Number(get('port') ?? 6379);
  return { options: { host, port, db, ...password, ...tls }, db, label: `${host}:${port}` };
}
