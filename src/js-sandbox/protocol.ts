// What the daemon and its sandbox thread exchange: plain data only.

/**
 * Int32 slots of the shared control buffer: the last request's number, the last reply's number, the thread's state
 * (0 loading, 1 ready, RETIRED), its kernel task id (0: unknown), and the request whose evaluation started last with
 * the thread's CPU time (ms) then: the daemon compares the thread's CPU time with it.
 */
export const REQUEST = 0;
export const REPLY = 1;
export const READY = 2;
export const TASK = 3;
export const STARTED = 4;
export const START_CPU = 5;
export const SLOTS = 6;
export const RETIRED = 2;

export interface Limits {
  /** CPU per evaluation before QuickJS's interrupt handler stops it. */
  readonly budgetMs: number;
  /** Wall clock per evaluation, whatever the CPU: a starved machine still ends it. */
  readonly hardCapMs: number;
  /** The QuickJS runtime's heap. */
  readonly memoryBytes: number;
  /** The QuickJS stack, well inside the thread's own so that deep recursion is QuickJS's error, not the thread's. */
  readonly stackBytes: number;
}

export interface Request {
  readonly seq: number;
  readonly expression: string;
  /** JSON `{scope, now, self, deps}` (src/js-sandbox/prelude.ts). */
  readonly input: string;
}

export interface Reply {
  readonly seq: number;
  readonly matched?: boolean;
  readonly error?: { readonly kind: 'timeout' | 'memory' | 'error'; readonly message: string };
  /** Dependency keys the expression asked for that the request did not carry. */
  readonly needs?: string;
  /** The thread's CPU ms for the request (in 10 ms ticks: right on average): what the budgets are charged. */
  readonly ms?: number;
  /** The engine itself failed: the daemon stops this thread and uses another. */
  readonly retire?: boolean;
}
