// The sandbox thread: QuickJS (WebAssembly) evaluates one expression per request in a fresh context that sees only
// the JSON it is given. Requests and replies travel over a MessagePort; a SharedArrayBuffer wakes each side, so the
// daemon is told of each request at once and can terminate this thread when an evaluation never returns.
import { parentPort, workerData, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { newQuickJSWASMModule, RELEASE_SYNC, type QuickJSContext, type QuickJSHandle, type QuickJSRuntime, type QuickJSWASMModule } from 'quickjs-emscripten';
import { preludeFor } from './prelude.js';
import { cpuClock, currentTaskId } from './thread-cpu.js';
import { REQUEST, REPLY, READY, READ, RETIRED, STARTED, START_CPU, TASK, type Limits, type Reply, type Request } from './protocol.js';

const { control: shared, port, limits } = workerData as { control: SharedArrayBuffer; port: MessagePort; limits: Limits };
const control = new Int32Array(shared);

// Close to ES5 as Sensu Go's Otto engine has it: no Proxy, Map/Set or typed arrays. QuickJS needs its Promise
// intrinsic to stay sound (async functions and import() leak without it); the prelude hides the global, and the
// jobs promises queue never run: the runtime that holds them is dropped.
const INTRINSICS = { BaseObjects: true, Date: true, Eval: true, RegExp: true, JSON: true, StringNormalize: true, Promise: true } as const;

interface Fresh {
  readonly context: QuickJSContext;
  readonly truthy: QuickJSHandle;
}

let runtime: QuickJSRuntime;
let fresh: Fresh | null = null;
let evaluating = false;
let stopped = false;
// Set while reading what an expression threw: a getter there runs no further than the next interrupt check.
let halting = false;
let started = 0;
let cpuAtStart = 0;
// This thread's CPU when the request's evaluation began, and when its input was read (null: still reading).
let cpuAtRequest = 0;
let cpuAtExpression: number | null = null;
// While the input is read, only the read cap applies: its size is bounded, and its cost is not the expression's.
let reading = false;
const taskId = currentTaskId();
const cpuMs = cpuClock(taskId);

// Called by QuickJS every few thousand operations: past the budget in this thread's CPU (a starved machine is not
// the expression's fault), or past the wall-clock cap in any case, the evaluation stops with an uncatchable error.
function interrupt(): boolean {
  if (!evaluating) return false;
  if (stopped || halting) return true;
  const wall = performance.now() - started;
  if (reading) return (stopped = wall >= limits.readCapMs);
  if (wall < limits.budgetMs) return false;
  if (wall >= limits.hardCapMs || cpuMs() - cpuAtStart >= limits.budgetMs) stopped = true;
  return stopped;
}

function newRuntime(module: QuickJSWASMModule): QuickJSRuntime {
  const made = module.newRuntime();
  made.setMemoryLimit(limits.memoryBytes);
  made.setMaxStackSize(limits.stackBytes);
  made.setInterruptHandler(interrupt);
  return made;
}

// A context made while the daemon is busy elsewhere: the next request only fills it.
function prepare(): Fresh {
  const context = runtime.newContext({ intrinsics: INTRINSICS });
  return { context, truthy: context.getProp(context.global, 'Boolean') };
}

function release(made: Fresh): void {
  made.truthy.dispose();
  made.context.dispose();
}

/** A string property of a thrown value, read without trusting it. */
function stringProp(context: QuickJSContext, value: QuickJSHandle, name: string): string | null {
  if (context.typeof(value) !== 'object') return null;
  const prop = context.getProp(value, name);
  try {
    return context.typeof(prop) === 'string' ? context.getString(prop) : null;
  } finally {
    prop.dispose();
  }
}

function describe(context: QuickJSContext, thrown: QuickJSHandle): { kind: 'timeout' | 'memory' | 'error' | 'input'; message: string } {
  if (reading) return { kind: 'input', message: stopped ? `its input took more than ${limits.readCapMs} ms to read` : 'its input could not be read' };
  if (stopped) return { kind: 'timeout', message: `exceeded its CPU budget of ${limits.budgetMs} ms` };
  if (context.typeof(thrown) === 'string') return { kind: 'error', message: context.getString(thrown).slice(0, 500) };
  halting = true;
  const name = stringProp(context, thrown, 'name') ?? 'Error';
  const message = stringProp(context, thrown, 'message') ?? '';
  halting = false;
  if (name === 'InternalError' && message === 'out of memory')
    return { kind: 'memory', message: `exceeded its memory limit of ${limits.memoryBytes >> 20} MB` };
  return { kind: 'error', message: `${name}: ${message}`.slice(0, 500) };
}

function evaluate(request: Request): Reply {
  const made = fresh ?? prepare();
  fresh = null;
  const { context } = made;
  const handles: QuickJSHandle[] = [];
  const keep = (h: QuickJSHandle) => (handles.push(h), h);
  stopped = false;
  halting = false;
  started = performance.now();
  cpuAtStart = cpuMs();
  cpuAtRequest = cpuAtStart;
  cpuAtExpression = null;
  reading = true;
  // The daemon's thread reads these when it waits long: its own count of this evaluation's CPU.
  Atomics.store(control, START_CPU, Math.round(cpuAtStart));
  Atomics.store(control, STARTED, request.seq);
  evaluating = true;
  try {
    const compiled = context.evalCode(preludeFor(request.expression), 'prelude.js');
    if (compiled.error) return { seq: request.seq, error: describe(context, keep(compiled.error)) };
    const prelude = keep(compiled.value);
    const input = keep(context.newString(request.input));
    const set = context.callFunction(prelude, context.undefined, context.global, input);
    if (set.error) return { seq: request.seq, error: describe(context, keep(set.error)) };
    const report = keep(set.value);
    // The budget is the expression's: reading the event (linear, its size bounded by the daemon) is not counted.
    reading = false;
    started = performance.now();
    cpuAtStart = cpuAtExpression = cpuMs();
    Atomics.store(control, START_CPU, Math.round(cpuAtStart));
    Atomics.store(control, READ, request.seq);
    const result = context.evalCode(request.expression, 'expression.js');
    const needsResult = context.callFunction(report, context.undefined);
    const needs = needsResult.error ? (keep(needsResult.error), '') : context.getString(keep(needsResult.value));
    if (result.error) return { seq: request.seq, needs, error: describe(context, keep(result.error)) };
    const truth = context.callFunction(made.truthy, context.undefined, keep(result.value));
    if (truth.error) return { seq: request.seq, needs, error: describe(context, keep(truth.error)) };
    return { seq: request.seq, needs, matched: context.dump(keep(truth.value)) === true };
  } finally {
    evaluating = false;
    for (const h of handles.reverse()) h.dispose();
    release(made);
  }
}

function serve(request: Request): Reply {
  try {
    return evaluate(request);
  } catch (error) {
    // A failure of the engine itself, not of the expression: this thread may be unsound, the daemon replaces it.
    return { seq: request.seq, retire: true, error: { kind: 'error', message: `sandbox failure: ${(error as Error).message}` } };
  }
}

// After the reply, off the daemon's wait: a stop, an exhausted heap or a queued job gets a new runtime (its jobs
// never run), and the next context is made ready.
function recycle(module: QuickJSWASMModule, reply: Reply): void {
  if (reply.error?.kind === 'timeout' || reply.error?.kind === 'memory' || reply.error?.kind === 'input' || runtime.hasPendingJob()) {
    runtime.dispose();
    runtime = newRuntime(module);
  }
  fresh = prepare();
}

function nextRequest(seq: number): Request | null {
  for (;;) {
    const received = receiveMessageOnPort(port);
    if (!received) return null;
    const request = received.message as Request;
    if (request.seq === seq) return request;
  }
}

// A few evaluations before the thread says it is ready: the first ones pay for warming the engine up.
function warmUp(module: QuickJSWASMModule): void {
  const input = JSON.stringify({
    now: Date.now(),
    self: 'warm',
    deps: {},
    scope: { event: { timestamp: 0, check: { status: 2, history: [{ status: 0 }] }, entity: { name: 'warm', labels: { a: 'b' } } } },
  });
  for (let seq = -3; seq < 0; seq++)
    recycle(module, serve({ seq, expression: 'event.check.status == 2 && /b/.test(event.entity.labels.a) && hour(event.timestamp) == 0', input }));
}

async function main(): Promise<void> {
  const module = await newQuickJSWASMModule(RELEASE_SYNC);
  runtime = newRuntime(module);
  fresh = prepare();
  warmUp(module);
  // Read before saying ready: a request may follow at once, and must not be taken for one already seen.
  let seen = Atomics.load(control, REQUEST);
  Atomics.store(control, TASK, taskId ?? 0);
  Atomics.store(control, READY, 1);
  parentPort!.postMessage({ ready: true });
  for (;;) {
    Atomics.wait(control, REQUEST, seen);
    seen = Atomics.load(control, REQUEST);
    const request = nextRequest(seen);
    if (!request) continue;
    const served = serve(request);
    const now = cpuMs();
    const reply: Reply = {
      ...served,
      ms: cpuAtExpression === null ? 0 : Math.max(0, now - cpuAtExpression),
      readMs: Math.max(0, (cpuAtExpression ?? now) - cpuAtRequest),
    };
    port.postMessage(reply);
    Atomics.store(control, REPLY, request.seq);
    Atomics.notify(control, REPLY);
    if (reply.retire) return;
    try {
      recycle(module, reply);
    } catch {
      // The engine failed outside any evaluation: the daemon sees this thread unusable and takes another.
      Atomics.store(control, READY, RETIRED);
      return;
    }
  }
}

main().catch((error: Error) => parentPort!.postMessage({ failed: error.message }));
