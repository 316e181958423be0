import type { Logger } from 'pino';
import type { Settings } from '../config/index.js';
import { definitionOf } from '../config/index.js';
import { canonicalKey } from '../config/index.js';
import type { Clock } from '../schedule/index.js';
import { Scheduler } from '../schedule/index.js';
import { timingOf, spreadSeconds } from '../schedule/index.js';
import { isSubdued } from '../schedule/index.js';
import { planProxyRequests } from '../schedule/index.js';
import type { Transport, CheckRequest } from '../transport/index.js';
import { evalAttribute } from '../ruby-eval/index.js';
import type { LegacyAgentChecks } from './legacy-agent-checks.js';
import type { RequestTarget, V2CheckRequest } from './check-request-targets.js';


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

export type ScheduleHold = 'not elected' | 'broker away' | 'stopped';

/** Schedules subscription checks and publishes their requests (the legacy server's check_request_publisher). */
export class CheckRequestPublisher {
  private readonly scheduler: Scheduler;
  private readonly log: Logger;
  private settings: Settings | null = null;
  private readonly scheduled = new Map<string, string>();
  /** Per check and round-robin subscription with agents among its members, the next turn. */
  private readonly rings = new Map<string, number>();
  /** Why nothing is scheduled now: no request is armed while any holds, the settings are kept for `resume`. */
  private readonly holds = new Set<ScheduleHold>();
  // Counts pauses: a splayed request armed before a pause is never sent after it, even once scheduling resumes.
  private term = 0;

  constructor(private readonly deps: CheckRequestPublisherDeps) {
    this.log = deps.logger.child({ component: 'server' });
    if (deps.scheduling === false) this.holds.add('not elected');
    this.scheduler = new Scheduler(deps.clock, (name, at) => this.fire(name, at));
  }

  /** Starts added checks, reschedules changed ones, stops removed ones; the others keep their timers. */
  apply(settings: Settings): void {
    this.settings = settings;
    this.deps.agents?.apply(settings);
    for (const ring of this.rings.keys()) if (!Object.hasOwn(settings.checks, ring.slice(0, ring.indexOf('\u0000')))) this.rings.delete(ring);
    if (this.holds.size > 0) return;
    const wanted = new Map<string, string>();
    for (const check of Object.values(settings.checks)) {
      if (check.standalone || check.publish === false) continue;
      const timing = timingOf(check, String(settings.client.name));
      if (timing.kind === 'none') continue;
      wanted.set(check.name, canonicalKey(check));
    }
    for (const name of this.scheduled.keys()) if (!wanted.has(name)) this.scheduler.remove(name);
    for (const [name, key] of wanted) {
      if (this.scheduled.get(name) === key) continue;
      this.scheduler.set(name, timingOf(settings.checks[name]!, String(settings.client.name)));
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
    return this.scheduler.names();
  }

  /**
   * Stops scheduling while `why` holds: not elected, or the broker away (legacy `pause`: timers cancelled, not fired
   * into a dead transport). The applied settings are kept.
   */
  pause(why: ScheduleHold): void {
    this.holds.add(why);
    this.term++;
    this.scheduler.stop();
    this.scheduled.clear();
  }

  /** Ends `why`; once nothing holds, the last applied settings are scheduled again on the checks' own phase (legacy `resume`). */
  resume(why: ScheduleHold): void {
    if (!this.holds.delete(why) || this.holds.size > 0) return;
    if (this.settings) this.apply(this.settings);
  }

  stop(): void {
    this.pause('stopped');
  }

  private fire(name: string, at: number): void {
    const settings = this.settings;
    const check = settings?.checks[name];
    if (!settings || !check) return;
    if (this.deps.leading && !this.deps.leading()) {
      this.log.debug({ check: name }, 'check request skipped: leadership not confirmed');
      return;
    }
    if (isSubdued(check, at, this.deps.zone)) {
      this.log.info({ check: name }, 'check request was subdued');
      return;
    }
    const definition = definitionOf(settings, name);
    const subscribers = (check.subscribers ?? []) as string[];
    if (check.proxy_requests) {
      this.publishProxy(definition, subscribers, spreadSeconds(timingOf(check, String(settings.client.name)), at), at, this.inTerm());
      return;
    }
    this.publish(subscribers, requestOf(definition, at));
  }

  private inTerm(): () => boolean {
    const term = this.term;
    return () => this.holds.size === 0 && this.term === term;
  }

  /** `still` says whether a delayed (splayed) request is still to be sent when its time comes. */
  private publishProxy(definition: Record<string, unknown> & { name: string }, subscribers: string[], spread: number, at: number, still: () => boolean = () => true): void {
    const plan = planProxyRequests(definition, this.deps.registry.all(), spread, (attribute, value, client) => {
      const outcome = evalAttribute(attribute, value, client);
      if (outcome.ok) return outcome.matched;
      this.log.error({ check: definition.name, client: client.name, expression: attribute, error: outcome.error }, 'failed to evaluate ruby expression');
      return false;
    });
    for (const skip of plan.skipped) {
      this.log.warn({ check: definition.name, client: skip.client, unmatched: skip.unmatched, reason: 'unmatched client tokens' }, 'failed to publish a proxy check request');
    }
    for (const target of plan.targets) {
      const send = () => this.publish(subscribers, requestOf(target.check as typeof definition, this.deps.clock.now()));
      if (target.delayMs === 0) send();
      else this.deps.clock.at(at + target.delayMs, () => still() && send());
    }
  }

  private publish(subscribers: readonly string[], request: CheckRequest): void {
    // A proxy request's delayed send that outlived a pause goes with the paused schedule.
    if (this.holds.size > 0 && request.api_requested === undefined) return;
    const agents = this.deps.agents;
    // Made once per request, when an agent is among the members: none are, in a fleet of legacy clients only.
    let agentRequest: V2CheckRequest | null | undefined;
    for (const subscription of subscribers) {
      const roundRobin = subscription.startsWith(ROUND_ROBIN);
      let agentMembers = agents ? agents.members(roundRobin ? subscription.slice(ROUND_ROBIN.length) : subscription) : [];
      if (agentMembers.length > 0 && (agentRequest ??= agents!.requestOf(request)) === null) agentMembers = [];
      if (roundRobin && agentMembers.length > 0) {
        this.sendInTurn(request, subscription, agentMembers, agentRequest!);
        continue;
      }
      this.log.debug({ check: request.name, subscription, issued: request.issued }, 'publishing check request');
      this.deps.transport.publish(subscription, request);
      for (const agent of agentMembers) agents!.send(agent, agentRequest!);
    }
  }

  /**
   * A round-robin subscription served by agents too: one member per request, in turn over the live legacy clients of
   * `roundrobin:x` and the agents of `x`; a legacy client gets it on its own `client:NAME` subscription.
   */
  private sendInTurn(request: CheckRequest, subscription: string, agentMembers: readonly RequestTarget[], agentRequest: V2CheckRequest): void {
    const legacy = this.deps.agents!.legacyMembers(subscription);
    const ring = [...legacy, ...agentMembers].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
    const key = `${request.name}\u0000${subscription}`;
    const turn = this.rings.get(key) ?? 0;
    this.rings.set(key, turn + 1);
    const target = ring[turn % ring.length]!;
    this.log.debug({ check: request.name, subscription, target, issued: request.issued }, 'publishing round-robin check request');
    if (target.kind === 'legacy') this.deps.transport.publish(`client:${target.name}`, request);
    else this.deps.agents!.send(target, agentRequest);
  }
}
