import type { Processed } from '../intake/index.js';
import type { Json } from '../json.js';
import type { RehearsalPlan } from './plan.js';
import type { HandlerOutcome } from './v2-decision.js';
import type { TokenDifference } from './tokens.js';

/** One event on which Sensu Go would have done otherwise: what each side did, why (compile's warnings, or the rule). */
export interface Divergence {
  readonly at: number;
  readonly client: string;
  readonly check: string;
  readonly status: number;
  readonly action: string;
  /** What differed: `filter`, `when`, `mutator`, `occurrences`, `subdue`, `severities`, `handled`, `token`, `pipeline`, `unconfigured`. */
  readonly kinds: string[];
  readonly handlers: { handler: string; legacy: string; v2: string }[];
  readonly tokens?: TokenDifference[];
  readonly why: string[];
}

const NOT_ONE = 'not one of its handlers';

function warningsOf(plan: RehearsalPlan, owner: string, keep: (w: { attribute: string; message: string }) => boolean = () => true): string[] {
  return (plan.warnings.get(owner) ?? []).filter(keep).map((w) => `${owner}${w.attribute ? `/${w.attribute}` : ''}: ${w.message}`);
}

/** The kind of one handler's divergence, read from whichever side did not call it. */
function kindOf(plan: RehearsalPlan, legacy: HandlerOutcome | undefined, v2: HandlerOutcome | undefined, legacyHandles: boolean): string {
  if (legacy?.by === 'mutator' || v2?.by === 'mutator') return 'mutator';
  if (v2?.by === 'subdues') return 'subdue';
  const deciding = legacy?.handled ? v2?.by : (legacy?.by ?? (legacyHandles ? undefined : 'handled'));
  if (deciding === 'occurrences') return 'occurrences';
  if (deciding === 'severities' || deciding?.endsWith('-severities')) return 'severities';
  if (deciding === 'checkbridge-handled' || deciding === 'handled') return 'handled';
  const filter = deciding ? plan.settings.filters[deciding] : undefined;
  if (filter) return (filter as Json).when ? 'when' : 'filter';
  return 'pipeline';
}

/** Why the occurrences filter decided otherwise: settings legacy's filter ignores, or the counts themselves. */
function occurrencesWhy(processed: Processed, v2Event: Json): string {
  const { occurrences, refresh } = processed.event.check as { occurrences?: unknown; refresh?: unknown };
  const settings = `occurrences ${JSON.stringify(occurrences ?? 1)}, refresh ${JSON.stringify(refresh ?? 1800)}`;
  if (!Number.isInteger(occurrences ?? 1) || !Number.isInteger(refresh ?? 1800))
    return `${settings}: not whole numbers, so legacy's occurrences filter let every event through; the compiled occurrences filter reads them with parseInt and applies`;
  return `${settings}: legacy counted ${processed.event.occurrences} occurrences (watermark ${processed.event.occurrences_watermark}), Sensu Go ${String(v2Event.check.occurrences)} (watermark ${String(v2Event.check.occurrences_watermark)})`;
}

/** Why one handler's outcome differs: compile's warnings about what decided, or the rule that differs. */
function whyOf(
  plan: RehearsalPlan,
  kind: string,
  handler: string,
  check: string,
  legacy: HandlerOutcome | undefined,
  v2: HandlerOutcome | undefined,
  v2Event: Json,
  processed: Processed,
): string[] {
  const deciding = [legacy?.by, v2?.by].filter((b): b is string => typeof b === 'string');
  switch (kind) {
    case 'mutator':
      return warningsOf(plan, `handlers/${handler}`, (w) => w.attribute === 'mutator');
    case 'subdue':
      return warningsOf(plan, `checks/${check}`, (w) => w.attribute === 'subdue');
    case 'occurrences':
      return [occurrencesWhy(processed, v2Event)];
    case 'filter':
    case 'when':
      return deciding.flatMap((f) => [
        ...warningsOf(plan, `filters/${f}`),
        ...warningsOf(plan, `handlers/${handler}`, (w) => w.attribute === 'filters' && w.message.includes(` ${f} `)),
      ]);
    default:
      return [...warningsOf(plan, `handlers/${handler}`), ...warningsOf(plan, `checks/${check}`)];
  }
}

/** Whether each handler of `one` is called on the other side exactly when it is on this side. */
function agree(one: readonly HandlerOutcome[], other: readonly HandlerOutcome[]): boolean {
  return one.every((o) => Boolean(o.handled) === Boolean(other.find((p) => p.handler === o.handler)?.handled));
}

/** The divergence of one event, or null when Sensu Go would have called the same handlers and run the same command. */
export function compareOutcomes(
  plan: RehearsalPlan,
  processed: Processed,
  legacyOutcomes: readonly HandlerOutcome[],
  v2Outcomes: readonly HandlerOutcome[],
  v2Event: Json,
  tokens: readonly TokenDifference[],
): Divergence | null {
  // The usual case, without building anything: the same handlers called on both sides and the same command.
  if (tokens.length === 0 && agree(legacyOutcomes, v2Outcomes) && agree(v2Outcomes, legacyOutcomes)) return null;
  const { event } = processed;
  const check = String(event.check.name);
  const kinds = new Set<string>();
  const why = new Set<string>();
  const handlers: Divergence['handlers'] = [];
  const names = [...new Set([...legacyOutcomes.map((o) => o.handler), ...v2Outcomes.map((o) => o.handler)])].sort();
  // A check compile wrote no CheckConfig for (a result of a check the configuration does not define, or one left out).
  const unconfigured = !plan.resources.has(`CheckConfig/${check}`);
  for (const name of names) {
    const legacy = legacyOutcomes.find((o) => o.handler === name);
    const v2 = v2Outcomes.find((o) => o.handler === name);
    if (Boolean(legacy?.handled) === Boolean(v2?.handled)) continue;
    const kind = unconfigured ? 'unconfigured' : kindOf(plan, legacy, v2, processed.handle);
    kinds.add(kind);
    if (unconfigured)
      why.add(
        `check ${check} has no CheckConfig (not defined in the configuration, or left out by compile): in Sensu Go its events name their handlers directly, without the pipelines' filters`,
      );
    else for (const w of whyOf(plan, kind, name, check, legacy, v2, v2Event, processed)) why.add(w);
    const legacyText = legacy?.detail ?? (processed.handle ? NOT_ONE : 'not handled: legacy handles non-OK results, resolutions, flapping and metrics only');
    handlers.push({ handler: name, legacy: legacyText, v2: v2?.detail ?? NOT_ONE });
  }
  if (tokens.length > 0) {
    kinds.add('token');
    for (const t of tokens)
      why.add(
        t.label
          ? `${t.token}: the agent reads the label ${t.label}, which the Entity compile emits for client ${String(event.client.name)} does not carry as legacy read the attribute (a secret, or not a scalar)`
          : `${t.token}: the agent renders it differently from legacy`,
      );
    for (const w of warningsOf(plan, `checks/${check}`, (w) => w.attribute === 'command')) why.add(w);
  }
  if (kinds.size === 0) return null;
  if (why.size === 0) why.add('no compile warning explains it');
  return {
    at: Math.floor(event.timestamp),
    client: String(event.client.name),
    check,
    status: Number(event.check.status),
    action: event.action,
    kinds: [...kinds].sort(),
    handlers,
    ...(tokens.length ? { tokens: [...tokens] } : {}),
    why: [...why],
  };
}
