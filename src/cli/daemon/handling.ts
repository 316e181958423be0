import { Handling } from '../../handling/index.js';
import { removeClient } from '../../intake/index.js';
import type { WireTransport } from '../../transport/index.js';
import type { Logger } from '../../log.js';
import { SETTLE_MS } from '../lifecycle.js';
import type { Execution } from './execution.js';
import type { DaemonStore } from './store.js';
import type { SettingsHub } from './settings-hub.js';
import { systemClock } from '../../schedule/index.js';
import { Rehearsal } from '../../rehearsal/index.js';

/** The handler queue: limited, given the grace at stop, then its process groups stopped and drained. */
export function buildHandling(
  parts: { hub: SettingsHub; store: DaemonStore; execution: Execution; broker: WireTransport | null; rehearse: boolean },
  logger: Logger,
): Handling {
  const { hub, execution, broker } = parts;
  const { store, intake, secrets, namespace } = parts.store;
  // The migration rehearsal watches the legacy decisions (on unless --no-rehearsal or CHECKBRIDGE_REHEARSAL=off).
  const rehearsal = parts.rehearse ? new Rehearsal({ settings: hub.current, store, logger, now: () => systemClock.now() }) : null;
  const handling = new Handling({
    settings: hub.current,
    store,
    logger,
    clock: systemClock,
    spawn: execution.processes.spawner.spawn,
    secrets: secrets.in(() => namespace()),
    deleteClient: (name) => removeClient(store, intake, name, Date.now()),
    assets: execution.assets.legacy,
    publish: broker ? (type, pipe, body, options) => broker.send(type, pipe, body, options) : undefined,
    intake,
    v2: (ns) => ({ assets: execution.assets.v2(store.resources, ns), secrets: secrets.in(ns) }),
    ...(rehearsal ? { observer: rehearsal } : {}),
  });
  if (rehearsal) execution.processes.settleAtStop(() => rehearsal.settled());
  hub.onApply((s) => handling.handlers.checkSettings(s));
  execution.processes.settleAtStop(() => handling.handlers.drain(SETTLE_MS));
  return handling;
}
