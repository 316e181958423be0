import type { RedisOptions } from 'ioredis';
import { CheckbridgeError } from '../../errors.js';
import { brokerTls } from '../tls.js';

export interface RedisEndpoint {
  readonly options: RedisOptions;
  /** The `<db>` of the transport's key names: `redis.db` in Hash form, else 0. */
  readonly db: number;
  /** host:port or the sentinel master, for logs. */
  readonly label: string;
  /** TLS without verifying the server's certificate (`tls.insecure`): the transport warns of it. */
  readonly insecure: boolean;
}

const refuse = (detail: string) => new CheckbridgeError('CB_CONFIG_REFUSED', `redis: ${detail}`);

function sentinelList(value: unknown): { host: string; port: number }[] {
  // A String (REDIS_SENTINEL_URLS) never connects in legacy (a quirk): here it is read as a list of URLs.
  const entries =
    typeof value === 'string'
      ? value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : Array.isArray(value)
        ? value
        : [];
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
    // rediss:// verifies the server's certificate against the system CAs: a private CA or the opt-out needs the Hash form.
    const tls = url.protocol === 'rediss:' ? { tls: brokerTls({}, 'redis').options } : {};
    return { options: { host, port, ...(password ? { password } : {}), ...tls }, db: 0, label: `${host}:${port}`, insecure: false };
  }
  if (value !== undefined && value !== null && (typeof value !== 'object' || Array.isArray(value))) throw refuse('must be a hash or a redis:// URL');
  const hash = (value ?? {}) as Record<string, unknown>;
  const get = (key: string) => (Object.hasOwn(hash, key) ? hash[key] : undefined);
  const db = Number(get('db') ?? 0);
  if (!Number.isInteger(db) || db < 0) throw refuse(`db must be a non-negative integer, not ${String(get('db'))}`);
  const tlsKey = get('tls') !== undefined && get('tls') !== null ? 'tls' : 'ssl';
  const tlsSetting = get(tlsKey);
  // EventMachine's start_tls verified nothing; here the certificate must chain to the system CAs or
  // `tls.trusted_ca_file`, unless `tls.insecure: true` says otherwise.
  const verify = tlsSetting
    ? brokerTls(typeof tlsSetting === 'object' && !Array.isArray(tlsSetting) ? (tlsSetting as Record<string, unknown>) : {}, `redis.${tlsKey}`)
    : null;
  const tls = verify ? { tls: verify.options } : {};
  const insecure = verify?.insecure === true;
  const password = typeof get('password') === 'string' ? { password: get('password') as string } : {};
  const sentinels = sentinelList(get('sentinels'));
  if (sentinels.length > 0) {
    const name = String(get('master') ?? get('master_group') ?? 'mymaster');
    return { options: { sentinels, name, db, ...password, ...tls }, db, label: `sentinel master ${name}`, insecure };
  }
  const host = String(get('host') ?? '127.0.0.1');
  const port = Number(get('port') ?? 6379);
  return { options: { host, port, db, ...password, ...tls }, db, label: `${host}:${port}`, insecure };
}
