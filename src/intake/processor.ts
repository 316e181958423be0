import { randomUUID } from 'node:crypto';
import type { Settings } from '../config/index.js';
import { definitionOf } from '../config/index.js';
import type { CheckResult } from '../execute/index.js';
import type { StateStore, HistoryEntry } from '../store/index.js';
import { applySilencing } from './silencing.js';
import { aggregateNames } from './aggregates.js';
import { buildEvent, registryUpdate, truncateOutput, shouldTruncate, HISTORY_LENGTH, type EventDraft, type StoredEvent } from '../legacy/index.js';
import { legacyNamespace } from '../config/index.js';
import { entityRefusal } from './entity-gate.js';
import { LEGACY_VERSION } from '../legacy-version.js';

// cli/run.ts still imports the version from here, under its old name.

export interface Processed {
  readonly event: EventDraft;
  /** Whether the event goes on to handlers. */
  readonly handle: boolean;
  /** The stored history with execution times (the v2 translation needs them). */
  readonly history: readonly HistoryEntry[];
}

export type ProcessOutcome = { ok: true; processed: Processed } | { ok: false; reason: string; code?: 'CB_ENTITY_LIMIT' };

/** A client deleted with `invalidate` refuses results until its expiry; after it, it is as if absent. */
export function withoutExpiredTombstone(client: Record<string, unknown> | null, now: number): Record<string, unknown> | null {
  if (!client?.invalidated) return client;
  const until = client.invalidated_until;
  return typeof until === 'number' && until <= now ? null : client;
}

const sourceOf = (result: CheckResult) => (typeof result.check.source === 'string' && result.check.source !== '' ? result.check.source : undefined);

/** The client and check a result updates (its source for a proxy result): what `store.lockResults` takes. */
export function resultKey(result: CheckResult): [client: string, check: string] {
  return [sourceOf(result) ?? result.client, String(result.check.name)];
}

/**
 * The legacy server's process_check_result, inside the caller's transaction, which has
 * taken `store.lockResults` for this result's key: the last result and event are read here and written back.
 */
export function processResult(store: StateStore, settings: Settings, result: CheckResult, nowMs: number): ProcessOutcome {
  const now = Math.floor(nowMs / 1000);
  const source = sourceOf(result);
  const key = source ?? result.client;
  let client = withoutExpiredTombstone(store.getClient(key), now);
  if (client) {
    // An agent of another namespace is the agent WebSocket's alone: no legacy door writes into that namespace.
    if (client.entity_class === 'agent' && client.namespace !== legacyNamespace(settings) && !result.fromServer) {
      return {
        ok: false,
        reason: `client ${JSON.stringify(key)} is a Sensu Go agent of namespace ${JSON.stringify(client.namespace)}: its results come only over the agent WebSocket`,
      };
    }
    if (typeof client.signature === 'string' && client.signature !== '' && client.signature !== result.signature) {
      return { ok: false, reason: 'invalid check result signature' };
    }
  } else {
    const refusal = entityRefusal(store, settings, key);
    if (refusal) return { ok: false, reason: refusal, code: 'CB_ENTITY_LIMIT' };
    // A just-in-time client; `type: proxy` when the result named a source.
    client = {
      name: key,
      address: 'unknown',
      subscriptions: [`client:${key}`],
      keepalives: false,
      version: LEGACY_VERSION,
      timestamp: now,
      ...(source ? { type: 'proxy' } : {}),
    };
    store.putClient(client);
  }

  const name = result.check.name;
  const defined = settings.checks[name];
  const check: Record<string, unknown> & { name: string; status: number } =
    defined && !result.check.standalone ? { ...definitionOf(settings, name), ...result.check } : { ...result.check };
  check.type ??= 'standard';
  if (source) check.origin = result.client;
  // Secrets substituted from proxy attributes are not stored.
  if (defined && client.type === 'proxy' && typeof defined.command === 'string') check.command = defined.command;

  for (const aggregate of aggregateNames(check)) store.aggregates.add(aggregate, key, name);
  const stored = store.getHistory(key, name);
  const history: HistoryEntry[] = [...(stored?.history ?? []), { status: check.status, executed: Number(check.executed) || now }].slice(-HISTORY_LENGTH);
  const lastOk = check.status === 0 ? Number(check.executed) || now : (stored?.lastOk ?? null);
  const forStorage =
    shouldTruncate(check) && typeof check.output === 'string'
      ? { ...check, output: truncateOutput(check.output, Number(check.truncate_output_length) || 255) }
      : check;
  store.putResult(key, forStorage, history, lastOk);

  const storedEvent = store.getEvent(key, name) as StoredEvent | null;
  const event = buildEvent({ client, check, history: history.map((h) => String(h.status)), lastOk, stored: storedEvent, now, newId: randomUUID });
  applySilencing(store, event, nowMs);
  const decision = registryUpdate(event);
  if (decision.update === 'store') store.putEvent(key, name, event as unknown as Record<string, unknown>);
  else if (decision.update === 'remove') store.deleteEvent(key, name);
  return { ok: true, processed: { event, handle: decision.process, history } };
}
