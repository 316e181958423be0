import { HandlerPipeline, runPipelines } from '../../handling/index.js';
import { removeClient } from '../../intake/index.js';
import { isV2Event } from '../../intake/index.js';
import type { WireTransport } from '../../transport/index.js';
import type { Logger } from '../../log.js';
import { SETTLE_MS, type Service } from '../lifecycle.js';
import type { Execution } from './execution.js';
import type { DaemonStore } from './store.js';
import type { SettingsHub } from './settings-hub.js';

/** The handler queue: limited, given the grace at stop, then its process groups stopped and drained. */
export function buildHandling(parts: { hub: SettingsHub; store: DaemonStore; execution: Execution; wire: WireTransport | null }, logger: Logger): { handlers: HandlerPipeline; service: Service } {
  const { hub, execution, wire } = parts;
  const { store, intake, secrets, namespace } = parts.store;
  const handlers = new HandlerPipeline({
    settings: hub.current,
    store,
    logger,
    now: Date.now,
    spawn: execution.spawner.spawn,
    secrets: secrets.in(() => namespace()),
    deleteClient: (name) => removeClient(store, intake, name, Date.now()),
    assets: execution.assets.legacy,
    publish: wire ? (type, pipe, body, options) => wire.send(type, pipe, body, options) : undefined,
  });
  // Where every event leaves the intake: legacy handler sets and v2 pipelines, both in the handlers' queues.
  intake.onEvent((emitted) => {
    if (isV2Event(emitted)) {
      const { namespace: ns, event } = emitted;
      return void runPipelines(store.resources, ns, event, handlers, logger, execution.assets.v2(store.resources, ns), secrets.in(ns)).catch((error) => logger.error({ err: error }, 'pipeline failed'));
    }
    logger.debug({ client: emitted.event.client.name, check: emitted.event.check.name, action: emitted.event.action, occurrences: emitted.event.occurrences }, 'event processed');
    if (emitted.handle) handlers.handle(emitted.event);
  });
  hub.onApply((s) => handlers.checkSettings(s));
  execution.settleAtStop(() => handlers.drain(SETTLE_MS));
  const service: Service = {
    name: 'handlers',
    start: async () => undefined,
    async stop(deadline) {
      if (!(await handlers.stop(deadline - Date.now()))) logger.warn({ handlers: handlers.pending }, 'still running at stop: their processes are stopped');
    },
  };
  return { handlers, service };
}
