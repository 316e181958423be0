import { Counter, Registry, collectDefaultMetrics } from 'prom-client';
import { isV2Event, type IntakeEvent } from '../../intake/index.js';

/** The families /metrics adds to checkbridge's own: the process and runtime ones, and Sensu Go's event counter. */
export interface ServerMetrics {
  /** Prometheus text of those families. */
  text(): Promise<string>;
  /** Counts one event that left the intake. */
  eventProcessed(event: IntakeEvent): void;
}

/** A registry of its own per daemon, so that two in one process (tests) never share counters. */
export function serverMetrics(): ServerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const processed = new Counter({
    name: 'sensu_go_events_processed',
    help: 'The total number of processed events',
    labelNames: ['status', 'type'] as const,
    registers: [registry],
  });
  // The series Sensu Go's eventd starts with, at 0, so that a dashboard's query finds them before the first event.
  for (const [status, type] of [
    ['success', 'check'],
    ['success', 'metrics'],
    ['error', 'unknown'],
    ['error', 'check'],
  ] as const)
    processed.labels(status, type).inc(0);
  return {
    text: () => registry.metrics(),
    eventProcessed(event) {
      // Sensu Go's rule: an event with a check is a check event, one with only metrics a metrics event; a legacy result is a check's.
      const v2 = isV2Event(event) ? (event.event as { check?: unknown; metrics?: unknown }) : null;
      processed.labels('success', !v2 || v2.check ? 'check' : v2.metrics ? 'metrics' : 'unknown').inc();
    },
  };
}
