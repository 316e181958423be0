// Typed reads of the keys the Settings type leaves open (sensu, api, transport, checkbridge, checks, assets as
// configured): every default for them is written here, once.
import type { Settings } from './settings.js';

type Section = Readonly<Record<string, unknown>>;

/** An object-valued key, or {} when it is absent or not an object (reading a key of it then gives undefined, as before). */
const sectionOf = (value: unknown): Section => (value !== null && typeof value === 'object' ? (value as Section) : {});
const checkbridgeOf = (settings: Settings) => sectionOf(settings.raw.checkbridge);
const sensuOf = (settings: Settings) => sectionOf(settings.raw.sensu);
const apiOf = (settings: Settings) => sectionOf(settings.raw.api);
const numberOr = <T>(value: unknown, fallback: T): number | T => (value === undefined || value === null ? fallback : (value as number));

/** The checks as configured (no defaults added), by name. */
export const configuredChecks = (settings: Settings) => sectionOf(settings.raw.checks) as Readonly<Record<string, Record<string, unknown>>>;

/** conf.d's top-level `assets` category, by name. */
export const configuredAssets = (settings: Settings) => sectionOf(settings.raw.assets) as Readonly<Record<string, Record<string, unknown>>>;

/** The namespace legacy events are mirrored into (checkbridge.namespace). */
export const legacyNamespace = (settings: Settings): string => String(checkbridgeOf(settings).namespace ?? 'default');

/** An instance without a license monitors at most 100 entities; `checkbridge.entity_limit` (0: none) raises it. */
export const DEFAULT_ENTITY_LIMIT = 100;

export function entityLimitOf(settings: Settings): number {
  const value = checkbridgeOf(settings).entity_limit;
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : DEFAULT_ENTITY_LIMIT;
}

/** Datastore reads over 100 ms and log syncs over 1 s are warnings (`checkbridge.datastore_warnings`). */
export function datastoreWarningsOf(settings: Settings): { readMs: number; syncMs: number } {
  const section = sectionOf(checkbridgeOf(settings).datastore_warnings);
  return { readMs: numberOr(section.read_ms, 100), syncMs: numberOr(section.sync_ms, 1000) };
}

/** The bound on results held in memory while the broker is away (checkbridge.transport_buffer). */
export const DEFAULT_RESULT_BUFFER = 10_000;

export function resultBufferOf(settings: Settings): number {
  const configured = checkbridgeOf(settings).transport_buffer;
  return typeof configured === 'number' && Number.isInteger(configured) && configured >= 0 ? configured : DEFAULT_RESULT_BUFFER;
}

/** `transport.name` as configured (validated by the caller, which knows the role). */
export const configuredTransportName = (settings: Settings): unknown => sectionOf(settings.raw.transport).name;

/** `checkbridge.store.dsn` as configured (validated by the caller). */
export const configuredStoreDsn = (settings: Settings): unknown => sectionOf(checkbridgeOf(settings).store).dsn;

/** `checkbridge.store_quota`: the embedded store's size bound in bytes (the store applies its own default). */
export const storeQuotaOf = (settings: Settings) => checkbridgeOf(settings).store_quota as number | undefined;

/** `checkbridge.default_timeout`: a check's timeout when it sets none (the runner applies its own default). */
export const defaultCheckTimeoutOf = (settings: Settings) => checkbridgeOf(settings).default_timeout as number | undefined;

/** `sensu.spawn.limit`: how many checks, hooks, handlers and mutators run at once. */
export const spawnLimitOf = (settings: Settings): number => numberOr(sectionOf(sensuOf(settings).spawn).limit, 12);

/** Seconds between keepalives (`checkbridge.keepalive_interval`) and between monitor passes (`checkbridge.monitor_interval`). */
export const keepaliveIntervalOf = (settings: Settings): number => numberOr(checkbridgeOf(settings).keepalive_interval, 20);
export const monitorIntervalOf = (settings: Settings): number => numberOr(checkbridgeOf(settings).monitor_interval, 30);

/** `sensu.server`: the broker pipes and the size bound of one message. */
export const serverSettingsOf = (settings: Settings) =>
  sectionOf(sensuOf(settings).server) as { keepalives_pipe?: unknown; results_pipe?: unknown; max_message_size?: unknown };

/** `sensu.keepalives`: what every client's keepalive check starts from. */
export const keepaliveDefaultsOf = (settings: Settings): unknown => sensuOf(settings).keepalives ?? {};

/** The client socket's bounds: message size (`sensu.server.max_message_size`), buffer, and the time one message may take. */
export function socketLimitsOf(settings: Settings): { maxMessageBytes?: number; bufferLimitBytes?: number; messageDeadlineMs: number } {
  const checkbridge = checkbridgeOf(settings);
  return {
    maxMessageBytes: serverSettingsOf(settings).max_message_size as number | undefined,
    bufferLimitBytes: checkbridge.socket_buffer_limit as number | undefined,
    messageDeadlineMs: numberOr(checkbridge.socket_message_timeout, 10) * 1000,
  };
}

/** How handlers run: overall concurrency, queued events per handler, and a handler's timeout in seconds. */
export function handlerTuningOf(settings: Settings): { handler_concurrency: number; handler_queue_limit: number; handler_timeout: number } {
  const checkbridge = checkbridgeOf(settings);
  return {
    handler_concurrency: numberOr(checkbridge.handler_concurrency, 16),
    handler_queue_limit: numberOr(checkbridge.handler_queue_limit, 10_000),
    handler_timeout: numberOr(checkbridge.handler_timeout, 600),
  };
}

/** `checkbridge.assets`: the asset cache's trust and size bounds (the asset module applies the bounds' defaults). */
export const assetSettingsOf = (settings: Settings) =>
  sectionOf(checkbridgeOf(settings).assets) as { trusted_ca_file?: string; max_download_bytes?: unknown; max_unpacked_bytes?: unknown; max_entries?: unknown };

export interface ListenerSettings {
  readonly bind?: string;
  readonly port?: number;
  readonly tls?: unknown;
}

/** `api`: where the legacy API listens. */
export const legacyApiListenerOf = (settings: Settings) => apiOf(settings) as ListenerSettings;

/** `checkbridge.v2_api`: where the v2 API listens. */
export const v2ApiListenerOf = (settings: Settings) => sectionOf(checkbridgeOf(settings).v2_api) as ListenerSettings;

/** `checkbridge.agentd`: where Sensu Go agents connect (the agent WebSocket) and how many new ones a second it admits (0: no bound). */
export const agentdListenerOf = (settings: Settings) =>
  sectionOf(checkbridgeOf(settings).agentd) as ListenerSettings & { readonly max_new_per_second?: unknown };

export function agentdRateOf(settings: Settings): number {
  const value = agentdListenerOf(settings).max_new_per_second;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

// An agent's largest frame is one event: 1 MiB, what the legacy API and the agent HTTP API take as a body (the v2 API
// takes 512,000 bytes); a larger frame closes the connection, and parsing one costs a single turn a bounded time.
const AGENTD_MAX_MESSAGE_BYTES = 1024 * 1024;

/** checkbridge.agentd.max_message_bytes: a positive whole number of bytes, else 1 MiB. */
export function agentdMaxMessageBytesOf(settings: Settings): number {
  const value = Number((agentdListenerOf(settings) as { max_message_bytes?: unknown }).max_message_bytes);
  return Number.isInteger(value) && value > 0 ? value : AGENTD_MAX_MESSAGE_BYTES;
}

/** `api.user` and `api.password` when both are set: every legacy API request must then carry them (basic auth). */
export function legacyApiCredentialsOf(settings: Settings): { user: string; password: string } | null {
  const api = apiOf(settings);
  return api.user !== undefined && api.password !== undefined ? { user: String(api.user), password: String(api.password) } : null;
}

/**
 * Whether the legacy API shows Sensu Go agents of namespaces other than `checkbridge.namespace`: only when
 * `checkbridge.legacy_api_all_namespaces` is true and callers must authenticate (api.user and api.password set).
 */
export const legacyApiAllNamespacesOf = (settings: Settings): boolean =>
  checkbridgeOf(settings).legacy_api_all_namespaces === true && legacyApiCredentialsOf(settings) !== null;

/** The legacy API's CORS headers (suffixes of `Access-Control-Allow-`): legacy's defaults under `api.cors`. */
export function legacyApiCorsOf(settings: Settings): Record<string, string> {
  const cors = {
    Origin: '*',
    Methods: 'GET, POST, PUT, DELETE, OPTIONS',
    Credentials: 'true',
    Headers: 'Origin, X-Requested-With, Content-Type, Accept, Authorization',
  };
  return { ...cors, ...(sectionOf(apiOf(settings).cors) as Record<string, string>) };
}

/** A check as configured (no defaults added), with its name: what requests and results carry. */
export function definitionOf(settings: Settings, name: string): Record<string, unknown> & { name: string } {
  const checks = configuredChecks(settings);
  const raw = Object.hasOwn(checks, name) ? checks[name]! : {};
  return { ...structuredClone(raw), name };
}
