import type { Logger } from 'pino';
import type { AgentSession, SessionRegistry } from '../agentd/index.js';
import type { ClusterChannel } from '../cluster/index.js';
import type { RemoteSecrets } from '../secrets/index.js';
import { checkRunOf, type TargetKind, type V2CheckRequest } from './check-request-targets.js';
import { relayedTargets, type RosterEntry } from './relayed-targets.js';

/** The agents connected here, with their subscriptions: what the other servers' round robins choose among. */
function rosterOf(sessions: SessionRegistry): RosterEntry[] {
  return sessions.all().map((s) => [s.identity.namespace, s.identity.name, [...s.subscriptions]] as const);
}

/**
 * Connected agents as one kind of subscriber of v2 check requests: each gets Sensu Go's `check_request` frame, with
 * the check's resolved secrets only over mutual TLS (resolved at send time, per member, on the server it is connected to).
 */
export function agentTargets(sessions: SessionRegistry, secrets: RemoteSecrets): TargetKind {
  const issuedTo = new WeakMap<AgentSession, Map<string, number>>();
  // A check of two subscriptions the agent holds both of reaches it once an issue: the agent would drop the second
  // by its issued time, but only after the first has started, so two back to back can both run.
  const fresh = (session: AgentSession, request: V2CheckRequest): boolean => {
    let last = issuedTo.get(session);
    if (!last) issuedTo.set(session, (last = new Map()));
    const key = checkRunOf(request);
    if (last.get(key) === request.issued) return false;
    last.set(key, request.issued);
    return true;
  };
  const member = (session: AgentSession) => ({
    kind: 'agent',
    name: session.identity.name,
    delivery: session.secretsDelivery(),
    send: (request: V2CheckRequest) => void session.send('check_request', request),
  });
  return {
    kind: 'agent',
    members: (namespace, subscription) => sessions.withSubscription(namespace, subscription).map((session) => session.identity.name),
    broadcast: (namespace, subscription, request) =>
      secrets.deliver(
        namespace,
        request,
        sessions
          .withSubscription(namespace, subscription)
          .filter((session) => fresh(session, request))
          .map(member),
      ),
    send: (namespace, name, request) => {
      const session = sessions.get(namespace, name);
      if (session && fresh(session, request)) secrets.deliver(namespace, request, [member(session)]);
    },
  };
}

/** The agents' target kind: those connected here, and with servers sharing a store, those connected to the others. */
export function connectedAgents(
  sessions: SessionRegistry,
  secrets: RemoteSecrets,
  channel: ClusterChannel | null,
  logger: Logger,
): TargetKind & { close(): void } {
  const local = agentTargets(sessions, secrets);
  // Servers sharing a store: a request for agents travels to the servers they are connected to.
  if (!channel) return { ...local, close: () => undefined };
  return relayedTargets(
    local,
    channel,
    () => rosterOf(sessions),
    (ns, name) => sessions.get(ns, name) !== null,
    logger,
  );
}
