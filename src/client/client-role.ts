import type { Logger } from 'pino';
import type { Settings } from '../config/index.js';
import { definitionOf } from '../config/index.js';
import { canonicalKey } from '../config/index.js';
import type { Clock } from '../schedule/index.js';
import { Scheduler } from '../schedule/index.js';
import { timingOf } from '../schedule/index.js';
import { isSubdued } from '../schedule/index.js';
import type { Transport, CheckRequest } from '../transport/index.js';
import { runCheck, withEnvVars, type PrepareRun } from '../execute/index.js';
import type { Runner } from '../execute/index.js';
import type { CheckResult, ResultIntake } from '../execute/index.js';
import { withAssets, type AssetResolver } from '../assets/index.js';
import { withSecrets } from '../secrets/index.js';
import type { SecretsLookup } from '../secrets/index.js';
import { defaultCheckTimeoutOf } from '../config/index.js';

export interface ClientRoleDeps {
  readonly clock: Clock;
  readonly transport: Transport;
  readonly intake: ResultIntake;
  readonly run: Runner;
  readonly logger: Logger;
  readonly zone?: string;
  /** Runtime assets for these settings' checks and hooks. */
  readonly assets?: (settings: Settings) => AssetResolver;
  /** This client runs in the server's process: its checks' secrets are resolved here. */
  readonly secrets?: SecretsLookup;
}

export const SAFE_MODE_OUTPUT = 'Check is not locally defined (safe mode)';

/** The agent: subscriptions, standalone timers, the in-progress guard, execution, results to intake. */
export class ClientRole {
  private readonly log: Logger;
  private readonly scheduler: Scheduler;
  private settings: Settings | null = null;
  private readonly subscribed = new Map<string, () => void>();
  private readonly standalone = new Map<string, string>();
  private readonly inProgress = new Set<string>();
  private readonly lastIssued = new Map<string, number>();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly deps: ClientRoleDeps) {
    this.log = deps.logger.child({ component: 'client' });
    this.scheduler = new Scheduler(deps.clock, (name, at) => this.fireStandalone(name, at));
  }

  apply(settings: Settings): void {
    this.settings = settings;
    const name = String(settings.client.name);
    const wanted = new Set(settings.client.subscriptions);
    for (const [subscription, unsubscribe] of this.subscribed) {
      if (!wanted.has(subscription)) {
        unsubscribe();
        this.subscribed.delete(subscription);
      }
    }
    for (const subscription of wanted) {
      if (this.subscribed.has(subscription)) continue;
      this.subscribed.set(
        subscription,
        this.deps.transport.subscribe(subscription, name, (request) => this.receive(request)),
      );
    }
    const standalone = new Map<string, string>();
    for (const check of Object.values(settings.checks)) {
      if (!check.standalone || check.publish === false || timingOf(check, name).kind === 'none') continue;
      standalone.set(check.name, canonicalKey([name, check]));
    }
    for (const check of this.standalone.keys()) if (!standalone.has(check)) this.scheduler.remove(check);
    for (const [check, key] of standalone) {
      if (this.standalone.get(check) !== key) this.scheduler.set(check, timingOf(settings.checks[check]!, name));
    }
    this.standalone.clear();
    for (const [check, key] of standalone) this.standalone.set(check, key);
  }

  subscriptions(): string[] {
    return [...this.subscribed.keys()];
  }

  standaloneChecks(): string[] {
    return this.scheduler.names();
  }

  /** Stops timers and subscriptions, then waits for executions under way. */
  async stop(): Promise<void> {
    this.scheduler.stop();
    for (const unsubscribe of this.subscribed.values()) unsubscribe();
    this.subscribed.clear();
    await Promise.allSettled([...this.inFlight]);
  }

  private fireStandalone(name: string, at: number): void {
    const settings = this.settings;
    const check = settings?.checks[name];
    if (!settings || !check) return;
    if (isSubdued(check, at, this.deps.zone)) {
      this.log.info({ check: name }, 'check execution was subdued');
      return;
    }
    this.process({ ...definitionOf(settings, name), issued: Math.floor(at / 1000) });
  }

  /** A request from the transport: duplicates and stale requests are dropped, each with its message. */
  receive(request: CheckRequest): void {
    if (typeof request?.name !== 'string') {
      this.log.error({ request }, 'failed to parse the check request payload');
      return;
    }
    const key = `${typeof request.source === 'string' ? request.source : ''}:${request.name}`;
    const issued = typeof request.issued === 'number' ? request.issued : undefined;
    const last = this.lastIssued.get(key);
    if (issued !== undefined && last !== undefined) {
      if (issued < last) {
        this.log.error({ check: request.name, issued, last }, 'check request is older than one already received');
        return;
      }
      if (issued === last) {
        this.log.warn({ check: request.name, issued }, 'check request was already received: the client has multiple matching subscriptions');
        return;
      }
    }
    if (issued !== undefined) this.lastIssued.set(key, issued);
    this.process(request);
  }

  /** Runs a request as the legacy process_check_request does. */
  process(incoming: CheckRequest): void {
    const settings = this.settings;
    if (!settings) return;
    const localDefined = Boolean(settings.checks[incoming.name]);
    const request: CheckRequest = localDefined && !('proxy_requests' in incoming) ? { ...incoming, ...definitionOf(settings, incoming.name) } : incoming;
    const now = this.deps.clock.now();
    if (typeof request.command !== 'string') {
      this.log.warn({ check: request.name, extension: request.extension ?? request.name }, 'unknown check extension');
      return;
    }
    if (settings.client.safe_mode === true && !localDefined) {
      const check = { ...request, output: SAFE_MODE_OUTPUT, status: 3, handle: false, executed: Math.floor(now / 1000) };
      void this.deliver({ client: String(settings.client.name), check });
      return;
    }
    const guard = [request.source, request.name].filter((part) => part !== undefined && part !== null && part !== '').join(':');
    if (this.inProgress.has(guard)) {
      this.log.error({ check: request.name, source: request.source }, 'check execution still in progress');
      return;
    }
    this.inProgress.add(guard);
    const defaultTimeout = defaultCheckTimeoutOf(settings);
    const task = runCheck(request, {
      client: settings.client as Record<string, unknown>,
      run: this.deps.run,
      clock: this.deps.clock,
      defaultTimeout,
      prepare: this.prepareFor(settings),
      onMetricError: (error) => this.log.warn({ check: request.name, ...error }, 'metric line skipped'),
    })
      .then((result) => {
        this.log.info(
          { check: result.check.name, source: result.check.source, status: result.check.status, duration: result.check.duration },
          'check executed',
        );
        return this.deliver(result);
      })
      .catch((error) => this.log.error({ err: error, check: request.name }, 'check execution failed'))
      .finally(() => {
        this.inProgress.delete(guard);
        this.inFlight.delete(task);
      });
    this.inFlight.add(task);
  }

  /** A check's and its hook's spawner with their runtime assets and secrets (execute gets these passed in). */
  private prepareFor(settings: Settings): PrepareRun {
    const assets = this.deps.assets?.(settings);
    return (run, definition) =>
      withSecrets(withAssets(withEnvVars(run, definition.env_vars), assets, definition.runtime_assets), definition, this.deps.secrets);
  }

  private async deliver(result: CheckResult): Promise<void> {
    await this.deps.intake.submit(result);
  }
}
