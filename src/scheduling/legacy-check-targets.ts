import type { Transport, CheckRequest } from '../transport/index.js';
import type { TargetKind, V2CheckRequest } from './check-request-targets.js';
import { isObject, type HookConfig } from '../v2/index.js';
import type { ReadClock } from '../schedule/index.js';

// A legacy client without keepalive thresholds of its own goes critical after 180 s: no longer a member then.
const DEFAULT_CRITICAL_S = 180;

/** The v2 request in the legacy wire format: the fields a legacy client runs and its result carries. */
export function legacyRequestOf(request: V2CheckRequest): CheckRequest {
  const c = request.config;
  const byName = new Map(request.hooks.map((h) => [String(h.metadata?.name), h]));
  // Legacy runs one hook per severity: the first of each list that exists.
  const hooks: Record<string, Pick<HookConfig, 'command' | 'timeout' | 'stdin'>> = {};
  for (const entry of c.check_hooks ?? []) {
    for (const [severity, names] of Object.entries(entry ?? {})) {
      const hook = (names ?? []).map((n) => byName.get(n)).find(Boolean);
      if (hook && !hooks[severity]) hooks[severity] = { command: hook.command, timeout: hook.timeout || undefined, stdin: hook.stdin === true || undefined };
    }
  }
  const out: Record<string, unknown> = {
    name: String(c.metadata?.name),
    command: c.command,
    issued: request.issued,
    interval: c.interval || undefined,
    cron: c.cron || undefined,
    subscribers: c.subscriptions ?? [],
    handlers: c.handlers ?? [],
    timeout: c.timeout || undefined,
    ttl: c.ttl || undefined,
    stdin: c.stdin === true || undefined,
    source: c.proxy_entity_name || undefined,
    hooks: Object.keys(hooks).length > 0 ? hooks : undefined,
    runtime_assets: c.runtime_assets?.length ? c.runtime_assets : undefined,
    env_vars: c.env_vars?.length ? c.env_vars : undefined,
    secrets: c.secrets?.length ? c.secrets : undefined,
    output_metric_format: c.output_metric_format || undefined,
    output_metric_handlers: c.output_metric_handlers?.length ? c.output_metric_handlers : undefined,
    output_metric_tags: c.output_metric_tags?.length ? c.output_metric_tags : undefined,
    low_flap_threshold: c.low_flap_threshold || undefined,
    high_flap_threshold: c.high_flap_threshold || undefined,
  };
  for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key];
  return out as CheckRequest;
}

/** When a client's keepalive goes critical (its own threshold, or the default), in seconds. */
function criticalAfterS(client: Record<string, unknown>): number {
  const thresholds = isObject(client.keepalive) ? client.keepalive.thresholds : undefined;
  return Number((isObject(thresholds) ? thresholds.critical : undefined) ?? DEFAULT_CRITICAL_S);
}

// A v2 `entity:NAME` subscription is a legacy client's own `client:NAME` one.
const legacySubscription = (subscription: string) => (subscription.startsWith('entity:') ? `client:${subscription.slice(7)}` : subscription);

export interface LegacyTargetsDeps {
  readonly transport: Transport;
  /** The client registry. */
  readonly clients: () => readonly Record<string, unknown>[];
  /** The one namespace legacy clients live in (checkbridge.namespace): they serve the v2 checks of that one only. */
  readonly namespace: () => string;
  readonly clock: ReadClock;
}

/** Legacy clients as subscribers of v2 checks: requests in the legacy format over the existing transport. */
export function legacyTargets(deps: LegacyTargetsDeps): TargetKind {
  return {
    kind: 'legacy',
    members(namespace, subscription) {
      if (namespace !== deps.namespace()) return [];
      const wanted = legacySubscription(subscription);
      const nowS = deps.clock.now() / 1000;
      return (
        deps
          .clients()
          // A Sensu Go agent's client record (src/agentd) is a member of the agent kind, not this one.
          .filter(
            (c) =>
              c.entity_class !== 'agent' &&
              Array.isArray(c.subscriptions) &&
              c.subscriptions.includes(wanted) &&
              nowS - Number(c.timestamp ?? 0) < criticalAfterS(c),
          )
          .map((c) => String(c.name))
      );
    },
    broadcast(namespace, subscription, request) {
      if (namespace === deps.namespace()) deps.transport.publish(legacySubscription(subscription), legacyRequestOf(request));
    },
    send(namespace, name, request) {
      if (namespace === deps.namespace()) deps.transport.publish(`client:${name}`, legacyRequestOf(request));
    },
  };
}
