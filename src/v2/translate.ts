import type { EventDraft } from '../legacy/index.js';
import { metricTagList } from '../metrics/index.js';
import type { Check, Entity, Event, ObjectMeta } from './generated/interfaces.js';

/** A translated entity or check: its metadata is always there. */
type WithMetadata<T> = T & { metadata: ObjectMeta };
/** A legacy event as a core/v2 Event: its check and entity always there, with their metadata. */
export type TranslatedEvent = Event & { check: WithMetadata<Check>; entity: WithMetadata<Entity> };
/** A legacy client or check result: any attributes, of whatever type the sender gave. */
type Legacy = Readonly<Record<string, unknown>>;

// A legacy attribute as the v2 field's type: the Go decoder of sensuctl and the backend refuses a number sent as a
// string, so a legacy value of the wrong type is converted (a number's text) or left at the field's zero value.
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const texts = (value: unknown): string[] | null => (Array.isArray(value) ? value.map(String) : null);
const number = (value: unknown): number => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : 0;
};

/** One entry of a check's stored history: the status and when it ran. */
interface TimedStatus {
  readonly status: number;
  readonly executed: number;
}

const handlersOf = (check: Legacy): string[] => {
  const list = check.handlers ?? check.handler;
  return list === undefined || list === null ? [] : (Array.isArray(list) ? list : [list]).map(String);
};

// v2 statuses are unsigned; a negative legacy status is unknown (docs/legacy-quirks.md), which v2 spells 3.
const v2Status = (status: unknown) => (Number(status) < 0 ? 3 : Number(status));

/** A legacy client as a core/v2 Entity: `agent`, or `proxy` for a source or a client without keepalives. */
export function translateClient(client: Legacy, namespace: string): WithMetadata<Entity> {
  const name = String(client.name);
  const subscriptions = (texts(client.subscriptions) ?? []).map((s) => (s === `client:${name}` ? `entity:${name}` : s));
  if (!subscriptions.includes(`entity:${name}`)) subscriptions.push(`entity:${name}`);
  const handler = (client.deregistration as Legacy | undefined)?.handler;
  return {
    entity_class: client.type === 'proxy' || client.keepalives === false ? 'proxy' : 'agent',
    system: { hostname: text(client.hostname) ?? (client.type === 'proxy' ? undefined : name), network: { interfaces: null } },
    subscriptions,
    last_seen: Number(client.timestamp ?? 0),
    deregister: client.deregister === true,
    deregistration: handler ? { handler: String(handler) } : {},
    metadata: { name, namespace },
    sensu_agent_version: client.type === 'proxy' ? '' : String(client.version ?? ''),
  };
}

/** A legacy event as a core/v2 Event (client → agent or proxy entity, `source` → proxy entity, history with times). */
export function translateEvent(event: EventDraft, history: readonly TimedStatus[], namespace: string): TranslatedEvent {
  const { check } = event;
  const entity = translateClient(event.client, namespace);
  const status = v2Status(check.status);
  const state = event.action === 'flapping' ? 'flapping' : status === 0 ? 'passing' : 'failing';
  const v2Check: WithMetadata<Check> = {
    command: text(check.command),
    handlers: handlersOf(check),
    high_flap_threshold: number(check.high_flap_threshold),
    interval: number(check.interval),
    low_flap_threshold: number(check.low_flap_threshold),
    publish: check.publish === true,
    subscriptions: texts(check.subscribers) ?? [],
    proxy_entity_name: text(check.source) ?? '',
    stdin: check.stdin === true,
    cron: text(check.cron),
    ttl: number(check.ttl),
    timeout: number(check.timeout),
    duration: check.duration === undefined ? undefined : number(check.duration),
    executed: Number(check.executed ?? 0),
    history: history.map((h) => ({ status: v2Status(h.status), executed: h.executed })),
    issued: Number(check.issued ?? 0),
    output: String(check.output ?? ''),
    state,
    status,
    total_state_change: Number(check.total_state_change ?? 0),
    last_ok: event.last_ok ?? 0,
    occurrences: event.occurrences,
    occurrences_watermark: event.occurrences_watermark,
    silenced: event.silenced_by.length > 0 ? event.silenced_by : undefined,
    output_metric_format: text(check.output_metric_format) ?? '',
    output_metric_handlers: texts(check.output_metric_handlers),
    output_metric_tags: check.output_metric_tags === undefined || check.output_metric_tags === null ? undefined : metricTagList(check.output_metric_tags),
    metadata: { name: String(check.name), namespace },
    is_silenced: event.silenced,
    scheduler: 'memory',
    processed_by: 'checkbridge',
  };
  return { check: v2Check, entity, id: event.id, metadata: { namespace }, pipelines: null, sequence: 0, timestamp: event.timestamp };
}

/** A core/v2 check as a legacy check result: `name`, `subscribers`, `source`, statuses only in `history`. */
export function legacyCheckOf(check: Check): Record<string, unknown> {
  const legacy: Record<string, unknown> = {
    name: String(check.metadata?.name ?? ''),
    command: check.command,
    interval: check.interval,
    subscribers: check.subscriptions ?? [],
    handlers: check.handlers ?? [],
    ttl: check.ttl || undefined,
    timeout: check.timeout || undefined,
    low_flap_threshold: check.low_flap_threshold || undefined,
    high_flap_threshold: check.high_flap_threshold || undefined,
    source: check.proxy_entity_name || undefined,
    issued: Number(check.issued ?? 0),
    executed: Number(check.executed ?? 0),
    duration: check.duration,
    output: String(check.output ?? ''),
    status: Number(check.status ?? 0),
    history: (check.history ?? []).map((entry) => String(entry?.status ?? 0)),
    total_state_change: Number(check.total_state_change ?? 0),
  };
  return Object.fromEntries(Object.entries(legacy).filter(([, value]) => value !== undefined));
}

/** A core/v2 event as the legacy API serves it: a legacy event, whose id may be missing. */
export type LegacyEventView = Omit<EventDraft, 'id'> & { id: string | undefined; [attribute: string]: unknown };

/** A core/v2 event as a legacy event (the reverse of `translateEvent`), its client being the legacy record given. */
export function legacyEventOf(event: Event, client: Record<string, unknown>): LegacyEventView {
  const check: Check & { last_state_change?: number } = event.check ?? {};
  const silencedBy = Array.isArray(check.silenced) ? check.silenced.map(String) : [];
  return {
    id: event.id,
    client,
    check: legacyCheckOf(check),
    occurrences: Number(check.occurrences ?? 1),
    occurrences_watermark: Number(check.occurrences_watermark ?? 1),
    last_ok: Number(check.last_ok) > 0 ? Number(check.last_ok) : null,
    last_state_change: Number(check.last_state_change) > 0 ? Number(check.last_state_change) : null,
    action: check.state === 'flapping' ? 'flapping' : 'create',
    timestamp: Number(event.timestamp ?? check.executed ?? 0),
    silenced: check.is_silenced === true || silencedBy.length > 0,
    silenced_by: silencedBy,
  };
}
