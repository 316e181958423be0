// What the daemon and its sandbox thread exchange: plain data only.

/**
 * Int32 slots of the shared control buffer: the last request's number, the last reply's number, the thread's state
 * (0 loading, 1 ready, RETIRED), its kernel task id (0: unknown), the request whose evaluation started last with
 * the thread's CPU time (ms) then: the daemon compares the thread's CPU time with it, and the request whose input was
 * read (its expression's own budget runs from there).
 */
export const REQUEST = 0;
export const REPLY = 1;
export const READY = 2;
export const TASK = 3;
export const STARTED = 4;
export const START_CPU = 5;
export const READ = 6;
export const SLOTS = 7;
export const RETIRED = 2;

export interface Limits {
  /** CPU per evaluation before QuickJS's interrupt handler stops it. */
  readonly budgetMs: number;
  /** Wall clock per evaluation, whatever the CPU: a starved machine still ends it. */
  readonly hardCapMs: number;
  /** Wall clock for reading one request's input (bounded in size) before the expression's own budget starts. */
  readonly readCapMs: number;
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
  /** `input`: the request's input could not be read in time or memory: not the expression's failure. */
  readonly error?: { readonly kind: 'timeout' | 'memory' | 'error' | 'input'; readonly message: string };
  /** Dependency keys the expression asked for that the request did not carry. */
  readonly needs?: string;
  /** The thread's CPU ms for the expression once its input was read (in 10 ms ticks: right on average). */
  readonly ms?: number;
  /** The thread's CPU ms for reading the input: charged to the namespace and the event, never to the expression. */
  readonly readMs?: number;
  /** The engine itself failed: the daemon stops this thread and uses another. */
  readonly retire?: boolean;
}
