import { filterAllows } from '../v2/index.js';
import { SandboxAllowance, EVENT_ALLOWANCE_MS } from '../js-sandbox/index.js';
import { V2_BUILT_IN_FILTERS } from '../handling/index.js';
import type { Json } from '../json.js';
import type { RehearsalPlan } from './plan.js';
import { inSubdues } from './subdues.js';
import { nativeVerdict, type Verdict } from './native-filters.js';

/** What one side did for one handler: called it, or why not (`by` names the filter or rule that decided). */
export interface HandlerOutcome {
  readonly handler: string;
  readonly handled: boolean;
  readonly by?: string;
  readonly detail: string;
}

interface Step {
  readonly handler: string;
  readonly filters: string[];
  readonly mutator: string | null;
}

interface Steps {
  readonly steps: Step[];
  readonly missing: HandlerOutcome[];
}

// Per pipelines list of a CheckConfig (the same array, of one plan, on every event of its check): its steps, read once.
const stepsByPipelines = new WeakMap<object, Steps>();

/** The workflows the event's pipelines hold, else its check's handlers as handlers of their own (as Sensu Go's pipelined). */
function stepsOf(plan: RehearsalPlan, event: Json): Steps {
  const pipelines = event.pipelines as unknown;
  const kept = Array.isArray(pipelines) ? stepsByPipelines.get(pipelines) : undefined;
  if (kept) return kept;
  const steps: Step[] = [];
  const missing: HandlerOutcome[] = [];
  for (const ref of (event.pipelines ?? []) as Json[]) {
    const pipeline = plan.resources.get(`Pipeline/${String(ref.name)}`);
    if (!pipeline) {
      missing.push({ handler: String(ref.name), handled: false, by: 'pipeline', detail: `pipeline ${String(ref.name)} not found` });
      continue;
    }
    for (const workflow of (pipeline.workflows ?? []) as Json[])
      if (workflow.handler?.name)
        steps.push({
          handler: String(workflow.handler.name),
          filters: ((workflow.filters ?? []) as Json[]).map((f) => String(f.name)),
          mutator: workflow.mutator?.name ?? null,
        });
  }
  // Without a workflow the event's own handlers decide: nothing to keep.
  if (steps.length === 0 && missing.length === 0) {
    for (const name of (event.check?.handlers ?? []) as string[]) steps.push({ handler: name, filters: [], mutator: null });
    return { steps, missing };
  }
  if (Array.isArray(pipelines)) stepsByPipelines.set(pipelines, { steps, missing });
  return { steps, missing };
}

// The filters compile writes itself read only these fields of the event (their check's annotations are the same for
// every event of a check): their verdict is kept per check and these values, so the sandbox runs once per combination.
const OWN_FILTERS = /^(checkbridge-handled|not-flapping|occurrences|.+-severities)$/;
const MAX_VERDICTS_PER_CHECK = 256;

/** An event the rehearsal could not evaluate (the sandbox was busy): counted as skipped, never as a divergence. */
export class Unrehearsed extends Error {}

/** A verdict of the sandbox under way, and once it has come, the verdict itself (read without waiting). */
interface Kept {
  readonly promise: Promise<Verdict>;
  value?: Verdict;
}

/** Verdicts of compile's own filters, per check: made per configuration. */
export type VerdictCache = Map<string, Map<string, Kept>>;

function verdictKey(plan: RehearsalPlan, name: string, event: Json): string | null {
  if (!OWN_FILTERS.test(name) || Object.hasOwn(plan.settings.filters, name)) return null;
  const c = event.check ?? {};
  const statuses = ((c.history ?? []) as Json[]).map((h) => h.status);
  // The previous status makes is_resolution; the severities filter reads the whole history.
  const history = name.endsWith('-severities') ? statuses.join(',') : String(statuses.at(-2));
  return [name, c.status, c.state, c.occurrences, c.occurrences_watermark, c.interval, c.is_silenced, history].join('\u0000');
}

const checkOf = (event: Json) => String(event.check?.metadata?.name ?? '');

/** The verdict known without waiting: computed in plain code, or kept from an earlier event's sandbox run. */
function verdictNow(plan: RehearsalPlan, name: string, filter: Json, event: Json, cache: VerdictCache): Verdict | undefined {
  const native = nativeVerdict(filter, event);
  if (native) return native;
  const key = verdictKey(plan, name, event);
  return key === null ? undefined : cache.get(checkOf(event))?.get(key)?.value;
}

async function verdictOf(plan: RehearsalPlan, name: string, filter: Json, event: Json, nowMs: number, allowance: SandboxAllowance, cache: VerdictCache) {
  const key = verdictKey(plan, name, event);
  const check = checkOf(event);
  let own = cache.get(check);
  // The promise is kept: the events of a burst wait for the one evaluation under way instead of each starting one.
  let kept = key === null ? undefined : own?.get(key);
  if (!kept) {
    const entry: Kept = { promise: filterAllows(filter, event, nowMs, undefined, { namespace: SHARE, allowance }) };
    kept = entry;
    if (key !== null) {
      if (!own) cache.set(check, (own = new Map()));
      if (own.size >= MAX_VERDICTS_PER_CHECK) own.clear();
      own.set(key, entry);
      void entry.promise.then((outcome) => {
        if (!outcome.failed) entry.value = outcome;
      });
    }
  }
  const outcome = await kept.promise;
  // An expression that did not evaluate (a busy sandbox: queue full, budget spent) decides nothing about Sensu Go: the
  // event is not rehearsed rather than reported as a divergence, and the next one tries again.
  if (outcome.failed) {
    if (key !== null && own?.get(key) === kept) own.delete(key);
    throw new Unrehearsed(`filter ${name} could not be evaluated now (${outcome.error ?? 'the sandbox is busy'})`);
  }
  return outcome;
}

// The rehearsal's expressions take their sandbox time under a name no namespace can have: never the namespaces' own share.
const SHARE = '\u0000rehearsal';

/** A filter whose verdict is not known yet: the sandbox must run it before the decision can go on. */
interface Pending {
  readonly name: string;
  readonly filter: Json;
}

/**
 * The decision with the verdicts `verdict` knows: the outcomes, or the first filter it needs whose verdict is not
 * known (filters after one that stops a handler are never read, as in Sensu Go's pipelines).
 */
function decide(plan: RehearsalPlan, event: Json, verdict: (name: string, filter: Json) => Verdict | undefined): HandlerOutcome[] | Pending {
  const { steps, missing } = stepsOf(plan, event);
  const outcomes: HandlerOutcome[] = [...missing];
  const subdued = Array.isArray(event.check?.subdues) && inSubdues(event.check.subdues as Json[], Number(event.timestamp));
  for (const step of steps) {
    const handler = plan.resources.get(`Handler/${step.handler}`);
    if (!handler) {
      outcomes.push({ handler: step.handler, handled: false, by: 'handler', detail: `handler ${step.handler} not found` });
      continue;
    }
    if (subdued) {
      outcomes.push({ handler: step.handler, handled: false, by: 'subdues', detail: 'not handled: the check is subdued now' });
      continue;
    }
    let stopped: HandlerOutcome | null = null;
    for (const name of [...step.filters, ...((handler.filters ?? []) as string[])]) {
      const builtin = V2_BUILT_IN_FILTERS.get(name);
      const filter = builtin ? null : plan.resources.get(`EventFilter/${name}`);
      if (!builtin && !filter) {
        stopped = { handler: step.handler, handled: false, by: name, detail: `filter ${name} not found` };
        break;
      }
      const known = builtin ? { allowed: builtin(event) } : verdict(name, filter!);
      if (!known) return { name, filter: filter! };
      if (!known.allowed) {
        stopped = {
          handler: step.handler,
          handled: false,
          by: name,
          detail: `filtered by ${name}${known.error ? ` (${known.error})` : ''}`,
        };
        break;
      }
    }
    if (stopped) {
      outcomes.push(stopped);
      continue;
    }
    const mutator = step.mutator;
    if (mutator && mutator !== 'json' && mutator !== 'only_check_output' && !plan.resources.has(`Mutator/${mutator}`))
      outcomes.push({ handler: step.handler, handled: false, by: 'mutator', detail: `fails: mutator ${mutator} not found` });
    else outcomes.push({ handler: step.handler, handled: true, detail: mutator ? `handled (mutator ${mutator})` : 'handled (event as JSON)' });
  }
  return outcomes;
}

/**
 * What Sensu Go would do with `event`, when every filter it reads has a verdict known now (compile's own filters in
 * plain code, or kept from an event with the same fields): null when the sandbox must run first.
 */
export function v2DecisionNow(plan: RehearsalPlan, event: Json, cache: VerdictCache): HandlerOutcome[] | null {
  const decided = decide(plan, event, (name, filter) => verdictNow(plan, name, filter, event, cache));
  return Array.isArray(decided) ? decided : null;
}

/**
 * What Sensu Go would do with `event` under the compiled resources: per handler, called or the filter that stopped it.
 * Filters run in the sandbox with the event's allowance, as the v2 pipelines run them; nothing is executed.
 */
export async function v2Decision(plan: RehearsalPlan, event: Json, nowMs: number, cache: VerdictCache = new Map()): Promise<HandlerOutcome[]> {
  const allowance = new SandboxAllowance(EVENT_ALLOWANCE_MS, 'event');
  // The verdicts the sandbox gave for this event: the decision is taken again with each, until none is missing.
  const given = new Map<string, Verdict>();
  for (;;) {
    const decided = decide(plan, event, (name, filter) => given.get(name) ?? verdictNow(plan, name, filter, event, cache));
    if (Array.isArray(decided)) return decided;
    given.set(decided.name, await verdictOf(plan, decided.name, decided.filter, event, nowMs, allowance, cache));
  }
}
