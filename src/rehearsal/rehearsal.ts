import type { Logger } from 'pino';
import type { Settings } from '../config/index.js';
import type { Processed } from '../intake/index.js';
import type { HandlingObserver, LegacyDecision } from '../handling/index.js';
import type { StateStore, RehearsedEvent } from '../store/index.js';
import { planOf, type RehearsalPlan } from './plan.js';
import { v2EventOf, clientViews, type ClientView } from './v2-event.js';
import { v2Decision, v2DecisionNow, Unrehearsed, type VerdictCache, type HandlerOutcome } from './v2-decision.js';
import { legacyOutcomes } from './legacy-outcomes.js';
import { tokenDifferences } from './tokens.js';
import { compareOutcomes } from './compare.js';

export interface RehearsalDeps {
  readonly settings: () => Settings;
  readonly store: StateStore;
  readonly logger: Logger;
  readonly now: () => number;
}

// Past this many events waiting for their filters, more are not rehearsed (counted and logged): it never holds the handling back.
const MAX_IN_FLIGHT = 2048;
const LOG_EVERY_MS = 60_000;
// What is rehearsed is written at most this often, in one transaction: a write per turn cost more than the rehearsal itself.
const WRITE_EVERY_MS = 200;

interface Compiled {
  readonly settings: Settings;
  readonly plan: RehearsalPlan;
  readonly views: (client: Record<string, unknown>) => ClientView;
  readonly verdicts: VerdictCache;
}

/**
 * The migration rehearsal: beside the legacy handling, on every legacy event, what the compiled configuration would
 * have done in Sensu Go, compared with what legacy did; recorded in the store, in batches. It runs no handler, no
 * mutator, no command: the filters' expressions run in the sandbox with an event's budget.
 */
export class Rehearsal implements HandlingObserver {
  private compiled: Compiled | null = null;
  private inFlight = 0;
  private skipped = 0;
  // Skipped since the last write: counted in the history with the next batch.
  private unwritten = 0;
  private skippedLoggedAt = -Infinity;
  private readonly log: Logger;
  private pending: (RehearsedEvent & { digest: string })[] = [];
  private writeTimer: NodeJS.Timeout | null = null;
  /** The history write in flight: a stop waits for it. */
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly deps: RehearsalDeps) {
    this.log = deps.logger.child({ component: 'rehearsal' });
  }

  // Compiled once per configuration (the hub hands out the same object until it changes).
  private current(): Compiled {
    const settings = this.deps.settings();
    if (this.compiled?.settings !== settings) {
      const plan = planOf(settings);
      this.compiled = { settings, plan, views: clientViews(plan), verdicts: new Map() };
    }
    return this.compiled;
  }

  observe(processed: Processed, decision: LegacyDecision | null): void {
    // Keepalives are the agent's own in Sensu Go; an event met at stop was not handled.
    if (processed.event.check.name === 'keepalive' || (processed.handle && !decision)) return;
    let compiled: Compiled;
    try {
      compiled = this.current();
    } catch (error) {
      return void this.log.error({ err: error }, 'rehearsal: the configuration could not be compiled: events are not rehearsed');
    }
    const { plan, views, verdicts } = compiled;
    const legacy = decision ? legacyOutcomes(plan.settings, decision) : [];
    // Everything read from the event is read now: handlers may hold it after this turn.
    const check = String(processed.event.check.name);
    const view = views(processed.event.client);
    const v2Event = v2EventOf(plan, processed, view.labels);
    let tokens = view.tokens.get(check);
    if (!tokens) {
      const definition = plan.settings.checks[check] as { command?: unknown } | undefined;
      tokens = typeof definition?.command === 'string' ? tokenDifferences(definition.command, processed.event.client, view.labels) : [];
      view.tokens.set(check, tokens);
    }
    const differences = tokens;
    const record = (v2: readonly HandlerOutcome[]) => {
      const divergence = compareOutcomes(plan, processed, legacy, v2, v2Event, differences);
      this.pending.push({ digest: plan.digest, check, at: Math.floor(this.deps.now() / 1000), divergence: divergence as Record<string, unknown> | null });
      this.schedule();
    };
    // Every verdict known now (compile's own filters in plain code, or kept): decided in this turn, no sandbox, no promise.
    try {
      const now = v2DecisionNow(plan, v2Event, verdicts);
      if (now) return record(now);
    } catch (error) {
      return void this.log.error({ err: error, check }, 'rehearsal failed for an event');
    }
    if (this.inFlight >= MAX_IN_FLIGHT) return this.skip();
    this.inFlight++;
    v2Decision(plan, v2Event, this.deps.now(), verdicts)
      .then(record)
      .catch((error: unknown) =>
        error instanceof Unrehearsed ? this.skip(error.message) : this.log.error({ err: error, check }, 'rehearsal failed for an event'),
      )
      .finally(() => this.inFlight--);
  }

  private skip(reason = `more than ${MAX_IN_FLIGHT} events waiting for their filters`): void {
    this.skipped++;
    this.unwritten++;
    // A skip alone (nothing rehearsed meanwhile) still reaches the history.
    this.schedule();
    if (this.deps.now() - this.skippedLoggedAt < LOG_EVERY_MS) return;
    this.skippedLoggedAt = this.deps.now();
    this.log.warn({ skipped: this.skipped, reason }, 'rehearsal: events not rehearsed (counted since start)');
  }

  private schedule(): void {
    this.writeTimer ??= setTimeout(() => this.write(), WRITE_EVERY_MS);
  }

  /** Writes what was rehearsed as one unit of work of the store: on PostgreSQL it never holds the event loop waiting. */
  private write(): Promise<void> {
    if (this.writeTimer) clearTimeout(this.writeTimer);
    this.writeTimer = null;
    const events = this.pending;
    this.pending = [];
    const digest = this.compiled?.plan.digest;
    // Events rehearsed against a configuration replaced meanwhile belong to no history.
    const current = events.filter((e) => e.digest === digest);
    const skipped = this.unwritten;
    if (!digest || (current.length === 0 && skipped === 0)) return Promise.resolve();
    this.unwritten = 0;
    let began = false;
    const record = () => {
      began = this.deps.store.rehearsal.begin(digest, this.deps.now());
      this.deps.store.rehearsal.record(
        current.map(({ check, at, divergence }) => ({ check, at, divergence })),
        skipped,
      );
    };
    const written = this.deps.store
      .unit({ pairs: [] }, record, () => undefined)
      .then(
        () => void (began && this.log.info({ configuration: digest }, 'rehearsal: a new configuration, the history starts again')),
        (error: unknown) => this.log.error({ err: this.deps.store.failure(error) }, 'rehearsal: the history could not be written'),
      );
    this.writing = written;
    return written;
  }

  /** Resolves once every event rehearsed so far is written: for a clean stop and for tests. */
  async settled(): Promise<void> {
    while (this.inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await this.writing;
    await this.write();
  }
}
