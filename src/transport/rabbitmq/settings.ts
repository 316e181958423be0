import type { ConnectionOptions } from 'node:tls';
import type { Options } from 'amqplib';
import { CheckbridgeError } from '../../errors.js';
import { brokerTls, type BrokerTls } from '../tls.js';

/** One broker entry: what both connections of one attempt use. */
export interface RabbitEndpoint {
  readonly connect: Options.Connect;
  readonly socket: { timeout: number } & Pick<ConnectionOptions, 'rejectUnauthorized' | 'ca' | 'checkServerIdentity' | 'cert' | 'key'>;
  /** TLS without verifying the broker's certificate (`ssl.insecure`): the transport warns of it. */
  readonly insecure: boolean;
  /** basic.qos prefetch_count per consumer; only the Hash form can set it. */
  readonly prefetch: number;
  /** host:port/vhost, for logs (never the password). */
  readonly label: string;
}

const refuse = (detail: string) => new CheckbridgeError('CB_CONFIG_REFUSED', `rabbitmq: ${detail}`);

// The AMQP gem's defaults: TCP connect timeout 3 s.
const DEFAULTS = { host: '127.0.0.1', port: 5672, vhost: '/', user: 'guest', password: 'guest', timeout: 3, frameMax: 131072 };

/**
 * Legacy proposes `heartbeat` (0 when unset) and takes the broker's value when either side says 0.
 * amqplib reads 0 as "disable": an unset or 0 heartbeat is left out, which makes amqplib accept the broker's.
 */
function heartbeatOf(value: unknown): { heartbeat?: number } {
  const seconds = Number(value ?? 0);
  return Number.isFinite(seconds) && seconds > 0 ? { heartbeat: seconds } : {};
}

function label(connect: Options.Connect): string {
  return `${connect.hostname}:${connect.port}/${connect.vhost}`;
}

/** `amqp[s]://user:pass@host:port/vhost`: `%2F` for `/`, a trailing `/` is vhost "", no path is "/". */
function fromUrl(text: string): RabbitEndpoint {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refuse(`not a URL: ${text.replace(/\/\/[^@]*@/, '//***@')}`);
  }
  const tls = url.protocol === 'amqps:';
  if (!tls && url.protocol !== 'amqp:') throw refuse(`URL scheme must be amqp or amqps, not ${url.protocol.replace(/:$/, '')}`);
  const path = url.pathname;
  if (path.slice(1).includes('/')) throw refuse('the URL path must be one segment (the vhost; write / as %2F)');
  const connect: Options.Connect = {
    protocol: tls ? 'amqps' : 'amqp',
    hostname: url.hostname.replace(/^\[|\]$/g, '') || DEFAULTS.host,
    port: url.port ? Number(url.port) : tls ? 5671 : DEFAULTS.port,
    username: url.username ? decodeURIComponent(url.username) : DEFAULTS.user,
    password: url.password ? decodeURIComponent(url.password) : DEFAULTS.password,
    vhost: path === '' ? '/' : decodeURIComponent(path.slice(1)),
    frameMax: DEFAULTS.frameMax,
  };
  // Unlike the AMQP gem, the broker's certificate is verified (system CAs): a private CA or the opt-out needs the Hash form.
  const verify: BrokerTls | null = tls ? brokerTls({}, 'rabbitmq') : null;
  return { connect, socket: { timeout: DEFAULTS.timeout * 1000, ...verify?.options }, insecure: false, prefetch: 1, label: label(connect) };
}

function fromHash(hash: Record<string, unknown>): RabbitEndpoint {
  const get = (...keys: string[]) =>
    keys.map((key) => (Object.hasOwn(hash, key) ? hash[key] : undefined)).find((value) => value !== undefined && value !== null);
  const ssl = get('ssl');
  const tls = ssl === true || (typeof ssl === 'object' && ssl !== null);
  const connect: Options.Connect = {
    protocol: tls ? 'amqps' : 'amqp',
    hostname: String(get('host') ?? DEFAULTS.host),
    // TLS does not switch the port in Hash form.
    port: Number(get('port') ?? DEFAULTS.port),
    username: String(get('user', 'username') ?? DEFAULTS.user),
    password: String(get('password', 'pass') ?? DEFAULTS.password),
    vhost: String(get('vhost') ?? DEFAULTS.vhost),
    ...heartbeatOf(get('heartbeat')),
    frameMax: Number(get('frame_max') ?? DEFAULTS.frameMax),
  };
  // Legacy verified nothing; here the broker's certificate must chain to the system CAs or `ssl.trusted_ca_file`,
  // unless `ssl.insecure: true` says otherwise.
  const verify = tls ? brokerTls(typeof ssl === 'object' && ssl !== null ? (ssl as Record<string, unknown>) : {}, 'rabbitmq.ssl') : null;
  const socket: RabbitEndpoint['socket'] = { timeout: Number(get('timeout') ?? DEFAULTS.timeout) * 1000, ...verify?.options };
  const prefetch = Number(get('prefetch') ?? 1);
  if (!Number.isInteger(prefetch) || prefetch < 1 || prefetch > 65535)
    throw refuse(`prefetch must be an integer from 1 to 65535, not ${String(get('prefetch'))}`);
  if (!Number.isInteger(connect.port) || connect.port! < 1 || connect.port! > 65535) throw refuse(`not a port: ${String(get('port'))}`);
  return { connect, socket, insecure: verify?.insecure === true, prefetch, label: label(connect) };
}

/** The `rabbitmq` setting (Hash, URL, failover Array of either, or absent) as broker entries, in the given order. */
export function rabbitEndpoints(value: unknown): RabbitEndpoint[] {
  if (value === undefined || value === null) return [fromHash({})];
  const entries = Array.isArray(value) ? value.flat(Infinity) : [value];
  if (entries.length === 0) return [fromHash({})];
  return entries.map((entry) => {
    if (typeof entry === 'string') return fromUrl(entry);
    if (typeof entry === 'object' && entry !== null && !Array.isArray(entry)) return fromHash(entry as Record<string, unknown>);
    throw refuse(`each entry must be a hash or an amqp:// URL, not ${JSON.stringify(entry)}`);
  });
}
