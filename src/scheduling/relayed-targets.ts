import { randomUUID } from 'node:crypto';
import type { ClusterChannel } from '../cluster/index.js';
import type { TargetKind, V2CheckRequest } from './check-request-targets.js';

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

/** Whether the member `name` of `namespace` is connected to this server (its session, whatever its subscriptions). */
export type IsLocal = (namespace: string, name: string) => boolean;

/**
 * A kind of subscriber whose members are connected to any server of a shared store (Sensu Go agents): a request goes
 * to this server's members and, over the channel, to the other servers', which deliver it to theirs and relay nothing.
 * Each server tells the others which members it holds, so that a round robin turns over the members of every server.
 */
export function relayedTargets(local: TargetKind, channel: ClusterChannel, roster: () => RosterEntry[], isLocal: IsLocal): TargetKind & { close(): void } {
  const server = randomUUID();
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
    if (typeof m.namespace !== 'string' || !isRequest(m.request)) return;
    if (typeof m.subscription === 'string') local.broadcast(m.namespace, m.subscription, m.request);
    else if (typeof m.name === 'string') local.send(m.namespace, m.name, m.request);
  });
  const tell = setInterval(() => {
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
      // Relayed only where another server holds a member of the subscription.
      if (remoteMembers(namespace, subscription, []).length > 0) channel.publish({ kind: local.kind, namespace, subscription, request } satisfies Relayed);
    },
    send(namespace, name, request) {
      // An agent holds one session, on one server: its session says whether here (an API edit may drop `entity:NAME`).
      if (isLocal(namespace, name)) return local.send(namespace, name, request);
      channel.publish({ kind: local.kind, namespace, name, request } satisfies Relayed);
    },
    close: () => clearInterval(tell),
  };
}
