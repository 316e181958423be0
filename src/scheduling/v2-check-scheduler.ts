import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import type { Clock } from '../schedule/index.js';
import { nextInstant, splayStepMs, spreadSeconds, type timingOf } from '../schedule/index.js';
import { substituteGoTemplates } from '../tokens/index.js';
import type { CheckRequestTargets, RequestTarget, V2CheckRequest } from './check-request-targets.js';
import { CheckDispatcher, type Delivery, type ScheduleHold } from './check-dispatcher.js';
import { matchingEntities, synthesizedEntity } from './v2-proxy-entities.js';
import { buildV2Request, timingOfConfig, type CheckConfigSource } from './v2-check-config.js';
import type { CheckConfig, Entity, ProxyRequests } from '../v2/index.js';
import type { ResourceOf } from '../store/index.js';
type Timing = ReturnType<typeof timingOf>;

const CHECK_CONFIG_TYPE = 'CheckConfig';

export interface V2CheckSchedulerDeps {
  readonly clock: Clock;
  readonly resources: CheckConfigSource;
  readonly targets: CheckRequestTargets;
  readonly logger: Logger;
  /** Whether scheduling starts at once; false waits for `resume('not elected')`. */
  readonly scheduling?: boolean;
  /** Checked as each request fires: false skips it (an elected server not confirmed since a stall). */
  readonly leading?: () => boolean;
}

export interface ExecuteOptions {
  /** Replaces the check's subscriptions for this execution. */
  readonly subscriptions?: readonly string[] | undefined;
  readonly reason?: string | undefined;
  readonly creator?: string | undefined;
}

export type ExecuteOutcome = { readonly ok: true; readonly issued: number } | { readonly ok: false; readonly code: 'notFound'; readonly reason: string };

export interface NextExecution {
  readonly namespace: string;
  readonly name: string;
  /** Epoch ms of the next scheduled request, null when it runs only ad hoc. */
  readonly next: number | null;
}

const timingKey = (config: CheckConfig) => `${config.cron ?? ''}|${config.interval ?? ''}`;
const scheduledKey = (namespace: string, name: string) => `${namespace}\u0000${name}`;

export type V2ScheduleHold = Exclude<ScheduleHold, 'broker away'>;

/**
 * Schedules the v2 CheckConfigs of every namespace (Sensu Go's schedulerd) on the check dispatcher the legacy checks
 * use too, and sends their requests to the subscribers of every kind. Creations are seen by a sync each second, which
 * re-reads only after a resource write (by any server sharing the store); each request re-reads its check, so an edit
 * or a delete holds from the next interval.
 */
export class V2CheckScheduler {
  /** Timers, holds and round-robin turns. */
  private readonly dispatcher: CheckDispatcher;
  private readonly log: Logger;
  /** Scheduled checks: key → the timing key they were armed with, and their timing. */
  private readonly scheduled = new Map<string, { namespace: string; name: string; timingKey: string; timing: Timing; config: CheckConfig }>();
  private syncedGeneration = -1;
  /** HookConfigs and Assets read since the last sync, while no resource was written (the per-request reads). */
  // Any kind's reads, each under its kind's key: readResource gives back what it put there.
  private readonly cache = new Map<string, unknown>();
  /** Set while a request fires at the synced generation: its reads may come from the sync and the cache. */
  private readsCached = false;
  /** What requests read their HookConfigs and Assets through. */
  private readonly reader: Pick<CheckConfigSource, 'getResource'> = { getResource: (kind, namespace, name) => this.readResource(kind, namespace, name) };
  private syncTimer: NodeJS.Timeout | undefined;
  /** Checks whose proxy entities are being matched: a request that fires meanwhile is skipped. */
  private readonly matching = new Set<string>();

  constructor(private readonly deps: V2CheckSchedulerDeps) {
    this.log = deps.logger.child({ component: 'schedulerd' });
    this.dispatcher = new CheckDispatcher({
      clock: deps.clock,
      log: this.log,
      scheduling: deps.scheduling,
      leading: deps.leading,
      fire: (key, at) => this.fire(key, at),
    });
  }

  /** Reads every CheckConfig at once and then each second. */
  start(syncMs = 1000): void {
    this.sync();
    this.syncTimer = setInterval(() => this.syncOrRetry(), syncMs);
    this.syncTimer.unref();
  }

  /** A re-read the store cannot answer (PostgreSQL out of reach) is tried again the next second, never fatal. */
  private syncOrRetry(): void {
    try {
      this.sync();
    } catch (error) {
      this.syncedGeneration = -1;
      this.log.warn({ err: (error as Error).message }, 'CheckConfigs not re-read: the store did not answer; retrying');
    }
  }

  /** Starts added checks, reschedules those whose interval or cron changed, stops removed ones. */
  sync(): void {
    if (this.dispatcher.held) return;
    const generation = this.deps.resources.resourceGeneration;
    if (generation === this.syncedGeneration) return;
    this.syncedGeneration = generation;
    this.cache.clear();
    const started = performance.now();
    const wanted = new Map<string, CheckConfig>();
    for (const namespace of this.deps.resources.namespacesWith(CHECK_CONFIG_TYPE)) {
      for (const config of this.deps.resources.listResources(CHECK_CONFIG_TYPE, namespace)) {
        if (config.publish !== true) continue;
        wanted.set(scheduledKey(namespace, String(config.metadata?.name)), config);
      }
    }
    for (const key of [...this.scheduled.keys()]) if (!wanted.has(key)) this.unschedule(key);
    for (const [key, config] of wanted) {
      const namespace = String(config.metadata?.namespace ?? key.split('\u0000')[0]);
      const entry = this.scheduled.get(key);
      if (entry?.timingKey !== timingKey(config)) this.schedule(key, namespace, config);
      else entry.config = config;
    }
    // Counted by the tests: over a shared store there is none while no server writes a resource.
    this.log.debug({ generation, checks: wanted.size, ms: Math.round((performance.now() - started) * 10) / 10 }, 'CheckConfigs re-read');
  }

  /** Ad hoc (`POST .../checks/:check/execute`): published now even when `publish` is false or not elected; proxy fan-out without splay. */
  execute(namespace: string, name: string, options: ExecuteOptions = {}): ExecuteOutcome {
    const config = this.checkConfig(namespace, name);
    if (!config) return { ok: false, code: 'notFound', reason: `check ${JSON.stringify(name)} not found in namespace ${JSON.stringify(namespace)}` };
    const subscriptions = options.subscriptions && options.subscriptions.length > 0 ? [...options.subscriptions] : (config.subscriptions ?? []);
    const now = this.deps.clock.now();
    this.log.info({ namespace, check: name, subscriptions, reason: options.reason, creator: options.creator }, 'ad hoc check request');
    this.dispatch(namespace, { ...config, subscriptions }, now, 0, () => true);
    return { ok: true, issued: Math.floor(now / 1000) };
  }

  /** The scheduled CheckConfigs with their next request, earliest first (the dashboard). */
  nextExecutions(): NextExecution[] {
    const now = this.deps.clock.now();
    return [...this.scheduled.values()]
      .map((s) => ({ namespace: s.namespace, name: s.name, next: nextInstant(s.timing, now) }))
      .sort((a, b) => (a.next ?? Infinity) - (b.next ?? Infinity));
  }

  scheduledChecks(): string[] {
    return [...this.scheduled.values()].map((s) => `${s.namespace}/${s.name}`);
  }

  pause(why: V2ScheduleHold): void {
    this.dispatcher.pause(why);
    this.scheduled.clear();
    this.syncedGeneration = -1;
    this.cache.clear();
  }

  resume(why: V2ScheduleHold): void {
    if (this.dispatcher.resume(why)) this.sync();
  }

  stop(): void {
    clearInterval(this.syncTimer);
    this.pause('stopped');
  }

  private schedule(key: string, namespace: string, config: CheckConfig): void {
    const { problem, ...timing } = timingOfConfig(namespace, config);
    const name = String(config.metadata?.name);
    if (problem) this.log.error({ namespace, check: name, cron: config.cron }, `check not scheduled: ${problem}`);
    this.scheduled.set(key, { namespace, name, timingKey: timingKey(config), timing, config });
    try {
      this.dispatcher.arm(key, timing);
    } catch (error) {
      // A timing the engine cannot compute stops this check only, never the sync or the timer that found it.
      this.dispatcher.disarm(key);
      this.scheduled.set(key, { namespace, name, timingKey: timingKey(config), timing: { kind: 'none' }, config });
      this.log.error(
        { namespace, check: name, cron: config.cron, err: (error as Error).message },
        'check not scheduled: its next execution cannot be computed',
      );
    }
  }

  private unschedule(key: string): void {
    this.dispatcher.disarm(key);
    this.scheduled.delete(key);
    this.dispatcher.forgetRings((check) => check === key);
  }

  private fire(key: string, at: number): void {
    const entry = this.scheduled.get(key);
    if (!entry || this.dispatcher.held || !this.dispatcher.leads({ namespace: entry.namespace, check: entry.name })) return;
    // The stored check as it is now (deleted, unpublished or retimed since it was armed): while no resource was
    // written since the last sync, the one it read.
    const current = this.deps.resources.resourceGeneration === this.syncedGeneration;
    const config = current ? entry.config : this.checkConfig(entry.namespace, entry.name);
    if (!config || config.publish !== true) return this.unschedule(key);
    if (timingKey(config) !== entry.timingKey) return this.schedule(key, entry.namespace, config);
    this.dispatch(entry.namespace, config, at, spreadSeconds(entry.timing, at), this.dispatcher.inTerm(), current);
  }

  /** The CheckConfig as stored now. */
  private checkConfig(namespace: string, name: string): CheckConfig | null {
    return this.deps.resources.getResource(CHECK_CONFIG_TYPE, namespace, name);
  }

  /** Publishes with the HookConfig and Asset reads cached while `cached` (the generation still the synced one). */
  private publishing(cached: boolean, publish: () => void): void {
    this.readsCached = cached && this.deps.resources.resourceGeneration === this.syncedGeneration;
    try {
      publish();
    } finally {
      this.readsCached = false;
    }
  }

  /** A request's HookConfig or Asset: from the cache while the generation holds, else from the store. */
  private readResource<K extends string>(kind: K, namespace: string, name: string): ResourceOf<K> | null {
    if (!this.readsCached) return this.deps.resources.getResource(kind, namespace, name);
    const key = `${kind}\u0000${namespace}\u0000${name}`;
    if (!this.cache.has(key)) this.cache.set(key, this.deps.resources.getResource(kind, namespace, name));
    return this.cache.get(key) as ResourceOf<K> | null;
  }

  /**
   * One request per subscription, or per matching proxy entity per subscription, spread by splay over `spread`
   * seconds. Proxy entities are matched in the sandbox, off the event loop: one matching per check at a time (a
   * request firing meanwhile is skipped), and published only if `still()` holds once they are known.
   */
  private dispatch(namespace: string, config: CheckConfig, at: number, spread: number, still: () => boolean, cached = false): void {
    const proxy = config.proxy_requests;
    if (!proxy) return this.publishing(cached, () => this.publish(namespace, config, at));
    const expressions = proxy.entity_attributes ?? [];
    // No expression: every entity matches, nothing to wait for.
    if (expressions.length === 0)
      return this.publishing(cached, () => this.fanOut(namespace, config, proxy, this.deps.resources.listEntities(namespace), at, spread, still));
    const key = scheduledKey(namespace, String(config.metadata?.name));
    if (this.matching.has(key))
      return void this.log.debug({ namespace, check: config.metadata?.name }, 'check request skipped: its proxy entities are still being matched');
    this.matching.add(key);
    void matchingEntities(this.deps.resources.listEntities(namespace), expressions, {
      namespace,
      check: String(config.metadata?.name),
      nowMs: this.deps.clock.now(),
      log: this.log,
    })
      .then((entities) => still() && this.publishing(cached, () => this.fanOut(namespace, config, proxy, entities, at, spread, still)))
      .catch((error: Error) => this.log.error({ namespace, check: config.metadata?.name, err: error.message }, 'proxy check request failed'))
      .finally(() => this.matching.delete(key));
  }

  private fanOut(namespace: string, config: CheckConfig, proxy: ProxyRequests, entities: Entity[], at: number, spread: number, still: () => boolean): void {
    const stepMs = splayStepMs(entities.length, spread, proxy.splay === true, proxy.splay_coverage);
    entities.forEach((entity, index) => {
      const proxied = this.proxiedFor(namespace, config, entity);
      if (proxied) this.dispatcher.deliverAfter(at, index * stepMs, still, (issuedAt) => this.publish(namespace, proxied, issuedAt));
    });
  }

  /** The check for one proxy entity: its Go templates rendered with the entity's values (Sensu Go's substituteProxyEntityTokens); null, logged, when one cannot be. */
  private proxiedFor(namespace: string, config: CheckConfig, entity: Entity): CheckConfig | null {
    const rendered = substituteGoTemplates(config, synthesizedEntity(entity));
    const name = String(entity.metadata?.name);
    if (rendered.ok) return { ...rendered.value, proxy_entity_name: name };
    this.log.error({ namespace, check: config.metadata?.name, entity: name, error: rendered.error }, 'could not substitute tokens for proxy entity');
    return null;
  }

  private publish(namespace: string, config: CheckConfig, at: number): void {
    const request = buildV2Request(this.reader, namespace, config, at);
    const name = String(config.metadata?.name);
    this.dispatcher.deliver(
      scheduledKey(namespace, name),
      config.subscriptions ?? [],
      this.deliveryOf(namespace, config, request),
      { namespace, check: name },
      request.issued,
    );
  }

  /** Every kind of member over the targets; round robin: one member of the subscription per request, every kind in one ring. */
  private deliveryOf(namespace: string, config: CheckConfig, request: V2CheckRequest): Delivery<RequestTarget> {
    const { targets } = this.deps;
    return {
      ring: (subscription) => (config.round_robin === true ? targets.members(namespace, subscription) : null),
      broadcast: (subscription) => targets.broadcast(namespace, subscription, request),
      send: (_subscription, target) => targets.send(namespace, target, request),
    };
  }
}
