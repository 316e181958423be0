// Filter expressions (v2 EventFilters, asset build filters) evaluated in a QuickJS sandbox on its own thread: the
// expression sees only the JSON it is given, stops at a CPU budget and a memory limit, and the daemon's thread waits
// for it at most a few tens of ms. An expression that ran out of budget is quarantined: it does not run again for a
// while, so one slow filter never delays events repeatedly. Each failing expression text is reported once.
import type { Logger } from 'pino';
import type { SandboxThread } from './sandbox-thread.js';
import type { Limits } from './protocol.js';
import type { Json } from '../json.js';

const LIMITS: Limits = { budgetMs: 25, hardCapMs: 500, memoryBytes: 32 << 20, stackBytes: 128 << 10 };
const QUARANTINE_MS = 5 * 60_000;
// CheckDependencies: runs of one evaluation (each may ask for more events), and events it may read.
const MAX_RUNS = 4;
const MAX_LOOKUPS = 64;
// Bounds on the bookkeeping by expression text.
const MAX_REMEMBERED = 10_000;

/** The latest event of a check on an entity in the evaluating event's namespace, or null. */
export type DependencyLookup = (entity: string, check: string) => Json | null;

export interface EvaluationOptions {
  readonly nowMs: number;
  /** The entity `sensu.CheckDependencies("check")` means: the event's own. */
  readonly entity?: string;
  readonly dependencies?: DependencyLookup;
}

/** The verdict: matched or not, or a failure that evaluates as not matching; `report` only the first time for its text. */
export type Outcome = { readonly ok: true; readonly matched: boolean } | { readonly ok: false; readonly error: string; readonly report: boolean };

let logger: Logger | null = null;
// The thread machinery is imported when the sandbox loads: commands that never evaluate (validate, compile) skip it.
let Thread: typeof SandboxThread | null = null;
let active: SandboxThread | null = null;
let spare: SandboxThread | null = null;
let spareFailedAt = -Infinity;
let loading: Promise<void> | null = null;
let loaded = false;
const quarantined = new Map<string, number>();
const reported = new Set<string>();

// One spare at a time; after one failed to start, the next waits a second, so that failing is not a storm of threads.
function startSpare(): void {
  if (spare || performance.now() - spareFailedAt < 1000) return;
  const thread = new Thread!(LIMITS);
  spare = thread;
  thread.ready.catch((error: Error) => {
    if (spare === thread) spare = null;
    spareFailedAt = performance.now();
    logger?.error({ error: error.message }, 'expression sandbox: a spare thread did not start');
  });
}

/**
 * Loads QuickJS on the sandbox thread (and a spare beside it): once, before the first evaluation. Only the daemon
 * calls it, so `validate`, `compile` and the other commands never load WebAssembly. It never rejects: when QuickJS
 * cannot load, the failure is logged and every expression evaluates as not matching (the next one tries again).
 */
export function loadExpressionSandbox(log?: Logger): Promise<void> {
  if (log) logger = log;
  if (!loading) {
    loading = (async () => {
      Thread ??= (await import('./sandbox-thread.js')).SandboxThread;
      const thread = new Thread(LIMITS);
      await thread.ready;
      active = thread;
      startSpare();
      loaded = true;
    })().catch((error: Error) => {
      loading = null;
      logger?.error({ error: error.message }, 'expression sandbox did not start: filter expressions evaluate as not matching');
    });
  }
  return loading;
}

/** Logs one line about an expression through the daemon's logger (set by loadExpressionSandbox). */
export function logExpressionFailure(fields: Record<string, unknown>, message: string): void {
  logger?.error(fields, message);
}

// The thread to use: the active one, else the spare once it has loaded; a new spare always loads behind it.
function currentThread(): SandboxThread | null {
  if (active && !active.usable) retire(active, 'the sandbox thread failed');
  // A spare still loading after its predecessor was retired: wait for it as long as a starved evaluation may last.
  if (!active && loaded && spare) spare.awaitReady(LIMITS.hardCapMs);
  if (!active && spare?.usable) {
    active = spare;
    spare = null;
  }
  if (loaded) startSpare();
  return active;
}

function retire(thread: SandboxThread, why: string): void {
  thread.stop();
  if (active === thread) active = null;
  logger?.warn({ reason: why }, 'expression sandbox: thread stopped and replaced');
}

function remember(set: { size: number; clear(): void }, add: () => void): void {
  if (set.size >= MAX_REMEMBERED) set.clear();
  add();
}

function fail(expression: string, error: string): Outcome {
  const report = !reported.has(expression);
  if (report) remember(reported, () => reported.add(expression));
  return { ok: false, error, report };
}

// Real time, whatever `now` the evaluation is given.
function quarantine(expression: string): void {
  remember(quarantined, () => quarantined.set(expression, Date.now() + QUARANTINE_MS));
}

// Each dependency key the sandbox asked for, read from the store: 0 passing, another status failing, null no event.
function readDependencies(needs: string, deps: Record<string, number | null>, lookup: DependencyLookup | undefined): boolean {
  let added = false;
  for (const key of needs.split('\u001e')) {
    if (key === '' || Object.hasOwn(deps, key) || Object.keys(deps).length >= MAX_LOOKUPS) continue;
    const [entity = '', check = ''] = key.split('\u001f');
    const event = lookup ? lookup(entity, check) : null;
    const status = event?.check?.status;
    deps[key] = event ? (typeof status === 'number' ? status : 0) : null;
    added = true;
  }
  return added;
}

/** Evaluates one expression with `scope` (plain data) as its globals; never throws. */
export function evaluateInSandbox(expression: string, scope: Json, options: EvaluationOptions): Outcome {
  const until = quarantined.get(expression);
  if (until !== undefined) {
    if (Date.now() < until) return { ok: false, error: 'quarantined after exceeding its budget', report: false };
    quarantined.delete(expression);
  }
  const thread = currentThread();
  if (!thread) {
    void loadExpressionSandbox();
    return { ok: false, error: 'the expression sandbox is not running yet', report: false };
  }
  let scopeJson: string;
  try {
    scopeJson = JSON.stringify(scope);
  } catch (error) {
    return fail(expression, `the scope is not JSON: ${(error as Error).message}`);
  }
  const deps: Record<string, number | null> = {};
  for (let run = 0; run < MAX_RUNS; run++) {
    const input = `{"now":${JSON.stringify(options.nowMs)},"self":${JSON.stringify(options.entity ?? '')},"deps":${JSON.stringify(deps)},"scope":${scopeJson}}`;
    const reply = thread.call(expression, input);
    if (reply === null) {
      retire(thread, 'an expression did not stop at its budget');
      quarantine(expression);
      return fail(expression, `exceeded its CPU budget of ${LIMITS.budgetMs} ms (stopped)`);
    }
    if (reply.retire) {
      retire(thread, reply.error?.message ?? 'sandbox failure');
      quarantine(expression);
      return fail(expression, reply.error?.message ?? 'sandbox failure');
    }
    if (reply.needs && readDependencies(reply.needs, deps, options.dependencies)) continue;
    if (reply.error) {
      if (reply.error.kind !== 'error') quarantine(expression);
      return fail(expression, reply.error.message);
    }
    return { ok: true, matched: reply.matched === true };
  }
  return fail(expression, 'sensu.CheckDependencies: too many dependency lookups');
}
