import type { Transport } from '../transport/index.js';
import { secretRefsOf } from '../config/index.js';
import type { RemoteSecrets } from './remote-delivery.js';

import type { Json } from '../json.js';

// A broker relays requests: no client proves a certificate to the server through it, so no value goes over it.
const BROKER_REASON = 'a legacy client over a broker (RabbitMQ, Redis) cannot prove mutual TLS to the server: secrets are sent only over mutual TLS';

export interface BrokerWithheldDeps {
  /** The client registry. */
  readonly clients: () => readonly Json[];
  /** The in-process client's name (it resolves its checks' secrets itself), or null when this process runs none. */
  readonly local: () => string | null;
  /** The namespace legacy Secrets are read in (checkbridge.namespace). */
  readonly namespace: () => string;
  readonly secrets: RemoteSecrets;
}

/** The registered clients a request published on `subscription` reaches (`client:NAME` included: each client holds its own). */
function subscribersOf(clients: readonly Json[], subscription: string): string[] {
  return clients.filter((c) => c.type !== 'proxy' && Array.isArray(c.subscriptions) && c.subscriptions.includes(subscription)).map((c) => String(c.name));
}

/**
 * The legacy transport over a broker, saying once per check and client that a remote client runs a check without its
 * secrets: requests carry their `secrets` as names only, which the in-process client resolves and no other can.
 */
export function withWithheldSecretsLogged(transport: Transport, deps: BrokerWithheldDeps): Transport {
  return {
    publish(subscription, request) {
      if (secretRefsOf(request).length > 0) {
        const local = deps.local();
        for (const name of subscribersOf(deps.clients(), subscription)) {
          if (name !== local) deps.secrets.noteWithheld(deps.namespace(), request.name, { kind: 'client', name }, BROKER_REASON);
        }
      }
      transport.publish(subscription, request);
    },
    subscribe: (subscription, consumer, handler) => transport.subscribe(subscription, consumer, handler),
    close: () => transport.close(),
  };
}
