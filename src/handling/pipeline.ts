import type { Logger } from 'pino';
import type { Settings } from '../config/index.js';
import type { StateStore } from '../store/index.js';
import { Limiter } from '../execute/index.js';
import { resolveHandlers, handlerNames, type EventDraft, type Handler } from '../legacy/index.js';
import { filterEvent, type Filtered } from './filter.js';
import { mutateEvent, eventJson, type Spawner } from './mutate.js';
import { deliver, type Delivery, type TransportPublish } from './deliver.js';
import { withAssets, type AssetResolver } from '../assets/index.js';
import { withSecrets } from '../secrets/index.js';
import type { SecretsLookup } from '../secrets/index.js';
import { handlerTuningOf } from '../config/index.js';
import type { ReadClock } from '../schedule/index.js';

export interface PipelineDeps {
  readonly settings: () => Settings;
  readonly store: StateStore;
  readonly logger: Logger;
  /** Milliseconds; filters' `when` windows are read against it. */
  readonly clock: ReadClock;
  readonly spawn: Spawner;
  /** The built-in `deregistration` handler: removes the client as the API's DELETE /clients does. */
  readonly deleteClient: (name: string) => Promise<boolean>;
  readonly zone?: string;
  /** Runtime assets for these settings' handlers and mutators. */
  readonly assets?: (settings: Settings) => AssetResolver;
  /** Resolves handlers' and mutators' `secrets`. */
  readonly secrets?: SecretsLookup;
  /** `type: transport` handlers publish here when a broker is configured. */
  readonly publish?: TransportPublish;
}

/** What legacy decided for one event: per handler it resolved to, the filter that skipped it or null (queued). */
export interface LegacyDecision {
  readonly handlers: readonly { readonly handler: Handler; readonly filtered: Filtered | null }[];
  readonly errors: readonly { readonly name: string; readonly message: string }[];
}

export interface PipelineCounters {
  events: number;
  handled: number;
  filtered: number;
  failed: number;
  dropped: number;
}

// Logged output is capped: a handler that floods its output must not flood the log.
const MAX_LOGGED_OUTPUT = 64 * 1024;
function lines(output: string | undefined): string[] {
  let text = output ?? '';
  if (text.length > MAX_LOGGED_OUTPUT)
    text = `${text.slice(0, MAX_LOGGED_OUTPUT)}\n[checkbridge: ${text.length - MAX_LOGGED_OUTPUT} more characters not logged]`;
  return text.split(/\n+/).filter((l) => l !== '');
}

/** How many of `concurrency` slots v2 work may hold: one namespace at most half; all namespaces together leave legacy handlers a quarter. */
export function v2Shares(concurrency: number): { namespace: number; v2: number } {
  return { namespace: Math.max(1, Math.floor(concurrency / 2)), v2: Math.max(1, concurrency - Math.ceil(concurrency / 4)) };
}

/**
 * Events to handlers, off the intake path: each handler has its own queue and a share of the
 * concurrency, so a hung or slow handler only delays itself; filters run at once, mutators and handlers in the queue.
 * v2 handlers (written by namespace users) also pass their namespace's share and the v2 share, so one namespace never
 * holds every slot and legacy handlers always keep some.
 */
export class HandlerPipeline {
  private readonly log: Logger;
  private readonly overall = new Limiter(16);
  private readonly queues = new Map<string, Limiter>();
  // v2 work: per namespace, and all namespaces together.
  private readonly namespaces = new Map<string, Limiter>();
  private readonly v2 = new Limiter(12);
  private readonly inFlight = new Set<Promise<void>>();
  private stopping = false;
  // Set once the stop's wait ran out: queued runs then end without starting.
  private dropping = false;
  readonly counters: PipelineCounters = { events: 0, handled: 0, filtered: 0, failed: 0, dropped: 0 };

  constructor(private readonly deps: PipelineDeps) {
    this.log = deps.logger.child({ component: 'handlers' });
  }

  private tuning() {
    return handlerTuningOf(this.deps.settings());
  }

  /** Warns once per settings load about handlers that can never run here. */
  checkSettings(settings: Settings): void {
    for (const [name, handler] of Object.entries(settings.handlers)) {
      if ((handler as { type?: string }).type === 'transport' && !this.deps.publish)
        this.log.warn(
          { handler: name },
          'transport handlers are not supported: checkbridge has no message broker; events for this handler are logged and skipped',
        );
    }
  }

  get pending(): number {
    return this.inFlight.size;
  }

  /** process_event: resolve the handlers, filter each, and queue the survivors. Never throws, never waits. */
  handle(event: EventDraft): LegacyDecision | null {
    this.counters.events++;
    const ids = { client: event.client.name, check: event.check.name, event: event.id, action: event.action };
    if (this.stopping) {
      this.counters.dropped++;
      this.log.warn(ids, 'stopping: event not handled');
      return null;
    }
    const settings = this.deps.settings();
    const { handlers, errors } = resolveHandlers(settings, handlerNames(event.check));
    for (const error of errors) this.log.error({ ...ids, handler: error.name }, error.message);
    let json: string | undefined;
    const lazyJson = () => (json ??= eventJson(event));
    const now = this.deps.clock.now();
    const decided: { handler: Handler; filtered: Filtered | null }[] = [];
    for (const handler of handlers) {
      let filtered: Filtered | null;
      try {
        filtered = filterEvent(handler, event, { settings, store: this.deps.store, now, log: this.log, ...(this.deps.zone ? { zone: this.deps.zone } : {}) });
      } catch (error) {
        this.log.error({ ...ids, handler: handler.name, err: error }, 'filter failed; event handled');
        filtered = null;
      }
      if (filtered) {
        this.counters.filtered++;
        this.log.info(
          { ...ids, handler: handler.name, ...(filtered.filter ? { filter: filtered.filter } : {}), ...(filtered.reason ? { reason: filtered.reason } : {}) },
          filtered.message,
        );
        decided.push({ handler, filtered });
        continue;
      }
      decided.push({ handler, filtered: null });
      this.enqueue(handler, event, lazyJson, ids);
    }
    return { handlers: decided, errors };
  }

  private enqueue(handler: Handler, event: EventDraft, json: () => string, ids: Record<string, unknown>): void {
    void this.queue(
      handler.name,
      { ...ids, handler: handler.name },
      (_spawn, timeout) => this.run(handler, event, json, timeout),
      (delivery) => this.report(handler, delivery, ids),
    );
  }

  /**
   * Queues one v2 pipeline step (its mutator and handler) under `key` (`namespace/handler`), the v2 handler's own
   * queue, with the limits, `handler_timeout` and stop of legacy handlers, within its namespace's share (v2Shares).
   * `work` logs what it did; resolves once it ran or was dropped.
   */
  submit(key: string, ids: Record<string, unknown>, work: (spawn: Spawner, timeout: number | undefined) => Promise<Delivery>): Promise<void> {
    if (this.stopping) {
      this.counters.dropped++;
      this.log.warn(ids, 'stopping: event not handled');
      return Promise.resolve();
    }
    // Names hold no `/`: what precedes the first one is the namespace.
    const namespace = key.slice(0, Math.max(0, key.indexOf('/')));
    return this.queue(`v2 ${key}`, ids, work, () => undefined, namespace);
  }

  /** The limiters a v2 namespace's runs pass after their handler's queue: the namespace's share, then the v2 share. */
  private v2Limits(namespace: string, concurrency: number): Limiter[] {
    const shares = v2Shares(concurrency);
    let limiter = this.namespaces.get(namespace);
    if (!limiter) this.namespaces.set(namespace, (limiter = new Limiter(1)));
    limiter.setLimit(shares.namespace);
    this.v2.setLimit(shares.v2);
    return [limiter, this.v2];
  }

  /**
   * Every handler's run: its own queue (a quarter of the concurrency), for v2 work its namespace's and the v2 share,
   * then the overall limit (always taken in this order, so no wait is circular).
   */
  private queue(
    key: string,
    ids: Record<string, unknown>,
    work: (spawn: Spawner, timeout: number | undefined) => Promise<Delivery>,
    report: (delivery: Delivery) => void,
    namespace?: string,
  ): Promise<void> {
    const tuning = this.tuning();
    this.overall.setLimit(tuning.handler_concurrency);
    const limits = namespace === undefined ? [] : this.v2Limits(namespace, tuning.handler_concurrency);
    let queue = this.queues.get(key);
    if (!queue) this.queues.set(key, (queue = new Limiter(1)));
    queue.setLimit(Math.max(1, Math.ceil(tuning.handler_concurrency / 4)));
    if (queue.queued >= tuning.handler_queue_limit) {
      this.counters.dropped++;
      this.log.error({ ...ids, queued: queue.queued }, 'handler queue is full: event not handled by this handler');
      return Promise.resolve();
    }
    const start = () => this.overall.run(async () => (this.dropping ? null : work(this.deps.spawn, tuning.handler_timeout)));
    const limited = limits.reduceRight<() => Promise<Delivery | null>>((inner, limiter) => () => limiter.run(inner), start);
    const job: Promise<void> = queue
      .run(limited)
      .then((delivery) => {
        if (!delivery) return void this.counters.dropped++;
        if (delivery.ok) this.counters.handled++;
        else this.counters.failed++;
        report(delivery);
      })
      .catch((error: unknown) => {
        this.counters.failed++;
        this.log.error({ ...ids, err: error }, 'handler error');
      })
      .finally(() => this.inFlight.delete(job));
    this.inFlight.add(job);
    return job;
  }

  private async run(handler: Handler, event: EventDraft, json: () => string, timeout: number | undefined): Promise<Delivery> {
    if (handler.type === 'extension') return this.extension(handler, event, json);
    const settings = this.deps.settings();
    const assets = this.deps.assets?.(settings);
    const mutator = typeof handler.mutator === 'string' && Object.hasOwn(settings.mutators, handler.mutator) ? settings.mutators[handler.mutator] : undefined;
    const mutation = await mutateEvent(handler, event, json, settings, withSecrets(this.deps.spawn, mutator, this.deps.secrets), assets);
    if (!mutation.ok)
      return {
        ok: false,
        error: mutation.error,
        ...(mutation.output !== undefined ? { output: mutation.output } : {}),
        ...(mutation.status !== undefined ? { status: mutation.status } : {}),
      };
    return deliver(
      handler,
      mutation.data,
      withSecrets(withAssets(this.deps.spawn, assets, handler.runtime_assets), handler, this.deps.secrets),
      timeout,
      this.deps.publish,
    );
  }

  private async extension(handler: Handler, event: EventDraft, json: () => string): Promise<Delivery> {
    if (handler.name === 'debug') return { ok: true, output: json(), status: 0 };
    const name = String(event.client.name);
    const deleted = await this.deps.deleteClient(name).catch(() => false);
    return deleted ? { ok: true, output: `deleted client ${name}`, status: 0 } : { ok: false, output: `error deleting client ${name}`, status: 2 };
  }

  private report(handler: Handler, delivery: Delivery, ids: Record<string, unknown>): void {
    const fields = { ...ids, handler: handler.name, type: handler.type ?? 'pipe' };
    if (delivery.skipped) return void this.log.debug({ ...fields, reason: delivery.skipped }, 'handler skipped');
    if (delivery.error)
      return void this.log.error(
        { ...fields, error: delivery.error, ...(delivery.output !== undefined ? { output: lines(delivery.output), status: delivery.status } : {}) },
        delivery.error === 'mutator error' ? 'mutator error' : 'handler error',
      );
    if (delivery.output !== undefined) {
      const message = handler.type === 'extension' ? 'handler extension output' : 'handler output';
      if (delivery.ok) this.log.info({ ...fields, output: lines(delivery.output), status: delivery.status }, message);
      else this.log.error({ ...fields, output: lines(delivery.output), status: delivery.status }, message);
    }
  }

  /**
   * Stops taking events, then gives queued and running handlers up to `ms`; what is still queued after that
   * never starts (logged once). True when all finished; running handlers are the caller's to stop.
   */
  async stop(ms: number): Promise<boolean> {
    this.stopping = true;
    if (await this.drain(ms)) return true;
    this.dropping = true;
    const running = this.overall.active;
    this.log.warn({ running, queued: this.inFlight.size - running }, 'stopping: queued handlers dropped');
    return false;
  }

  /** Waits for queued and running handlers, at most `ms`; true when all finished. */
  async drain(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (this.inFlight.size > 0 && Date.now() < deadline) {
      await Promise.race([Promise.allSettled([...this.inFlight]), new Promise((r) => setTimeout(r, Math.max(1, deadline - Date.now())))]);
    }
    return this.inFlight.size === 0;
  }
}
