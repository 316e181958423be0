import type { Logger } from 'pino';
import { legacyNamespace, type Settings } from '../config/index.js';
import type { ResultIntake, CheckResult } from '../execute/index.js';
import { GroupRetry, type ResultIdKey, type StateStore } from '../store/index.js';
import { EmbeddedEventStore, type V2EventStore } from '../store/index.js';
import type { Clock } from '../schedule/index.js';
import { processResult, resultKey, type Processed } from './processor.js';
import { EntityLimitError, type EventDraft } from '../legacy/index.js';
import { EntityGate, entityRefusal } from './entity-gate.js';
import { IntakeTopics } from './topics.js';
import { TurnBatch } from '../store/index.js';
import { publishEvent, publishEventSync, v2RowsOf, type Publish } from './v2-events.js';
import { FailureReport, type Service } from '../service.js';
import { ResultCopies } from './result-copies.js';
import { Backlog } from './backlog.js';
import { CheckbridgeError } from '../errors.js';

import type { DecodedEvent } from '../v2/index.js';
import type { Done, EventIntake, IntakeEvent, Pending, RoutedEventStore } from './intake-types.js';
export { isV2Event, type EventIntake, type IntakeEvent, type RoutedEventStore, type StoredV2Event } from './intake-types.js';

const RETRY_UNAVAILABLE_MS = 500;

/**
 * Results become events in the store, and v2 events are stored: every door's one writer. Submissions arriving in the
 * same turn share one transaction (group commit): a submit resolves only after its transaction committed, never on a timer.
 */
export class Intake implements ResultIntake, EventIntake, Service {
  readonly name = 'intake';
  private readonly failures = new FailureReport();
  // Groups of other rows commit beside each other; one at a time while translations are staged for another event store.
  private readonly pending = new TurnBatch<Pending>(
    (batch) => this.commit(batch),
    () => (this.routed && !this.routed.embeddedActive() ? 1 : this.store.unitsInFlight),
  );
  /** What leaves the intake, published on named topics the daemons subscribe to. */
  readonly topics = new IntakeTopics();
  private readonly committers: ((processed: Processed) => void)[] = [];
  private readonly afterCommits: ((committed: boolean) => Promise<void>)[] = [];
  private readonly log: Logger;
  private readonly embedded: EmbeddedEventStore;
  private routed: RoutedEventStore | null = null;
  // v2 events written to PostgreSQL outside the group commit, until they are answered.
  private readonly direct = new Set<Promise<unknown>>();
  private readonly copies: ResultCopies;
  /** What waits for a commit or is in one: the doors' backpressure. */
  readonly backlog = new Backlog(() => this.pending.waiting);
  /** The entity limit's one gate, for every door that admits a new entity. */
  readonly entityGate: EntityGate;

  constructor(
    private readonly store: StateStore,
    private settings: () => Settings,
    private readonly clock: Clock,
    logger: Logger,
  ) {
    this.log = logger.child({ component: 'intake' });
    this.embedded = new EmbeddedEventStore(store.resources);
    this.entityGate = new EntityGate(store, settings);
    this.copies = new ResultCopies(store, clock, this.log);
  }

  /** Every event that leaves the intake, of either kind, committed: a subscriber of the topic `committed event`. */
  onEvent(listener: (event: IntakeEvent) => void): void {
    this.topics.committed.subscribe(listener);
  }

  /** A new client's registration events, of every door (the topic `keepalive`): handled by the `registration` handler, never stored. */
  onRegistration(listener: (event: EventDraft) => void): void {
    this.topics.keepalive.subscribe(listener);
  }

  /** A keepalive registered a new client that wants a registration event: it leaves for the handling queue at once. */
  submitRegistration(event: EventDraft): void {
    this.topics.keepalive.publish(event);
  }

  /** Where v2 events live (the PostgresConfig router): the embedded store in the group commit, else PostgreSQL. */
  routeEventsTo(events: RoutedEventStore): void {
    this.routed = events;
  }

  /** Runs inside the transaction that stores the event: what it writes commits with the event, or not at all. */
  withinTransaction(writer: (processed: Processed) => void): void {
    this.committers.push(writer);
  }

  /**
   * Runs once the group's transaction ended (`committed` false when it rolled back): the PostgreSQL event store's batch.
   * Results are answered only after it settles, and fail if it fails: an `ok` means committed where events live.
   */
  afterCommit(hook: (committed: boolean) => Promise<void>): void {
    this.afterCommits.push(hook);
  }

  onFailure(report: (error: Error) => void): void {
    this.failures.listen(report);
  }

  async start(): Promise<void> {
    this.copies.start();
  }

  /** Stopped just before the store closes: a result that arrived in the last turns (a UDP datagram) is committed. */
  async stop(): Promise<void> {
    this.copies.stop();
    await this.flushed();
  }

  /** Resolves once every result and v2 event submitted so far has gone to its commit: before the store closes. */
  async flushed(): Promise<void> {
    await this.pending.flushed();
    await Promise.allSettled([...this.direct]);
  }

  submit(result: CheckResult): Promise<void> {
    return new Promise((resolve, reject) => this.pending.add({ kind: 'result', result, resolve, reject }));
  }

  submitEvent(namespace: string, body: DecodedEvent, createdBy?: string, untilStored?: boolean): Promise<Publish> {
    const nowS = Math.floor(this.clock.now() / 1000);
    if (this.routed && !this.routed.embeddedActive()) return this.publishDirect(this.routed, namespace, body, nowS, createdBy);
    this.store.readAhead(() => v2RowsOf([{ namespace, body }]));
    return new Promise((resolve, reject) => this.pending.add({ kind: 'v2', namespace, body, createdBy, nowS, untilStored, resolve, reject }));
  }

  /** A v2 event to PostgreSQL: its own write, outside the embedded transaction (the router retries or falls back). */
  private publishDirect(events: V2EventStore, namespace: string, body: DecodedEvent, nowS: number, createdBy: string | undefined): Promise<Publish> {
    const done = publishEvent(this.store.resources, events, namespace, body, nowS, createdBy, this.entityGate.refusal).then((answer) => {
      if (answer.ok && !answer.replay) this.emit({ kind: 'v2', namespace, event: answer.event });
      return answer;
    });
    const tracked = done.finally(() => this.direct.delete(tracked));
    this.direct.add(tracked);
    return done;
  }

  /** One submission in its own savepoint (see `store.savepoint`): a throw undoes and fails it only, never its neighbours. */
  private processOne(settings: Settings, pending: Pending): Done {
    try {
      return this.store.savepoint(() => (pending.kind === 'result' ? this.processResult(settings, pending) : this.writeEvent(settings, pending)));
    } catch (error) {
      // Some failures (a full database) end the whole transaction, not just the savepoint: the group fails with them.
      if (!this.store.db.inTransaction || error instanceof GroupRetry) throw error;
      return { pending, emitted: null, error: error as Error };
    }
  }

  private processResult(settings: Settings, pending: Pending & { kind: 'result' }): Done {
    const outcome = processResult(this.store, settings, pending.result, this.clock.now());
    if (!outcome.ok)
      return { pending, emitted: null, error: outcome.code === 'CB_ENTITY_LIMIT' ? new EntityLimitError(outcome.reason) : new Error(outcome.reason) };
    for (const writer of this.committers) writer(outcome.processed);
    return { pending, emitted: outcome.processed, error: null };
  }

  private writeEvent(settings: Settings, pending: Pending & { kind: 'v2' }): Done {
    const { namespace, body, nowS, createdBy } = pending;
    const answer = publishEventSync(this.store.resources, this.embedded, namespace, body, nowS, createdBy, () => entityRefusal(this.store, settings));
    return { pending, answer, emitted: answer.ok && !answer.replay ? { kind: 'v2', namespace, event: answer.event } : null, error: null };
  }

  // One line per refused client name, not one per result: a fleet past the limit would flood the log.
  private readonly refusedClients = new Set<string>();
  private refuseOnce(result: CheckResult, error: Error): void {
    const name = typeof result.check.source === 'string' && result.check.source !== '' ? result.check.source : result.client;
    if (this.refusedClients.has(name) || this.refusedClients.size >= 10_000) return;
    this.refusedClients.add(name);
    this.log.warn({ client: name }, error.message);
  }

  /** One group commit: resolves once its submissions are answered (the next group forms meanwhile). */
  private commit(batch: Pending[]): Promise<void> {
    const done: Done[] = [];
    let handledKeys: ResultIdKey[] = [];
    const settings = this.settings();
    const pairs = batch.flatMap((pending) => (pending.kind === 'result' ? [resultKey(pending.result)] : []));
    const v2 = v2RowsOf(batch.flatMap((pending) => (pending.kind === 'v2' ? [pending] : [])));
    // A result's v2 entity in the legacy namespace: its translation writes it (unchanged, not again), the gate asks for it.
    const legacy = legacyNamespace(settings);
    const keys = { pairs, v2: { events: v2.events, entities: [...v2.entities, ...pairs.map(([client]) => [legacy, client] as const)] } };
    const work = () => {
      const claims = this.copies.claim(batch, resultOf);
      for (const pending of batch) {
        if (claims.isCopy(pending)) {
          done.push({ pending, emitted: null, error: null, copy: true });
          continue;
        }
        const outcome = this.processOne(settings, pending);
        if (!outcome.error) claims.handledItem(pending);
        done.push(outcome);
      }
      this.copies.releaseKeys(claims.unhandled());
      handledKeys = claims.handled();
    };
    const retrying = () => {
      done.length = 0;
      for (const hook of this.afterCommits) void hook(false);
    };
    // The next group waits for this one's commit, not for the event store's hooks after it (a batch grows meanwhile there).
    this.backlog.started(batch.length);
    return this.store
      .unit(keys, work, retrying)
      .then(
        () => void this.committed(batch, done, handledKeys),
        (error: unknown) => this.notCommitted(batch, error),
      )
      .finally(() => this.backlog.ended(batch.length));
  }

  private notCommitted(batch: Pending[], error: unknown): Promise<void> | void {
    for (const hook of this.afterCommits) void hook(false);
    // The store out of reach: what no door can answer is kept, in the backlog, and committed again a moment later.
    if (error instanceof CheckbridgeError && error.code === 'CB_STORE_UNAVAILABLE') {
      const kept = batch.filter((pending) => pending.kind === 'v2' && pending.untilStored);
      if (kept.length > 0) this.keep(kept);
      batch = batch.filter((pending) => !kept.includes(pending));
      if (batch.length === 0) return;
    }
    // A failure that ends the whole transaction (a full database) undid every result of the group: each one
    // again in a transaction of its own, so that only the results that fail alone are failed. Not on PostgreSQL:
    // there the failure is a lost connection, and a COMMIT cut off may have committed — those results get an error.
    if (batch.length > 1 && this.store.sqlite) return Promise.all(batch.map((pending) => this.commit([pending]))).then(() => undefined);
    this.log.error({ err: error, results: batch.length }, 'failed to store results');
    for (const pending of batch) pending.reject(error as Error);
  }

  private keep(kept: Pending[]): void {
    this.backlog.started(kept.length);
    setTimeout(() => {
      for (const pending of kept) this.pending.add(pending);
      this.backlog.ended(kept.length);
    }, RETRY_UNAVAILABLE_MS);
  }

  private committed(batch: Pending[], done: Done[], handledKeys: ResultIdKey[]): Promise<void> | void {
    if (this.afterCommits.length === 0) return this.settle(done);
    return Promise.all(this.afterCommits.map((hook) => hook(true))).then(
      () => this.settle(done),
      (error: Error) => {
        this.log.error({ err: error, results: batch.length }, 'failed to store events');
        // These results fail and come back: their ids, committed with them, must not make them copies.
        this.copies.releaseQuietly(handledKeys);
        // The staged rows are the results' translations: a v2 event of the group was stored in the embedded store.
        this.settle(done.map((entry) => (entry.pending.kind === 'result' ? { ...entry, error: entry.error ?? error } : entry)));
      },
    );
  }

  private settle(done: Done[]): void {
    this.copies.droppedCommitted(done.flatMap(({ pending, copy, error }) => (copy && !error ? (resultOf(pending) ?? []) : [])));
    for (const { pending, emitted, answer, error } of done) {
      if (error) {
        this.fail(pending, error);
        continue;
      }
      if (pending.kind === 'v2') pending.resolve(answer!);
      else pending.resolve();
      if (emitted) this.emit(emitted);
    }
  }

  /** A v2 event's error goes back to the API, which answers it (507, 503); a result's is logged here too. */
  private fail(pending: Pending, error: Error): void {
    if (pending.kind === 'result' && error instanceof EntityLimitError) this.refuseOnce(pending.result, error);
    else if (pending.kind === 'result') this.log.warn({ err: error, client: pending.result.client, check: pending.result.check.name }, error.message);
    pending.reject(error);
  }

  private emit(event: IntakeEvent): void {
    this.topics.committed.publish(event);
  }
}

const resultOf = (pending: Pending): CheckResult | null => (pending.kind === 'result' ? pending.result : null);
