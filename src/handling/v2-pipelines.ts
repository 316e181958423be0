import type { Logger } from 'pino';
import type { ResourceTables } from '../store/index.js';
import type { Spawner } from './mutate.js';
import { deliver, type Delivery } from './deliver.js';
import type { Handler } from '../legacy/index.js';
import { shapeEvent, filterAllows } from '../v2/index.js';
import type { Event, EventFilter, Handler as HandlerResource, Mutator, Pipeline } from '../v2/index.js';
import { SandboxAllowance, EVENT_ALLOWANCE_MS } from '../js-sandbox/index.js';
import { V2_BUILT_IN_FILTERS } from './builtin-filters.js';
import { withAssets, type AssetResolver } from '../assets/index.js';
import { withSecrets } from '../secrets/index.js';
import type { SecretsLookup } from '../secrets/index.js';

interface Step {
  readonly handler: string;
  readonly filters: string[];
  readonly mutator: string | null;
}

/** The handler steps an event asks for: its pipelines' workflows, else `check.handlers`, plus `metrics.handlers`. */
function stepsOf(store: ResourceTables, namespace: string, event: Event, log: Logger): Step[] {
  const steps: Step[] = [];
  for (const ref of event.pipelines ?? []) {
    const pipeline: Pipeline | null = store.getResource('Pipeline', namespace, String(ref.name));
    if (!pipeline) {
      log.error({ pipeline: ref.name, namespace }, 'pipeline not found');
      continue;
    }
    for (const workflow of pipeline.workflows ?? []) {
      if (!workflow.handler?.name) continue;
      steps.push({
        handler: String(workflow.handler.name),
        filters: (workflow.filters ?? []).map((f) => String(f.name)),
        mutator: workflow.mutator?.name ?? null,
      });
    }
  }
  if (steps.length === 0) for (const name of event.check?.handlers ?? []) steps.push({ handler: name, filters: [], mutator: null });
  for (const name of event.metrics?.handlers ?? []) steps.push({ handler: name, filters: [], mutator: null });
  return steps;
}

/** Where v2 handlers run: the legacy handlers' queues (per handler, limited, drained at stop, `handler_timeout`). */
export interface HandlerQueue {
  submit(key: string, ids: Record<string, unknown>, work: (spawn: Spawner, timeout: number | undefined) => Promise<Delivery>): Promise<void>;
}

/** The step's filters in order: true when all allow the event; expressions spend the namespace's and the event's sandbox time. */
async function passesFilters(
  store: ResourceTables,
  namespace: string,
  event: Event,
  filters: readonly string[],
  fields: Record<string, unknown>,
  log: Logger,
  allowance: SandboxAllowance,
): Promise<boolean> {
  for (const name of filters) {
    const builtin = V2_BUILT_IN_FILTERS.get(name);
    const resource: EventFilter | null = builtin ? null : store.getResource('EventFilter', namespace, name);
    if (!builtin && !resource) {
      log.error({ ...fields, filter: name }, 'filter not found');
      return false;
    }
    const verdict = builtin
      ? { allowed: builtin(event) }
      : await filterAllows(resource!, event, Date.now(), (entity, check) => store.getEvent(namespace, entity, check), { namespace, allowance });
    if ('error' in verdict && verdict.error) log.error({ ...fields, filter: name, error: verdict.error }, 'filter expression failed');
    if (!verdict.allowed) {
      log.info({ ...fields, filter: name }, 'event was filtered');
      return false;
    }
  }
  return true;
}

// Anyone with `edit` writes v2 mutators and handlers, which hold the legacy handlers' shared slots while they run:
// their own timeout applies only below checkbridge.handler_timeout (undefined: none of their own).
const boundedTimeout = (own: unknown, ceiling: number | undefined): number | undefined =>
  typeof own === 'number' && own > 0 ? Math.min(own, ceiling ?? own) : undefined;

/** One step's mutator, then its pipe, tcp or udp handler; logged here, counted by the queue. */
async function runStep(
  store: ResourceTables,
  namespace: string,
  event: Event,
  json: string,
  step: Step,
  handler: HandlerResource,
  spawn: Spawner,
  timeout: number | undefined,
  log: Logger,
  assets?: AssetResolver,
  secrets?: SecretsLookup,
): Promise<Delivery> {
  const fields = { event: event.id, handler: step.handler, namespace };
  let data = json;
  const mutatorName = step.mutator ?? handler.mutator ?? null;
  if (mutatorName === 'only_check_output') data = String(event.check?.output ?? '');
  else if (mutatorName && mutatorName !== 'json') {
    const mutator: Mutator | null = store.getResource('Mutator', namespace, String(mutatorName));
    if (!mutator?.command) {
      log.error({ ...fields, mutator: mutatorName }, 'mutator not found');
      return { ok: false, error: 'mutator not found' };
    }
    const run = await withSecrets(
      withAssets(spawn, assets, mutator.runtime_assets),
      mutator,
      secrets,
    )(mutator.command, { stdin: json, timeout: boundedTimeout(mutator.timeout, timeout) ?? timeout });
    if (run.status !== 0) {
      log.error({ ...fields, mutator: mutatorName, output: run.output, status: run.status }, 'mutator error');
      return { ok: false, error: 'mutator error', output: run.output, status: run.status };
    }
    data = run.output;
  }
  const delivery = await deliver(
    { ...handler, name: step.handler, type: String(handler.type ?? 'pipe'), timeout: boundedTimeout(handler.timeout, timeout) } as Handler,
    data,
    withSecrets(withAssets(spawn, assets, handler.runtime_assets), handler, secrets),
    timeout,
  );
  if (delivery.error) log.error({ ...fields, error: delivery.error }, 'handler error');
  else log[delivery.ok ? 'info' : 'error']({ ...fields, output: delivery.output, status: delivery.status }, 'handler output');
  return delivery;
}

// Each entity's check's events leave their filters in the order they came, and what waits is bounded (as Sensu Go's
// pipelined bounds its queues): per entity and check MAX_WAITING_PER_KEY wait behind the one filtering, a newer event
// superseding the oldest waiting (the latest state is what a handler needs); per namespace MAX_PENDING_EVENTS and
// MAX_PENDING_BYTES (as JSON) wait or filter, past which an arriving event is not handled. Both are counted and logged.
const MAX_WAITING_PER_KEY = 16;
const MAX_PENDING_EVENTS = 1000;
const MAX_PENDING_BYTES = 32 << 20;
const LOG_EVERY_MS = 10_000;

interface Ticket {
  readonly start: () => void;
  readonly drop: () => void;
}
interface Lane {
  busy: boolean;
  readonly waiting: Ticket[];
}
const lanes = new Map<string, Lane>();
const pending = new Map<string, { events: number; bytes: number }>();
const drops = new Map<string, { count: number; total: number; at: number; timer?: NodeJS.Timeout }>();

// One warning per namespace per LOG_EVERY_MS with the count since the last one; a timer reports the rest.
function noteDropped(namespace: string, reason: string, log: Logger): void {
  let note = drops.get(namespace);
  if (!note) drops.set(namespace, (note = { count: 0, total: 0, at: -Infinity }));
  note.count++;
  note.total++;
  const report = () => {
    const entry = note!;
    entry.timer = undefined;
    if (entry.count === 0) return;
    log.warn(
      { namespace, dropped: entry.count, total: entry.total, reason },
      'v2 pipelines: events arrive faster than their filters run: these were not handled',
    );
    entry.count = 0;
    entry.at = Date.now();
  };
  const wait = note.at + LOG_EVERY_MS - Date.now();
  if (wait <= 0) report();
  else if (!note.timer) (note.timer = setTimeout(report, wait)).unref();
}

/** Runs `work` after the previous work of `key` settled; null when the event was dropped (past a bound) instead. */
function inOrder<T>(namespace: string, key: string, bytes: number, work: () => Promise<T>, log: Logger): Promise<T | null> {
  const totals = pending.get(namespace) ?? { events: 0, bytes: 0 };
  if (totals.events > 0 && (totals.events >= MAX_PENDING_EVENTS || totals.bytes + bytes > MAX_PENDING_BYTES)) {
    noteDropped(namespace, `more than ${MAX_PENDING_EVENTS} events or ${MAX_PENDING_BYTES} bytes waiting in the namespace`, log);
    return Promise.resolve(null);
  }
  pending.set(namespace, totals);
  let lane = lanes.get(key);
  if (!lane) lanes.set(key, (lane = { busy: false, waiting: [] }));
  const own = lane;
  totals.events++;
  totals.bytes += bytes;
  const done = () => {
    totals.events--;
    totals.bytes -= bytes;
    if (totals.events === 0 && pending.get(namespace) === totals) pending.delete(namespace);
  };
  const next = () => {
    const ticket = own.waiting.shift();
    if (ticket) return ticket.start();
    own.busy = false;
    if (lanes.get(key) === own) lanes.delete(key);
  };
  return new Promise<T | null>((resolve, reject) => {
    const start = () => {
      own.busy = true;
      work()
        .then(resolve, reject)
        .finally(() => (done(), next()));
    };
    const drop = () => (done(), resolve(null));
    if (!own.busy) return start();
    if (own.waiting.length >= MAX_WAITING_PER_KEY) {
      own.waiting.shift()!.drop();
      noteDropped(namespace, `more than ${MAX_WAITING_PER_KEY} events of one entity's check waiting: the oldest waiting is superseded`, log);
    }
    own.waiting.push({ start, drop });
  });
}

/**
 * Runs an event through its pipelines: filters first (in the sandbox's turn, after the previous
 * event of the same entity and check), then the mutator and the pipe, tcp or udp handler in that handler's queue.
 * Resolves once every step ran or was dropped, or at once when the event is past the bounds on what waits (logged).
 */
export async function runPipelines(
  store: ResourceTables,
  namespace: string,
  event: Event,
  queue: HandlerQueue,
  log: Logger,
  assets?: AssetResolver,
  secrets?: SecretsLookup,
): Promise<void> {
  const steps = stepsOf(store, namespace, event, log);
  // Most events name no handler: they need no serialisation.
  if (steps.length === 0) return;
  const json = JSON.stringify(shapeEvent(event));
  const key = `${namespace}\u0000${event.entity?.metadata?.name ?? ''}\u0000${event.check?.metadata?.name ?? ''}`;
  const jobs = await inOrder(namespace, key, json.length, () => submitSteps(store, namespace, event, json, steps, queue, log, assets, secrets), log);
  if (jobs) await Promise.all(jobs);
}

async function submitSteps(
  store: ResourceTables,
  namespace: string,
  event: Event,
  json: string,
  steps: Step[],
  queue: HandlerQueue,
  log: Logger,
  assets?: AssetResolver,
  secrets?: SecretsLookup,
): Promise<Promise<void>[]> {
  const allowance = new SandboxAllowance(EVENT_ALLOWANCE_MS, 'event');
  const jobs: Promise<void>[] = [];
  for (const step of steps) {
    const fields = { event: event.id, handler: step.handler, namespace };
    const handler: HandlerResource | null = store.getResource('Handler', namespace, step.handler);
    if (!handler) {
      log.error(fields, 'handler not found');
      continue;
    }
    if (!(await passesFilters(store, namespace, event, [...step.filters, ...(handler.filters ?? [])], fields, log, allowance))) continue;
    jobs.push(
      queue.submit(`${namespace}/${step.handler}`, fields, (spawn, timeout) =>
        runStep(store, namespace, event, json, step, handler, spawn, timeout, log, assets, secrets),
      ),
    );
  }
  return jobs;
}
