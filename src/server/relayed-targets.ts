import type { ClusterChannel } from '../cluster/index.js';
import type { TargetKind, V2CheckRequest } from './check-request-targets.js';

/** A request crossing to the other servers: for a subscription's members, or for one member by name. */
interface Relayed {
  readonly kind: string;
  readonly namespace: string;
  readonly subscription?: string;
  readonly name?: string;
  readonly request: V2CheckRequest;
}

/**
 * A kind of subscriber whose members are connected to any server of a shared store (Sensu Go agents): a request goes
 * to this server's members and, over the channel, to the other servers', which deliver it to theirs and relay nothing.
 */
export function relayedTargets(local: TargetKind, channel: ClusterChannel): TargetKind {
  channel.onMessage((message) => {
    const relayed = message as Relayed;
    if (relayed?.kind !== local.kind || typeof relayed.namespace !== 'string') return;
    if (typeof relayed.subscription === 'string') local.broadcast(relayed.namespace, relayed.subscription, relayed.request);
    else if (typeof relayed.name === 'string') local.send(relayed.namespace, relayed.name, relayed.request);
  });
  return {
    kind: local.kind,
    members: (namespace, subscription) => local.members(namespace, subscription),
    broadcast(namespace, subscription, request) {
      local.broadcast(namespace, subscription, request);
      channel.publish({ kind: local.kind, namespace, subscription, request } satisfies Relayed);
    },
    send(namespace, name, request) {
      // An agent holds one session, on one server: whichever holds it delivers.
      local.send(namespace, name, request);
      channel.publish({ kind: local.kind, namespace, name, request } satisfies Relayed);
    },
  };
}
