import type { StateStore } from '../store/index.js';
import type { EventRow } from '../store/index.js';
import type { Processed } from './processor.js';
import { isV2Event } from './intake-types.js';
import type { IntakeTopics } from './topics.js';
import { translateEvent, type Event } from '../v2/index.js';

/**
 * What each processed legacy event writes, inside the transaction that stores it: the core/v2 event and its entity
 * (the two APIs tell one story) and, with a bridge, its outbox row (nothing lost, nothing sent that was not stored).
 * With `events` (the event store router) the event goes where events live now: staged last, so a failure before it
 * stages nothing; the intake writes the staged rows to PostgreSQL before it answers.
 */
export function legacyToV2Writer(
  store: StateStore,
  namespace: () => string,
  bridgeNamespace: string | null,
  events?: { stage(rows: readonly EventRow[]): void },
): (processed: Processed) => void {
  // The namespace legacy events mirror into (checkbridge.namespace) exists from the start, as any namespace with
  // contents must (the v2 API writes only into namespaces that exist); a reload naming another creates that one.
  let present = '';
  const ensureNamespace = (ns: string) => {
    if (ns === present) return;
    // Known present only once read so: one written here may yet be rolled back with its transaction.
    if (store.resources.getResource('Namespace', '', ns)) present = ns;
    else store.resources.putResource('Namespace', '', ns, { name: ns });
  };
  ensureNamespace(namespace());
  return (processed) => {
    const client = processed.event.client as Record<string, unknown>;
    // A Sensu Go agent's record (src/agentd) names its namespace, and its stored entity is the one the event carries.
    const agent = client.entity_class === 'agent' && typeof client.namespace === 'string';
    const ns = agent ? String(client.namespace) : namespace();
    if (!agent) ensureNamespace(ns);
    const v2 = translateEvent(processed.event, processed.history, ns);
    const entity = String(v2.entity.metadata.name);
    const check = String(v2.check.metadata.name);
    const stored = agent ? store.resources.getEntity(ns, entity) : null;
    if (!stored) store.resources.putEntity(ns, entity, v2.entity);
    const event: Event = stored ? { ...v2, entity: stored } : v2;
    if (!events) store.resources.putEvent(ns, entity, check, event);
    if (bridgeNamespace !== null) {
      // The bridge sends the same translation without history (the backend keeps its own); the sender adds `sequence`.
      const { sequence: _sequence, ...body } = bridgeNamespace === ns ? event : translateEvent(processed.event, processed.history, bridgeNamespace);
      store.outbox.add(bridgeNamespace, entity, check, JSON.stringify({ ...body, check: { ...body.check, history: undefined } }), Date.now());
    }
    events?.stage([{ namespace: ns, entity, check, event }]);
  };
}

/** The bridge's sender kicked after each committed legacy event, which may have added to its outbox (v2 API events are not bridged). */
export function kickOnLegacyEvents(topics: Pick<IntakeTopics, 'committed'>, sender: { kick(): void } | null): void {
  topics.committed.subscribe((emitted) => void (isV2Event(emitted) || sender?.kick()));
}
