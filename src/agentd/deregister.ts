import type { Logger } from 'pino';
import type { ResultIntake } from '../execute/index.js';
import type { StateStore } from '../store/index.js';
import { isV2Event, removeClient, type IntakeEvent } from '../intake/index.js';
import type { SessionRegistry } from './sessions.js';

/**
 * Sensu Go's deregistration on loss: an agent entity with `deregister` whose keepalive fails (and is not connected)
 * goes, with its events and its client record. Listens on the intake's events.
 */
export function deregisterOnLoss(store: StateStore, intake: ResultIntake, sessions: SessionRegistry, logger: Logger): (emitted: IntakeEvent) => void {
  return (emitted) => {
    if (isV2Event(emitted)) return;
    const { client, check } = emitted.event as { client: Record<string, unknown>; check: Record<string, unknown> };
    if (check.name !== 'keepalive' || Number(check.status) === 0 || client.entity_class !== 'agent' || client.deregister !== true) return;
    const name = String(client.name);
    const namespace = String(client.namespace);
    if (sessions.get(namespace, name)) return;
    void removeClient(store, intake, name, Date.now()).then(() => {
      for (const event of store.resources.listEvents(namespace, name))
        store.resources.deleteEvent(namespace, name, String((event.check as { metadata?: { name?: string } } | undefined)?.metadata?.name));
      store.resources.deleteEntity(namespace, name);
      logger.info({ agent: name, namespace }, 'agent deregistered: its keepalive failed');
    });
  };
}
