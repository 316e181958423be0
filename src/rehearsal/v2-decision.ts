import { filterAllows } from '../v2/index.js';
import { SandboxAllowance, EVENT_ALLOWANCE_MS } from '../js-sandbox/index.js';
import { V2_BUILT_IN_FILTERS } from '../handling/index.js';
import type { Json } from '../json.js';
import type { RehearsalPlan } from './plan.js';
import { inSubdues } from './subdues.js';

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

/** The workflows the event's pipelines hold, else its check's handlers as handlers of their own (as Sensu Go's pipelined). */
function stepsOf(plan: RehearsalPlan, event: Json): { steps: Step[]; missing: HandlerOutcome[] } {
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
  if (steps.length === 0 && missing.length === 0)
    for (const name of (event.check?.handlers ?? []) as string[]) steps.push({ handler: name, filters: [], mutator: null });
  return { steps, missing };
}

// The filters compile writes itself read only these fields of the event (their check's annotations are the same for
// every event of a check): their verdict is kept per check and these values, so the sandbox runs once per combination.
const OWN_FILTERS = /^(checkbridge-handled|not-flapping|occurrences|.+-severities)$/;
const MAX_VERDICTS_PER_CHECK = 256;

/** An event the rehearsal could not evaluate (the sandbox was busy): counted as skipped, never as a divergence. */
export class Unrehearsed extends Error {}

/** Verdicts of compile's own filters, per check: made per configuration. */
export type VerdictCache = Map<string, Map<string, Promise<{ allowed: boolean; error?: string; failed?: true }>>>;

function verdictKey(plan: RehearsalPlan, name: string, event: Json): string | null {
  if (!OWN_FILTERS.test(name) || Object.hasOwn(plan.settings.filters, name)) return null;
  const c = event.check ?? {};
  const statuses = ((c.history ?? []) as Json[]).map((h) => h.status);
  // The previous status makes is_resolution; the severities filter reads the whole history.
  const history = name.endsWith('-severities') ? statuses.join(',') : String(statuses.at(-2));
  return [name, c.status, c.state, c.occurrences, c.occurrences_watermark, c.interval, c.is_silenced, history].join('\u0000');
}

async function verdictOf(plan: RehearsalPlan, name: string, filter: Json, event: Json, nowMs: number, allowance: SandboxAllowance, cache: VerdictCache) {
  const key = verdictKey(plan, name, event);
  const check = String(event.check?.metadata?.name ?? '');
  let own = cache.get(check);
  // The promise is kept: the events of a burst wait for the one evaluation under way instead of each starting one.
  let verdict = key === null ? undefined : own?.get(key);
  if (!verdict) {
    verdict = filterAllows(filter, event, nowMs, undefined, { namespace: SHARE, allowance });
    if (key !== null) {
      if (!own) cache.set(check, (own = new Map()));
      if (own.size >= MAX_VERDICTS_PER_CHECK) own.clear();
      own.set(key, verdict);
    }
  }
  const outcome = await verdict;
  // An expression that did not evaluate (a busy sandbox: queue full, budget spent) decides nothing about Sensu Go: the
  // event is not rehearsed rather than reported as a divergence, and the next one tries again.
  if (outcome.failed) {
    if (key !== null && own?.get(key) === verdict) own.delete(key);
    throw new Unrehearsed(`filter ${name} could not be evaluated now (${outcome.error ?? 'the sandbox is busy'})`);
  }
  return outcome;
}

// The rehearsal's expressions take their sandbox time under a name no namespace can have: never the namespaces' own share.
const SHARE = '\u0000rehearsal';

/**
 * What Sensu Go would do with `event` under the compiled resources: per handler, called or the filter that stopped it.
 * Filters run in the sandbox with the event's allowance, as the v2 pipelines run them; nothing is executed.
 */
export async function v2Decision(plan: RehearsalPlan, event: Json, nowMs: number, cache: VerdictCache = new Map()): Promise<HandlerOutcome[]> {
  const { steps, missing } = stepsOf(plan, event);
  const outcomes: HandlerOutcome[] = [...missing];
  const subdued = Array.isArray(event.check?.subdues) && inSubdues(event.check.subdues as Json[], Number(event.timestamp));
  const allowance = new SandboxAllowance(EVENT_ALLOWANCE_MS, 'event');
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
      const verdict = builtin ? { allowed: builtin(event) } : await verdictOf(plan, name, filter!, event, nowMs, allowance, cache);
      if (!verdict.allowed) {
        stopped = {
          handler: step.handler,
          handled: false,
          by: name,
          detail: `filtered by ${name}${'error' in verdict && verdict.error ? ` (${verdict.error})` : ''}`,
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
