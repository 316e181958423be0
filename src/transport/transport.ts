/** Moves check requests from the server role to client roles; a networked one (Redis) implements the same. */
export type CheckRequest = Record<string, unknown> & { readonly name: string; readonly issued?: number };

export interface Transport {
  /** Fanout to every subscriber, or to exactly one for `roundrobin:` and `direct:` subscriptions. */
  publish(subscription: string, request: CheckRequest): void;
  /** `consumer` names the subscriber: a round-robin subscription delivers to one consumer at a time. */
  subscribe(subscription: string, consumer: string, handler: (request: CheckRequest, subscription: string) => void): () => void;
  close(): Promise<void>;
}

/** Legacy routing: `_, type = sub.split(":", 2).reverse`; direct and roundrobin go to one consumer. */
export function isSharedQueue(subscription: string): boolean {
  const colon = subscription.indexOf(':');
  if (colon < 0) return false;
  const type = subscription.slice(0, colon);
  return type === 'roundrobin' || type === 'direct';
}
