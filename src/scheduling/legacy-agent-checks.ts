import type { Logger } from 'pino';
import type { ProxyRequests, Settings } from '../config/index.js';
import { legacyNamespace } from '../config/index.js';
import { translateChecks, escapeTemplateText, type TranslatedChecks } from '../compile/index.js';
import { prepareResult } from '../legacy/index.js';
import { attributesMatch } from '../schedule/index.js';
import { evalAttribute } from '../ruby-eval/index.js';
import type { CheckResult } from '../execute/index.js';
import type { CheckRequest } from '../transport/index.js';
import type { CheckRequestTargets, RequestTarget, V2CheckRequest } from './check-request-targets.js';
import type { AgentPayload } from '../agentd/index.js';
import { isObject } from '../v2/index.js';

/** Marks a request as a conf.d check's: the event that comes back from the agent is handled as a legacy result. */
const CONF_D_ANNOTATION = 'checkbridge.io/conf.d';

// Compile's warnings about what the agent runs; the others (handling, schedule, custom attributes) checkbridge still
// honours itself, since an agent's result of a conf.d check is processed as a legacy result.
const AGENT_SIDE = new Set(['source', 'command', 'timeout', 'hooks']);

/** What an agent is sent for one check, but `issued`: made once per configuration load. */
type Prepared = Omit<V2CheckRequest, 'issued'>;

export interface LegacyAgentChecksDeps {
  readonly targets: CheckRequestTargets;
  readonly logger: Logger;
  /** The client record of that name, or null: what a proxy result's `source` is checked against. */
  readonly client: (name: string) => Record<string, unknown> | null;
}

/**
 * conf.d subscription checks for Sensu Go agents: translated as `compile` does once per configuration load, sent to the
 * agents of `checkbridge.namespace`, and their results brought back as legacy results (one handling for both kinds).
 */
export class LegacyAgentChecks {
  private settings: Settings | null = null;
  private requests = new Map<string, Prepared>();
  private namespace = 'default';
  private readonly log: Logger;

  constructor(private readonly deps: LegacyAgentChecksDeps) {
    this.log = deps.logger.child({ component: 'server' });
  }

  /** A new configuration: every check translated now, and what an agent cannot honour logged once per check. */
  apply(settings: Settings): void {
    if (settings === this.settings) return;
    this.settings = settings;
    this.namespace = legacyNamespace(settings);
    this.requests = new Map();
    let translated: TranslatedChecks;
    try {
      translated = translateChecks(settings, this.namespace);
    } catch (error) {
      return void this.log.error({ err: error }, 'legacy checks not translated for Sensu Go agents: none is sent to them');
    }
    for (const [check, reason] of translated.untranslated) this.log.warn({ check, reason }, 'legacy check not sent to Sensu Go agents');
    for (const [check, { config, hooks, warnings }] of translated.checks) {
      // An extension runs inside a legacy client; an agent has none to run.
      if (settings.checks[check]?.extension !== undefined) {
        this.log.warn({ check, reason: 'it runs a legacy client extension, which a Sensu Go agent does not have' }, 'legacy check not sent to Sensu Go agents');
        continue;
      }
      const unhonoured = warnings.filter((w) => AGENT_SIDE.has(w.attribute));
      if (unhonoured.length > 0)
        this.log.warn(
          { check, attributes: Object.fromEntries(unhonoured.map((w) => [w.attribute, w.message])) },
          'legacy check attributes a Sensu Go agent cannot honour',
        );
      const assets = ((config.runtime_assets ?? []) as string[]).map((name) => translated.assets.get(name)).filter((a) => a !== undefined);
      const marked = { ...config, metadata: { ...config.metadata, annotations: { ...config.metadata.annotations, [CONF_D_ANNOTATION]: 'true' } } };
      this.requests.set(check, { config: marked, hooks, assets });
    }
  }

  /** The agents subscribed to `subscription` in checkbridge.namespace (legacy clients are reached over the transport). */
  members(subscription: string): RequestTarget[] {
    return this.deps.targets.members(this.namespace, subscription, (kind) => kind !== 'legacy');
  }

  /** The live legacy clients subscribed to `subscription` (`roundrobin:x`): the other members of a mixed ring. */
  legacyMembers(subscription: string): RequestTarget[] {
    return this.deps.targets.members(this.namespace, subscription, (kind) => kind === 'legacy');
  }

  send(target: RequestTarget, request: V2CheckRequest): void {
    this.deps.targets.send(this.namespace, target, request);
  }

  /** The agent's request for the legacy `request` (its `issued`; a proxy request's substituted command and source), or null when untranslated. */
  requestOf(legacy: CheckRequest): V2CheckRequest | null {
    const prepared = this.requests.get(legacy.name);
    if (!prepared) return null;
    let { config, hooks } = prepared;
    // A proxy request was substituted by the scheduler from the proxy client's attributes, as legacy does.
    if (typeof legacy.source === 'string' && this.settings?.checks[legacy.name]?.proxy_requests) {
      config = { ...config, command: escapeTemplateText(String(legacy.command ?? '')), proxy_entity_name: legacy.source };
      const commands = isObject(legacy.hooks) ? legacy.hooks : {};
      hooks = hooks.map((hook) => {
        const run = commands[String(hook.metadata?.name).slice(legacy.name.length + 1)];
        return isObject(run) ? { ...hook, command: escapeTemplateText(String(run.command ?? '')) } : hook;
      });
    }
    return { config, hooks, assets: prepared.assets, issued: Number(legacy.issued) };
  }

  /**
   * An agent's event of a conf.d check as the legacy result its client would have sent (or why it is refused), null
   * when it is not one: the check's output, status and hook run, for the agent's client record (or its proxy `source`).
   */
  legacyResultOf(namespace: string, agent: string, event: AgentPayload): { result: CheckResult } | { refused: string } | null {
    const check = isObject(event.check) ? event.check : {};
    const metadata = isObject(check.metadata) ? check.metadata : {};
    const annotations = isObject(metadata.annotations) ? metadata.annotations : {};
    if (namespace !== this.namespace || annotations[CONF_D_ANNOTATION] !== 'true') return null;
    const name = String(metadata.name);
    const definition = this.requests.has(name) ? this.settings?.checks[name] : undefined;
    if (!definition) return null;
    // Client records are keyed by name: only the agent's own record (its keepalive stored) takes its results.
    const own = this.deps.client(agent);
    if (own?.entity_class !== 'agent' || own.namespace !== namespace)
      return { refused: `the client record "${agent}" is not this agent's (no keepalive of it stored, or another client holds the name)` };
    // Refused as the v2 door refuses them; a null entry is Go's nil hook: none.
    const runs: unknown = check.hooks ?? [];
    if (!Array.isArray(runs) || !runs.every((run) => run === null || isObject(run))) return { refused: 'check.hooks must be a list of objects' };
    const hooks: Record<string, Record<string, unknown>> = { ...definition.hooks };
    for (const run of runs) {
      if (!isObject(run)) continue;
      const severity = String((isObject(run.metadata) ? run.metadata.name : undefined) ?? '').slice(name.length + 1);
      // Own hooks only: a run named after an Object method (`disk-toString`) is no hook of the definition.
      if (Object.hasOwn(hooks, severity))
        hooks[severity] = { ...hooks[severity], output: run.output, status: run.status, executed: run.executed, duration: run.duration };
    }
    // The command comes from the definition, tokens and all, as a legacy client reports it.
    const fields: Record<string, unknown> = {
      name,
      output: check.output,
      status: check.status,
      executed: check.executed,
      duration: check.duration,
      issued: check.issued,
    };
    // Another client's result only where the check names one: its own `source`, or a proxy client its request matched.
    const proxy = check.proxy_entity_name;
    if (proxy && definition.source === proxy) fields.source = proxy;
    else if (proxy && definition.proxy_requests) {
      const refusal = this.refuseProxySource(String(proxy), definition.proxy_requests);
      if (refusal) return { refused: refusal };
      fields.source = proxy;
    }
    if (Object.keys(hooks).length > 0) fields.hooks = hooks;
    const prepared = prepareResult(fields, Math.floor(Date.now() / 1000));
    if (!prepared.ok) return { refused: prepared.message };
    const metrics = isObject(event.metrics) ? event.metrics : {};
    return {
      result: {
        client: agent,
        check: prepared.check,
        ...(Array.isArray(metrics.points) ? { metrics: { handlers: (metrics.handlers ?? []) as string[], points: metrics.points } } : {}),
      },
    };
  }

  /** Why `source` is no proxy client the check's request could have gone to (agents' records have no signature to guard them), or null. */
  private refuseProxySource(source: string, proxyRequests: ProxyRequests): string | null {
    const client = this.deps.client(source);
    const named = `proxy_entity_name "${source}"`;
    if (!client) return `${named} names no client`;
    if (client.entity_class === 'agent') return `${named} names a Sensu Go agent, not a proxy client`;
    if (client.type !== 'proxy' && client.keepalives !== false) return `${named} names a client with keepalives, not a proxy client`;
    const wanted = proxyRequests.client_attributes ?? {};
    // As when the request was sent: an expression that fails to evaluate matches nothing.
    const matches =
      Object.keys(wanted).length > 0 &&
      attributesMatch(client, wanted, (attribute, value, root) => {
        const outcome = evalAttribute(attribute, value, root);
        return outcome.ok && outcome.matched;
      });
    return matches ? null : `${named} is not matched by the check's proxy_requests client_attributes`;
  }
}
