import { createRequire } from 'node:module';
import type PromClient from 'prom-client';
import { isV2Event, type IntakeEvent } from '../../intake/index.js';

/** The families /metrics adds to checkbridge's own: the process and runtime ones, and Sensu Go's event counter. */
export interface ServerMetrics {
  /** Prometheus text of those families. */
  text(): Promise<string>;
  /** Counts one event that left the intake. */
  eventProcessed(event: IntakeEvent): void;
}

// prom-client and its collectors (a fifth of a second, and an event loop monitor) are loaded by the first scrape.
const load = createRequire(import.meta.url);
// The series Sensu Go's eventd starts with, at 0, so that a dashboard's query finds them before the first event.
const FIRST_SERIES = ['success check', 'success metrics', 'error unknown', 'error check'];

/** A registry of its own per daemon, so that two in one process (tests) never share counters. */
export function serverMetrics(): ServerMetrics {
  // Counted here until the first scrape makes the registry; the counter takes them over then.
  const counts = new Map<string, number>(FIRST_SERIES.map((series) => [series, 0]));
  let made: { registry: PromClient.Registry; processed: PromClient.Counter<'status' | 'type'> } | null = null;
  const make = () => {
    const { Counter, Registry, collectDefaultMetrics } = load('prom-client') as typeof PromClient;
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    const processed = new Counter({
      name: 'sensu_go_events_processed',
      help: 'The total number of processed events',
      labelNames: ['status', 'type'] as const,
      registers: [registry],
    });
    for (const [series, n] of counts) processed.labels(...(series.split(' ') as [string, string])).inc(n);
    return { registry, processed };
  };
  return {
    text: () => (made ??= make()).registry.metrics(),
    eventProcessed(event) {
      // Sensu Go's rule: an event with a check is a check event, one with only metrics a metrics event; a legacy result is a check's.
      const v2 = isV2Event(event) ? (event.event as { check?: unknown; metrics?: unknown }) : null;
      const type = !v2 || v2.check ? 'check' : v2.metrics ? 'metrics' : 'unknown';
      if (made) made.processed.labels('success', type).inc();
      else counts.set(`success ${type}`, (counts.get(`success ${type}`) ?? 0) + 1);
    },
  };
}
