import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { ClusterChannel } from '../cluster/index.js';
import { checkRunOf, type TargetKind, type V2CheckRequest } from './check-request-targets.js';

/** One member connected to this server: its namespace, name and subscriptions. */
export type RosterEntry = readonly [namespace: string, name: string, subscriptions: readonly string[]];

/** A request crossing to the other servers: for a subscription's members, or for one member by name. */
interface Relayed {
  readonly kind: string;
  readonly namespace: string;
  readonly subscription?: string;
  readonly name?: string;
  readonly request: V2CheckRequest;
}

/** Which members a server holds now: sent when it changes, and every ROSTER_REFRESH_MS so that a silent server's expires. */
interface Roster {
  readonly kind: string;
  readonly server: string;
  readonly members: readonly RosterEntry[];
}

const ROSTER_CHECK_MS = 1000;
const ROSTER_REFRESH_MS = 10_000;
// A server killed without a word: its members stop being chosen this long after its last roster.
const ROSTER_EXPIRY_MS = 3 * ROSTER_REFRESH_MS;

// A request of a check without an interval (cron) is useful this long after it was issued.
const NO_INTERVAL_KEEP_S = 60;
// A request heard is remembered this long past its staleness: longer than the channel keeps its row, clocks apart.
const REMEMBER_MS = 120_000;

/** When a request is useless (epoch ms): its check's interval after it was issued, plus the second `issued` was truncated by. */
function staleAt(request: V2CheckRequest): number {
  const interval = Number((request.config as { interval?: unknown }).interval);
  return (request.issued + (Number.isFinite(interval) && interval > 0 ? interval : NO_INTERVAL_KEEP_S) + 1) * 1000;
}

const rosterKey = (namespace: string, subscription: string) => `${namespace}\u0000${subscription}`;

// Signed by a server, yet checked: a message of another version must not throw out of the channel's listener.
const isRosterEntry = (e: unknown): boolean =>
  Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'string' && Array.isArray(e[2]) && e[2].every((s: unknown) => typeof s === 'string');
const isRequest = (r: unknown): r is V2CheckRequest => {
  const request = r as Partial<V2CheckRequest> | null;
  return (
    typeof request === 'object' &&
    request !== null &&
    typeof request.config === 'object' &&
    request.config !== null &&
    Array.isArray(request.hooks) &&
    Array.isArray(request.assets) &&
    typeof request.issued === 'number'
  );
};

/** A roster's names by namespace and subscription. */
function indexOf(members: readonly RosterEntry[]): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const [namespace, name, subscriptions] of members) {
    for (const subscription of subscriptions) {
      const key = rosterKey(namespace, subscription);
      const names = index.get(key);
      if (names) names.push(name);
      else index.set(key, [name]);
    }
  }
  return index;
}

/** The target and check of a relayed request: its issues follow one another. */
const issueTarget = (m: Relayed) => JSON.stringify([m.namespace, m.subscription ?? null, m.name ?? null, checkRunOf(m.request)]);

/** Which relayed requests to deliver: each issue once, none stale; a request kept by the channel may be heard again, or after a newer one. */
function relayedIssues(logger: Logger): { fresh(m: Relayed, newest: number): boolean; delivered(m: Relayed): void; forget(now: number): void } {
  const log = logger.child({ component: 'relayed check requests' });
  // Issues taken, and the latest per target and check.
  const taken = new Map<string, number>();
  const latest = new Map<string, { issued: number; forget: number }>();
  return {
    fresh(m, newest) {
      const check = checkRunOf(m.request);
      const key = issueTarget(m);
      const issue = `${key}@${m.request.issued}`;
      if (taken.has(issue)) return false;
      const last = latest.get(key);
      const reason =
        Date.now() >= staleAt(m.request)
          ? "older than its check's interval"
          : (last && last.issued > m.request.issued) || newest > m.request.issued
            ? 'a newer request was delivered'
            : '';
      const about = { namespace: m.namespace, check, issued: m.request.issued, subscription: m.subscription, agent: m.name };
      if (reason) {
        log.info({ ...about, reason }, 'check request from another server dropped as stale');
        return false;
      }
      this.delivered(m);
      return true;
    },
    // Also this server's own requests (it became the elected one): another server's older one, kept by the channel and
    // heard afterwards, is then dropped as stale here, logged, rather than by the agent, unsaid.
    delivered(m) {
      const key = issueTarget(m);
      const forget = staleAt(m.request) + REMEMBER_MS;
      taken.set(`${key}@${m.request.issued}`, forget);
      if ((latest.get(key)?.issued ?? -Infinity) < m.request.issued) latest.set(key, { issued: m.request.issued, forget });
    },
    forget(now) {
      for (const [issue, forget] of taken) if (forget < now) taken.delete(issue);
      for (const [key, { forget }] of latest) if (forget < now) latest.delete(key);
    },
  };
}

/** Takes the requests heard from the other servers; delivers them to this server's members each turn. */
function deliveryByTurn(local: TargetKind, issues: ReturnType<typeof relayedIssues>): (m: Relayed) => void {
  // Requests heard in one turn (kept ones sent or read back together): only the newest of a check goes out, since an agent
  // drops a request that comes while the check runs.
  let turn: Map<string, Relayed[]> | null = null;
  const deliverTurn = () => {
    const heard = turn ?? new Map<string, Relayed[]>();
    turn = null;
    for (const list of heard.values()) {
      const newest = Math.max(...list.map((m) => m.request.issued));
      for (const m of list) {
        if (!issues.fresh(m, newest)) continue;
        if (typeof m.subscription === 'string') local.broadcast(m.namespace, m.subscription, m.request);
        else if (typeof m.name === 'string') local.send(m.namespace, m.name, m.request);
      }
    }
  };
  return (m: Relayed) => {
    if (!turn) setImmediate(deliverTurn);
    turn ??= new Map();
    const key = issueTarget(m);
    turn.set(key, [...(turn.get(key) ?? []), m]);
  };
}

/** Whether the member `name` of `namespace` is connected to this server (its session, whatever its subscriptions). */
export type IsLocal = (namespace: string, name: string) => boolean;

/**
 * A kind of subscriber whose members are connected to any server of a shared store (Sensu Go agents): a request goes
 * to this server's members and, over the channel, to the other servers', which deliver it to theirs and relay nothing.
 * Each server tells the others which members it holds, so that a round robin turns over the members of every server.
 */
export function relayedTargets(
  local: TargetKind,
  channel: ClusterChannel,
  roster: () => RosterEntry[],
  isLocal: IsLocal,
  logger: Logger,
): TargetKind & { close(): void } {
  const server = randomUUID();
  const issues = relayedIssues(logger);
  const take = deliveryByTurn(local, issues);
  // Each other server's members by namespace and subscription, and when it last told them.
  const remote = new Map<string, { at: number; bySubscription: Map<string, string[]> }>();
  let told = '';
  let toldAt = 0;
  channel.onMessage((message) => {
    const m = message as Partial<Relayed & Roster>;
    if (m?.kind !== local.kind) return;
    if (typeof m.server === 'string' && Array.isArray(m.members)) {
      if (!m.members.every(isRosterEntry)) return;
      // A server not heard before (just started) is told this one's members at the next check, not in 10 s.
      if (!remote.has(m.server)) told = '';
      return void remote.set(m.server, { at: Date.now(), bySubscription: indexOf(m.members) });
    }
    if (typeof m.namespace !== 'string' || !isRequest(m.request) || (typeof m.subscription !== 'string' && typeof m.name !== 'string')) return;
    take(m as Relayed);
  });
  const tell = setInterval(() => {
    const now = Date.now();
    issues.forget(now);
    const members = roster();
    const text = JSON.stringify(members);
    if (text === told && Date.now() - toldAt < ROSTER_REFRESH_MS) return;
    told = text;
    toldAt = Date.now();
    channel.publish({ kind: local.kind, server, members } satisfies Roster);
  }, ROSTER_CHECK_MS);
  tell.unref();
  /** Members of the subscription held by the other servers (rosters not expired), not connected here. */
  const remoteMembers = (namespace: string, subscription: string, here: readonly string[]): string[] => {
    const now = Date.now();
    const names = new Set<string>();
    for (const [id, held] of remote) {
      if (now - held.at > ROSTER_EXPIRY_MS) remote.delete(id);
      else for (const name of held.bySubscription.get(rosterKey(namespace, subscription)) ?? []) if (!here.includes(name)) names.add(name);
    }
    return [...names];
  };
  return {
    kind: local.kind,
    members(namespace, subscription) {
      const here = local.members(namespace, subscription);
      return remote.size === 0 ? here : [...here, ...remoteMembers(namespace, subscription, here)];
    },
    broadcast(namespace, subscription, request) {
      local.broadcast(namespace, subscription, request);
      issues.delivered({ kind: local.kind, namespace, subscription, request });
      // Relayed only where another server holds a member of the subscription.
      if (remoteMembers(namespace, subscription, []).length > 0)
        channel.publish({ kind: local.kind, namespace, subscription, request } satisfies Relayed, staleAt(request));
    },
    send(namespace, name, request) {
      // An agent holds one session, on one server: its session says whether here (an API edit may drop `entity:NAME`).
      if (isLocal(namespace, name)) {
        issues.delivered({ kind: local.kind, namespace, name, request });
        return local.send(namespace, name, request);
      }
      // Kept until stale: a server not listening now (its channel's connection cut) reads it when back.
      channel.publish({ kind: local.kind, namespace, name, request } satisfies Relayed, staleAt(request));
    },
    close: () => clearInterval(tell),
  };
}
