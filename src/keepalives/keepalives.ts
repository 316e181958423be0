import { randomUUID } from 'node:crypto';
import type { ResultIntake } from '../execute/index.js';
import type { Settings } from '../config/index.js';
import { deepMerge } from '../config/index.js';
import type { StateStore } from '../store/index.js';
import { substituteObject } from '../tokens/index.js';
import { buildEvent, type EventDraft } from '../legacy/index.js';
import { withoutExpiredTombstone } from '../intake/index.js';
import { applySilencing } from '../intake/index.js';
import { entityRefusal } from '../intake/index.js';
import { keepaliveDefaultsOf } from '../config/index.js';

export type KeepaliveOutcome = { accepted: false; reason: string } | { accepted: true; registration: EventDraft | null };

/** update_client_registry: subscriptions gain client:<name>; a new client may raise a registration event. */
export function receiveKeepalive(store: StateStore, settings: Settings, payload: Record<string, unknown>, nowMs: number): KeepaliveOutcome {
  const name = String(payload.name);
  const subscriptions = Array.isArray(payload.subscriptions) ? payload.subscriptions : [];
  const client: Record<string, unknown> = { ...payload, subscriptions: [...new Set([...subscriptions, `client:${name}`])] };
  return store.transaction(() => {
    // Servers sharing a store: one registers a new client, the other sees it registered.
    store.lockClients([name]);
    const existing = withoutExpiredTombstone(store.getClient(name), Math.floor(nowMs / 1000));
    const storedSignature = typeof existing?.signature === 'string' ? existing.signature : '';
    if (storedSignature !== '' && storedSignature !== client.signature) return { accepted: false as const, reason: 'invalid client signature' };
    const refusal = existing ? null : entityRefusal(store, settings, name);
    if (refusal) return { accepted: false as const, reason: refusal };
    store.putClient(client);
    if (existing) return { accepted: true as const, registration: null };
    const wantsRegistration = Boolean(settings.handlers.registration) || Boolean(client.registration);
    if (!wantsRegistration) return { accepted: true as const, registration: null };
    const now = Math.floor(nowMs / 1000);
    const check = deepMerge({ handler: 'registration', status: 1 }, client.registration ?? {}) as Record<string, unknown>;
    // The client's own status wins, 0 included: only the name, output and times are forced.
    const registration = {
      ...check,
      name: 'registration',
      output: 'new client registration',
      issued: now,
      executed: now,
      status: typeof check.status === 'number' ? check.status : 1,
    };
    const event = buildEvent({ client, check: registration, history: [], lastOk: null, stored: null, now, newId: randomUUID });
    applySilencing(store, event, nowMs);
    return { accepted: true as const, registration: event };
  });
}

/** A keepalive received as a unit of work of the store: on PostgreSQL, its round trips never hold the event loop. */
export function storeKeepalive(store: StateStore, settings: Settings, payload: Record<string, unknown>, nowMs: number): Promise<KeepaliveOutcome> {
  let outcome: KeepaliveOutcome | null = null;
  const keys = { pairs: [], clients: [String(payload.name)] };
  return store
    .unit(
      keys,
      () => (outcome = receiveKeepalive(store, settings, payload, nowMs)),
      () => (outcome = null),
    )
    .then(() => outcome!);
}

/** The keepalive check of one client, ready to enter intake as a result. */
export function keepaliveCheck(
  settings: Settings,
  client: Record<string, unknown>,
  nowMs: number,
): Record<string, unknown> & { name: string; status: number; output: string; executed: number } {
  const now = Math.floor(nowMs / 1000);
  let check: Record<string, unknown> = { thresholds: { warning: 120, critical: 180 } };
  if (settings.handlers.keepalive) check.handler = 'keepalive';
  check = deepMerge(check, keepaliveDefaultsOf(settings)) as Record<string, unknown>;
  check = deepMerge(check, client.keepalive ?? {}) as Record<string, unknown>;
  const { value, unmatched } = substituteObject<Record<string, unknown>>({ ...check, name: 'keepalive', issued: now, executed: now }, client);
  const thresholds = (value.thresholds ?? {}) as { warning?: number; critical?: number };
  const warning = Number(thresholds.warning ?? 120);
  const critical = Number(thresholds.critical ?? 180);
  const age = now - Number(client.timestamp ?? now);
  let status = 0;
  let output = `Keepalive sent from client ${age} seconds ago`;
  if (age >= critical) [status, output] = [2, `No keepalive sent from client for ${age} seconds (>=${critical})`];
  else if (age >= warning) [status, output] = [1, `No keepalive sent from client for ${age} seconds (>=${warning})`];
  if (unmatched.length > 0) {
    output += ` - Unmatched client token(s): ${unmatched.join(', ')}`;
    if (status === 0) status = 1;
  }
  return { ...value, name: 'keepalive', status, output, executed: now };
}

// Clients a pass submits at once: 10,000 in one group commit held the event loop for seconds, 500 for 0.2–0.4 s on a
// loaded machine (CPU profile): events arriving meanwhile wait for the slice's commit.
const MONITOR_SLICE = 100;

/** One pass of the keepalive monitor: every client except those with keepalives: false, a slice at a time. */
export async function monitorKeepalives(store: StateStore, settings: Settings, intake: ResultIntake, nowMs: number): Promise<void> {
  const clients = store.listClients().filter((client) => client.keepalives !== false && !client.invalidated);
  for (let at = 0; at < clients.length; at += MONITOR_SLICE) {
    const submissions = clients.slice(at, at + MONITOR_SLICE).map((client) =>
      intake.submit({
        client: String(client.name),
        check: keepaliveCheck(settings, client, nowMs),
        fromServer: true,
        ...(typeof client.signature === 'string' ? { signature: client.signature } : {}),
      }),
    );
    await Promise.allSettled(submissions);
  }
}

/** A stored result's check as the TTL monitor reads it: it ran (`executed`) and has a ttl. */
type StaleCheck = Record<string, unknown> & {
  executed: number;
  ttl: unknown;
  name?: unknown;
  force_resolve?: unknown;
  ttl_status?: unknown;
  history?: unknown;
};

/** One pass of the TTL monitor: stale results raise `Last check execution was N seconds ago`. */
export async function monitorTtl(store: StateStore, intake: ResultIntake, nowMs: number): Promise<void> {
  const now = Math.floor(nowMs / 1000);
  const submissions: Promise<void>[] = [];
  // One row at a time, histories left unread: with a million history entries stored, loading every result at once
  // every 30 s is what set the daemon's peak memory (daemon-scale).
  const stale: { client: string; check: StaleCheck }[] = [];
  for (const stored of store.resultChecks()) {
    const check = stored.check as Partial<StaleCheck>;
    if (!check.ttl || typeof check.executed !== 'number' || check.force_resolve) continue;
    if (now - check.executed >= Number(check.ttl)) stale.push({ client: stored.client, check: check as StaleCheck });
  }
  for (const stored of stale) {
    const check = stored.check;
    const age = now - check.executed;
    if (store.getEvent(stored.client, 'keepalive')) continue;
    const { history: _h, ...rest } = check;
    const output = `Last check execution was ${age} seconds ago`;
    const status = typeof check.ttl_status === 'number' ? check.ttl_status : 1;
    submissions.push(
      intake.submit({
        client: stored.client,
        check: { ...rest, name: String(check.name), output, status, executed: check.executed, interval: 30 },
        fromServer: true,
      }),
    );
  }
  await Promise.allSettled(submissions);
}
