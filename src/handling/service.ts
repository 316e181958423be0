import type { EventDraft } from '../legacy/index.js';
import type { AssetResolver } from '../assets/index.js';
import type { SecretsLookup } from '../secrets/index.js';
import { isV2Event, type IntakeEvent, type Processed } from '../intake/index.js';
import { FailureReport, type Service } from '../service.js';
import { HandlerPipeline, type LegacyDecision, type PipelineDeps } from './pipeline.js';
import { runPipelines } from './v2-pipelines.js';

/** The events that leave the intake, as the handling queue takes them. */
export interface HandledIntake {
  onEvent(listener: (event: IntakeEvent) => void): void;
  onRegistration(listener: (event: EventDraft) => void): void;
}

/** Watches the legacy decisions without changing them (the migration rehearsal): called after each legacy event's handling. */
export interface HandlingObserver {
  observe(processed: Processed, decision: LegacyDecision | null): void;
}

export interface HandlingDeps extends PipelineDeps {
  readonly intake: HandledIntake;
  /** The runtime assets and secrets of a v2 pipeline's handlers in `namespace`. */
  readonly v2: (namespace: string) => { readonly assets: AssetResolver; readonly secrets: SecretsLookup };
  /** Sees every legacy event with what legacy decided; changes nothing. */
  readonly observer?: HandlingObserver;
}

/** The handler queue: every event that leaves the intake, legacy handler sets and v2 pipelines alike; given the grace at stop. */
export class Handling implements Service {
  readonly name = 'handlers';
  readonly handlers: HandlerPipeline;
  private readonly failures = new FailureReport();

  constructor(private readonly deps: HandlingDeps) {
    this.handlers = new HandlerPipeline(deps);
    const { intake, logger, store } = deps;
    intake.onEvent((emitted) => {
      if (isV2Event(emitted)) {
        const { namespace: ns, event } = emitted;
        const { assets, secrets } = deps.v2(ns);
        return void runPipelines(store.resources, ns, event, this.handlers, logger, assets, secrets).catch((error) =>
          logger.error({ err: error }, 'pipeline failed'),
        );
      }
      logger.debug(
        { client: emitted.event.client.name, check: emitted.event.check.name, action: emitted.event.action, occurrences: emitted.event.occurrences },
        'event processed',
      );
      const decision = emitted.handle ? this.handlers.handle(emitted.event) : null;
      deps.observer?.observe(emitted, decision);
    });
    intake.onRegistration((event) => this.handlers.handle(event));
  }

  onFailure(report: (error: Error) => void): void {
    this.failures.listen(report);
  }

  async start(): Promise<void> {}

  async stop(deadline: number): Promise<void> {
    if (!(await this.handlers.stop(deadline - Date.now())))
      this.deps.logger.warn({ handlers: this.handlers.pending }, 'still running at stop: their processes are stopped');
  }
}
