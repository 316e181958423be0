import type { Logger } from 'pino';
import type { Settings } from '../config/index.js';
import { definitionOf } from '../config/index.js';
import { canonicalKey } from '../config/index.js';
import type { Clock } from '../schedule/index.js';
import { timingOf, spreadSeconds } from '../schedule/index.js';
import { isSubdued } from '../schedule/index.js';
import { planProxyRequests } from '../schedule/index.js';
import type { Transport, CheckRequest } from '../transport/index.js';
import { evalAttribute } from '../ruby-eval/index.js';
import type { LegacyAgentChecks } from './legacy-agent-checks.js';
import { byNameThenKind, type RequestTarget, type V2CheckRequest } from './check-request-targets.js';
import { CheckDispatcher, type Delivery, type ScheduleHold } from './check-dispatcher.js';

export interface CheckRequestPublisherDeps {
  readonly clock: Clock;
  readonly transport: Transport;
  /** Where proxy requests find their clients: the client registry. */
  readonly registry: { all(): Record<string, unknown>[] };
  readonly logger: Logger;
  /** The zone subdue windows and cron use; the process's by default. */
  readonly zone?: string;
  /** Whether scheduling starts at once; false waits for `resume('not elected')` (a server not yet elected). */
  readonly scheduling?: boolean;
  /** Checked as each request fires: false skips it (an elected server not confirmed since a stall). */
  readonly leading?: () => boolean;
  /** Sensu Go agents of the checks' subscriptions, who get each request as Sensu Go would send it. */
  readonly agents?: LegacyAgentChecks;
}

const ROUND_ROBIN = 'roundrobin:';

/** Request payload: the definition minus subscribers and interval, plus issued. */
export function requestOf(definition: Record<string, unknown> & { name: string }, issuedMs: number): CheckRequest {
  const { subscribers: _s, interval: _i, ...rest } = definition;
  return { ...rest, name: definition.name, issued: Math.floor(issuedMs / 1000) };
}

export type { ScheduleHold };

/** Schedules subscription checks and publishes their requests (the legacy server's check_request_publisher). */
export class CheckRequestPublisher {
  /** Timers, holds and round-robin turns (per check and round-robin subscription with agents among its members). */
  private readonly dispatcher: CheckDispatcher;
  private readonly log: Logger;
  /** Kept while paused, for `resume`. */
  private settings: Settings | null = null;
  private readonly scheduled = new Map<string, string>();

  constructor(private readonly deps: CheckRequestPublisherDeps) {
    this.log = deps.logger.child({ component: 'server' });
    this.dispatcher = new CheckDispatcher({
      clock: deps.clock,
      log: this.log,
      scheduling: deps.scheduling,
      leading: deps.leading,
      fire: (name, at) => this.fire(name, at),
    });
  }

  /** Starts added checks, reschedules changed ones, stops removed ones; the others keep their timers. */
  apply(settings: Settings): void {
    this.settings = settings;
    this.deps.agents?.apply(settings);
    this.dispatcher.forgetRings((check) => !Object.hasOwn(settings.checks, check));
    if (this.dispatcher.held) return;
    const wanted = new Map<string, string>();
    for (const check of Object.values(settings.checks)) {
      if (check.standalone || check.publish === false) continue;
      const timing = timingOf(check, String(settings.client.name));
      if (timing.kind === 'none') continue;
      wanted.set(check.name, canonicalKey(check));
    }
    for (const name of this.scheduled.keys()) if (!wanted.has(name)) this.dispatcher.disarm(name);
    for (const [name, key] of wanted) {
      if (this.scheduled.get(name) === key) continue;
      this.dispatcher.arm(name, timingOf(settings.checks[name]!, String(settings.client.name)));
    }
    this.scheduled.clear();
    for (const [name, key] of wanted) this.scheduled.set(name, key);
  }

  /** API POST /request: publish now, ignoring subdue and publish false; proxy fan-out without splay. */
  requestNow(name: string, subscribers: string[] | undefined, apiRequested: Record<string, unknown>): boolean {
    const settings = this.settings;
    if (!settings?.checks[name]) return false;
    const definition: Record<string, unknown> & { name: string } = { ...definitionOf(settings, name), api_requested: apiRequested };
    const targets = subscribers ?? ((settings.checks[name]!.subscribers ?? []) as string[]);
    const now = this.deps.clock.now();
    if (definition.proxy_requests) {
      const { splay: _splay, ...noSplay } = definition.proxy_requests as Record<string, unknown>;
      this.publishProxy({ ...definition, proxy_requests: noSplay }, targets, 0, now);
    } else {
      this.publish(targets, requestOf(definition, now));
    }
    return true;
  }

  scheduledChecks(): string[] {
    return this.dispatcher.armed();
  }

  /**
   * Stops scheduling while `why` holds: not elected, or the broker away (legacy `pause`: timers cancelled, not fired
   * into a dead transport). The applied settings are kept.
   */
  pause(why: ScheduleHold): void {
    this.dispatcher.pause(why);
    this.scheduled.clear();
  }

  /** Ends `why`; once nothing holds, the last applied settings are scheduled again on the checks' own phase (legacy `resume`). */
  resume(why: ScheduleHold): void {
    if (this.dispatcher.resume(why) && this.settings) this.apply(this.settings);
  }

  stop(): void {
    this.pause('stopped');
  }

  private fire(name: string, at: number): void {
    const settings = this.settings;
    const check = settings?.checks[name];
    if (!settings || !check) return;
    if (!this.dispatcher.leads({ check: name })) return;
    if (isSubdued(check, at, this.deps.zone)) {
      this.log.info({ check: name }, 'check request was subdued');
      return;
    }
    const definition = definitionOf(settings, name);
    const subscribers = (check.subscribers ?? []) as string[];
    if (check.proxy_requests) {
      this.publishProxy(definition, subscribers, spreadSeconds(timingOf(check, String(settings.client.name)), at), at, this.dispatcher.inTerm());
      return;
    }
    this.publish(subscribers, requestOf(definition, at));
  }

  /** `still` says whether a delayed (splayed) request is still to be sent when its time comes. */
  private publishProxy(
    definition: Record<string, unknown> & { name: string },
    subscribers: string[],
    spread: number,
    at: number,
    still: () => boolean = () => true,
  ): void {
    const plan = planProxyRequests(definition, this.deps.registry.all(), spread, (attribute, value, client) => {
      const outcome = evalAttribute(attribute, value, client);
      if (outcome.ok) return outcome.matched;
      this.log.error({ check: definition.name, client: client.name, expression: attribute, error: outcome.error }, 'failed to evaluate ruby expression');
      return false;
    });
    for (const skip of plan.skipped) {
      this.log.warn(
        { check: definition.name, client: skip.client, unmatched: skip.unmatched, reason: 'unmatched client tokens' },
        'failed to publish a proxy check request',
      );
    }
    // Issued when sent, as legacy stamps each proxy request.
    for (const target of plan.targets)
      this.dispatcher.deliverAfter(at, target.delayMs, still, () =>
        this.publish(subscribers, requestOf(target.check as typeof definition, this.deps.clock.now())),
      );
  }

  private publish(subscribers: readonly string[], request: CheckRequest): void {
    // A proxy request's delayed send that outlived a pause goes with the paused schedule.
    if (this.dispatcher.held && request.api_requested === undefined) return;
    this.dispatcher.deliver(request.name, subscribers, this.deliveryOf(request), { check: request.name }, request.issued);
  }

  /**
   * Legacy clients get the request over the transport (which takes turns itself in a `roundrobin:` subscription), and
   * the agents of the subscription its translation; a `roundrobin:x` served by agents too takes turns here over the live
   * legacy clients of `roundrobin:x` and the agents of `x`, a legacy client getting it on its own `client:NAME`.
   */
  private deliveryOf(request: CheckRequest): Delivery<RequestTarget> {
    const { transport, agents } = this.deps;
    // Made once per request, when an agent is among the members: none are, in a fleet of legacy clients only.
    let agentRequest: V2CheckRequest | null | undefined;
    const agentsOf = (subscription: string): RequestTarget[] => {
      const members = agents ? agents.members(subscription.startsWith(ROUND_ROBIN) ? subscription.slice(ROUND_ROBIN.length) : subscription) : [];
      return members.length > 0 && (agentRequest ??= agents!.requestOf(request)) !== null ? members : [];
    };
    return {
      ring: (subscription) => {
        const agentMembers = subscription.startsWith(ROUND_ROBIN) ? agentsOf(subscription) : [];
        return agentMembers.length > 0 ? [...agents!.legacyMembers(subscription), ...agentMembers].sort(byNameThenKind) : null;
      },
      broadcast: (subscription) => {
        transport.publish(subscription, request);
        // A round-robin subscription is broadcast only when no agent is among its members.
        if (!subscription.startsWith(ROUND_ROBIN)) for (const agent of agentsOf(subscription)) agents!.send(agent, agentRequest!);
      },
      send: (_subscription, target) => (target.kind === 'legacy' ? transport.publish(`client:${target.name}`, request) : agents!.send(target, agentRequest!)),
    };
  }
}
