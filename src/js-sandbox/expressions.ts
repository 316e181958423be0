// Filter expressions (v2 EventFilters, asset build filters, proxy entity_attributes) evaluated in a QuickJS sandbox
// on its own thread: the expression sees only the JSON it is given, stops at a CPU budget and a memory limit, and the
// daemon's thread never waits for it (a Promise; a timer ends an evaluation past its deadline). Turns on the thread
// go by namespace in rotation, each namespace earning sandbox time at a fixed rate; one event's or one check
// request's expressions share an allowance. An expression that ran out of budget, or used most of it again and
// again, is quarantined in its namespace: it does not run there again for a while. Each failing expression text is
// reported once per namespace. Reading the input is charged to the namespace and the allowance, never to the
// expression's budget; inputs past MAX_SCOPE_BYTES are not evaluated.
import type { Logger } from 'pino';
import type { SandboxThread } from './sandbox-thread.js';
import type { Limits } from './protocol.js';
import { FairQueue } from './fair-queue.js';
import type { Json } from '../json.js';

const LIMITS: Limits = { budgetMs: 25, hardCapMs: 500, readCapMs: 2000, memoryBytes: 32 << 20, stackBytes: 128 << 10 };
/**
 * The largest input (the event or entity as JSON, in bytes) an expression is evaluated with: the largest event the
 * agent door and the legacy API take by default (1 MiB), and 64 KiB for what the daemon adds (history, metadata).
 */
export const MAX_SCOPE_BYTES = (1 << 20) + (64 << 10);
const QUARANTINE_MS = 5 * 60_000;
// An expression that takes more than half its budget (the thread's CPU: a busy machine is not its fault) this many
// times is quarantined as one that exceeded it.
const HEAVY_MS = LIMITS.budgetMs / 2;
const HEAVY_RUNS = 3;
// Each namespace: half of the thread at most, a second of it saved up, and a bounded queue.
const NAMESPACE_SHARE = { rateMs: 500, burstMs: 1000, maxQueued: 1000 };
/** Sandbox ms one event's filters may spend together, and one check request's proxy entity_attributes. */
export const EVENT_ALLOWANCE_MS = 100;
export const DISPATCH_ALLOWANCE_MS = 500;
// CheckDependencies: runs of one evaluation (each may ask for more events), and events it may read.
const MAX_RUNS = 4;
const MAX_LOOKUPS = 64;
// Bounds on the bookkeeping by namespace and expression text.
const MAX_REMEMBERED = 10_000;

/** The latest event of a check on an entity in the evaluating event's namespace, or null. */
export type DependencyLookup = (entity: string, check: string) => Json | null;

/** Sandbox time one event's or one check request's expressions share; past it the rest do not match. */
export class SandboxAllowance {
  constructor(
    public remainingMs: number,
    /** What spends it, for the message: "event", "check request". */
    readonly of: string,
  ) {}
}

export interface EvaluationOptions {
  readonly nowMs: number;
  /** The entity `sensu.CheckDependencies("check")` means: the event's own. */
  readonly entity?: string;
  readonly dependencies?: DependencyLookup;
  /** Whose expression: its turn and its time come from that namespace's share (the daemon's own: ''). */
  readonly namespace?: string;
  readonly allowance?: SandboxAllowance;
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
const heavy = new Map<string, number>();
const reported = new Set<string>();
const queue = new FairQueue(NAMESPACE_SHARE, (namespace) => {
  if (reported.has(`\u0000share\u0000${namespace}`)) return;
  remember(reported, () => reported.add(`\u0000share\u0000${namespace}`));
  logger?.warn(
    { namespace, rateMs: NAMESPACE_SHARE.rateMs },
    "expression sandbox: this namespace's expressions used its share of sandbox time: they wait for their turn",
  );
});

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

/** Where the sandbox logs; the daemon sets it at start, and the threads load on the first evaluation. */
export function useSandboxLogger(log: Logger): void {
  logger = log;
}

/**
 * Loads QuickJS on the sandbox thread (and a spare beside it): once, at the first evaluation, so a daemon without
 * filter expressions never starts the threads and `validate`, `compile` and the other commands never load
 * WebAssembly. It never rejects: when QuickJS cannot load, the failure is logged and every expression evaluates as
 * not matching (the next one tries again).
 */
export function loadExpressionSandbox(log?: Logger): Promise<void> {
  if (log) logger = log;
  if (!loading) {
    loading = (async () => {
      const started = performance.now();
      Thread ??= (await import('./sandbox-thread.js')).SandboxThread;
      const thread = new Thread(LIMITS);
      await thread.ready;
      active = thread;
      startSpare();
      loaded = true;
      logger?.debug({ ms: Math.round(performance.now() - started) }, 'expression sandbox loaded for the first evaluation');
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
async function currentThread(): Promise<SandboxThread | null> {
  if (active && !active.usable) retire(active, 'the sandbox thread failed');
  // A spare still loading after its predecessor was retired: wait for it as long as a starved evaluation may last.
  if (!active && loaded && spare) await spare.awaitReady(LIMITS.hardCapMs);
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

// `key` is the expression text, or the text and the kind of refusal: each is reported once.
function fail(key: string, error: string): Outcome {
  const report = !reported.has(key);
  if (report) remember(reported, () => reported.add(key));
  return { ok: false, error, report };
}

// `key` is the namespace and the expression text: another namespace's same text is not this one's doing.
const keyOf = (namespace: string, expression: string) => `${namespace}\u0000${expression}`;

// Real time, whatever `now` the evaluation is given.
function quarantine(key: string): void {
  heavy.delete(key);
  remember(quarantined, () => quarantined.set(key, Date.now() + QUARANTINE_MS));
}

// A run that took most of the budget: the third such run quarantines the expression in its namespace (logged once).
function noteHeavy(expression: string, ms: number, namespace: string): void {
  const key = keyOf(namespace, expression);
  if (ms <= HEAVY_MS || quarantined.has(key)) return;
  const runs = (heavy.get(key) ?? 0) + 1;
  if (runs < HEAVY_RUNS) return void remember(heavy, () => heavy.set(key, runs));
  quarantine(key);
  logger?.warn(
    { namespace, expression: expression.slice(0, 500), runs, ms: Math.round(ms) },
    `expression sandbox: an expression used more than half its CPU budget ${HEAVY_RUNS} times: skipped for 5 minutes`,
  );
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

/**
 * Evaluates one expression with `scope` (plain data) as its globals, in its namespace's turn; never rejects. A full
 * namespace queue, a spent allowance, an input past MAX_SCOPE_BYTES or a quarantine evaluate as not matching, as
 * an expression that failed does: an allow filter drops the event, a deny filter lets it through. Only the namespace
 * that overloads its own share meets these; each is logged once per text and namespace.
 */
export async function evaluateInSandbox(expression: string, scope: Json, options: EvaluationOptions): Promise<Outcome> {
  const namespace = options.namespace ?? '';
  const key = keyOf(namespace, expression);
  const until = quarantined.get(key);
  if (until !== undefined) {
    if (Date.now() < until) return { ok: false, error: 'quarantined after exceeding its budget', report: false };
    quarantined.delete(key);
  }
  if (spent(options.allowance)) return refuseSpent(key, options.allowance!);
  if ((await queue.acquire(namespace)) === 'refused')
    return fail(
      `\u0000queue\u0000${namespace}`,
      `namespace ${JSON.stringify(namespace)} has ${NAMESPACE_SHARE.maxQueued} expressions waiting: this one is not evaluated`,
    );
  let used = 0;
  let own = 0;
  try {
    // Spent while this one waited for its turn.
    if (spent(options.allowance)) return refuseSpent(key, options.allowance!);
    return await evaluateTurn(expression, key, scope, options, (ms, readMs) => {
      own += ms;
      used += ms + readMs;
      if (options.allowance) options.allowance.remainingMs -= ms + readMs;
    });
  } finally {
    queue.release(namespace, used);
    if (own > 0) noteHeavy(expression, own, namespace);
  }
}

const spent = (allowance: SandboxAllowance | undefined) => allowance !== undefined && allowance.remainingMs <= 0;

function refuseSpent(key: string, allowance: SandboxAllowance): Outcome {
  return fail(`\u0000spent\u0000${key}`, `not evaluated: this ${allowance.of} spent its sandbox time`);
}

// The evaluation proper, holding the thread: the CheckDependencies runs, each charged through `charge` (the
// expression's own ms, and the ms reading its input took).
async function evaluateTurn(
  expression: string,
  key: string,
  scope: Json,
  options: EvaluationOptions,
  charge: (ms: number, readMs: number) => void,
): Promise<Outcome> {
  // Made in its turn, not while waiting: what waits holds the event it shares with the others, not a copy.
  let scopeJson: string;
  try {
    scopeJson = JSON.stringify(scope);
  } catch (error) {
    return fail(key, `the scope is not JSON: ${(error as Error).message}`);
  }
  const bytes = Buffer.byteLength(scopeJson);
  if (bytes > MAX_SCOPE_BYTES)
    return fail(`\u0000size\u0000${key}`, `not evaluated: its input is ${bytes} bytes, more than the ${MAX_SCOPE_BYTES} the sandbox reads`);
  // The first evaluation waits for the sandbox to load, in its turn, as later ones wait for a busy thread.
  if (!loaded) await loadExpressionSandbox();
  const thread = await currentThread();
  if (!thread) {
    void loadExpressionSandbox();
    return { ok: false, error: 'the expression sandbox is not running yet', report: false };
  }
  const deps: Record<string, number | null> = {};
  for (let run = 0; run < MAX_RUNS; run++) {
    const input = `{"now":${JSON.stringify(options.nowMs)},"self":${JSON.stringify(options.entity ?? '')},"deps":${JSON.stringify(deps)},"scope":${scopeJson}}`;
    const began = performance.now();
    const reply = await thread.call(expression, input);
    if (reply === null) {
      const running = thread.expressionStarted();
      charge(running ? performance.now() - began : 0, running ? 0 : performance.now() - began);
      retire(thread, running ? 'an expression did not stop at its budget' : 'reading an input did not stop at its cap');
      if (!running) return fail(`\u0000input\u0000${key}`, `not evaluated: its input took more than ${LIMITS.readCapMs} ms to read`);
      quarantine(key);
      return fail(key, `exceeded its CPU budget of ${LIMITS.budgetMs} ms (stopped)`);
    }
    charge(reply.ms ?? 0, reply.readMs ?? 0);
    if (reply.retire) {
      retire(thread, reply.error?.message ?? 'sandbox failure');
      quarantine(key);
      return fail(key, reply.error?.message ?? 'sandbox failure');
    }
    if (reply.needs && readDependencies(reply.needs, deps, options.dependencies)) continue;
    if (reply.error) {
      if (reply.error.kind === 'input') return fail(`\u0000input\u0000${key}`, `not evaluated: ${reply.error.message}`);
      if (reply.error.kind !== 'error') quarantine(key);
      return fail(key, reply.error.message);
    }
    return { ok: true, matched: reply.matched === true };
  }
  return fail(key, 'sensu.CheckDependencies: too many dependency lookups');
}
