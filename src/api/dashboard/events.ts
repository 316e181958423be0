import type { StateStore } from '../../store/index.js';
import { silenceKeys } from '../../intake/index.js';
import { param } from './deps.js';
import { isPlainObject } from '../../config/index.js';
import type { Check } from '../../v2/index.js';

/** One open event as the dashboard lists it, legacy or v2 alike. */
export interface EventRow {
  readonly source: 'legacy' | 'v2';
  readonly namespace: string;
  readonly client: string;
  readonly check: string;
  readonly status: number;
  readonly output: string;
  readonly occurrences: number;
  readonly history: number[];
  readonly last_ok: number | null;
  readonly timestamp: number;
  readonly action: string;
  readonly silenced: boolean;
  readonly silenced_by: string[];
  readonly subscriptions: string[];
}

const MAX_OUTPUT = 2000;
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);
const clip = (text: unknown) => String(text ?? '').slice(0, MAX_OUTPUT);

/**
 * Every open event: the legacy events, silenced by the entries in force now (a silence shows at once, not at the next
 * result), and the v2 events that are not failing mirrors of a legacy result (those are the same story told twice).
 */
export function openEvents(store: StateStore, mirrorNamespace: string, nowMs: number): EventRow[] {
  const silences = new Map(store.silences.list(nowMs).map((e) => [e.key, e.value]));
  const now = Math.floor(nowMs / 1000);
  const rows: EventRow[] = [];
  // A Sensu Go agent's legacy record (its keepalive) mirrors into the agent's own namespace, not the legacy one.
  const namespaceOf = (client: Record<string, unknown>) =>
    client.entity_class === 'agent' && typeof client.namespace === 'string' ? client.namespace : mirrorNamespace;
  const mirrored = new Set(store.listResults().map((r) => `${mirrorNamespace}\u0000${r.client}\u0000${String(r.check.name)}`));
  for (const event of store.listEvents()) {
    // A legacy event's parts as stored, read field by field.
    const client = isPlainObject(event.client) ? event.client : {};
    const check = isPlainObject(event.check) ? event.check : {};
    mirrored.add(`${namespaceOf(client)}\u0000${String(client.name)}\u0000${String(check.name)}`);
    const clientSubs = strings(client.subscriptions);
    const silencedBy = silenceKeys(clientSubs, String(check.name)).filter((key) => {
      const entry = silences.get(key);
      return entry !== undefined && (entry.begin === null || entry.begin === undefined || Number(entry.begin) <= now);
    });
    rows.push({
      source: 'legacy',
      namespace: namespaceOf(client),
      client: String(client.name),
      check: String(check.name),
      status: Number(check.status),
      output: clip(check.output),
      occurrences: Number(event.occurrences ?? 1),
      history: strings(check.history).map(Number),
      last_ok: typeof event.last_ok === 'number' ? event.last_ok : null,
      timestamp: Number(event.timestamp ?? 0),
      action: String(event.action ?? 'create'),
      silenced: silencedBy.length > 0,
      silenced_by: silencedBy,
      subscriptions: [...new Set([...strings(check.subscribers), ...clientSubs])],
    });
  }
  for (const event of store.resources.listEvents(null)) {
    const namespace = String(event.metadata?.namespace ?? event.entity?.metadata?.namespace ?? '');
    const entity = String(event.entity?.metadata?.name ?? '');
    const check: Check = event.check ?? {};
    const name = String(check.metadata?.name ?? '');
    if (Number(check.status ?? 0) === 0) continue;
    if (mirrored.has(`${namespace}\u0000${entity}\u0000${name}`)) continue;
    const silencedBy = strings(check.silenced);
    rows.push({
      source: 'v2',
      namespace,
      client: entity,
      check: name,
      status: Number(check.status),
      output: clip(check.output),
      occurrences: Number(check.occurrences ?? 1),
      history: (Array.isArray(check.history) ? check.history : []).map((h) => Number(h?.status ?? 0)),
      last_ok: Number(check.last_ok) > 0 ? Number(check.last_ok) : null,
      timestamp: Number(event.timestamp ?? check.executed ?? 0),
      action: check.state === 'flapping' ? 'flapping' : 'create',
      silenced: check.is_silenced === true || silencedBy.length > 0,
      silenced_by: silencedBy,
      subscriptions: [...new Set([...strings(check.subscriptions), ...strings(event.entity?.subscriptions)])],
    });
  }
  return rows;
}

// Unknown covers every status past 2 (and negative ones, which legacy wrapped to a severity).
const statusClass = (status: number) => (status >= 0 && status <= 2 ? String(status) : '3');
const SORTS = new Map<string, (a: EventRow, b: EventRow) => number>([
  ['status', (a, b) => Number(statusClass(a.status)) - Number(statusClass(b.status))],
  ['client', (a, b) => a.client.localeCompare(b.client)],
  ['check', (a, b) => a.check.localeCompare(b.check)],
  ['occurrences', (a, b) => a.occurrences - b.occurrences],
  ['timestamp', (a, b) => a.timestamp - b.timestamp],
  ['last_ok', (a, b) => (a.last_ok ?? 0) - (b.last_ok ?? 0)],
]);
const MAX_PAGE = 500;

/** Filters (status, client, check, subscription, silenced, free text), sorts and pages on the server. */
export function queryEvents(rows: readonly EventRow[], query: unknown) {
  const status = param(query, 'status');
  const client = param(query, 'client').toLowerCase();
  const check = param(query, 'check').toLowerCase();
  const subscription = param(query, 'subscription');
  const silenced = param(query, 'silenced');
  const text = param(query, 'q').toLowerCase();
  const counts = { 0: 0, 1: 0, 2: 0, 3: 0 } as Record<string, number>;
  const matching = rows.filter((row) => {
    if (client && !row.client.toLowerCase().includes(client)) return false;
    if (check && !row.check.toLowerCase().includes(check)) return false;
    if (subscription && !row.subscriptions.includes(subscription)) return false;
    if (silenced === 'true' && !row.silenced) return false;
    if (silenced === 'false' && row.silenced) return false;
    if (text && !`${row.client} ${row.check} ${row.output}`.toLowerCase().includes(text)) return false;
    counts[statusClass(row.status)]! += 1;
    return !status || statusClass(row.status) === status;
  });
  const byKey = SORTS.get(param(query, 'sort')) ?? SORTS.get('status')!;
  const direction = param(query, 'order') === 'asc' ? 1 : -1;
  // Ties fall back to newest first, then client and check, so pages are stable.
  matching.sort((a, b) => direction * byKey(a, b) || b.timestamp - a.timestamp || a.client.localeCompare(b.client) || a.check.localeCompare(b.check));
  const limitText = param(query, 'limit');
  const limit = /^[0-9]{1,4}$/.test(limitText) ? Math.min(Math.max(Number(limitText), 1), MAX_PAGE) : 50;
  const offsetText = param(query, 'offset');
  const offset = /^[0-9]{1,9}$/.test(offsetText) ? Number(offsetText) : 0;
  return { total: matching.length, offset, limit, counts, items: matching.slice(offset, offset + limit) };
}
