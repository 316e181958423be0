import { substituteObject, unmatchedTokensOutput } from '../tokens/index.js';
import { parseMetrics } from '../metrics/index.js';
import type { CheckResult } from './result.js';
import { round3 } from './result.js';
import { selectHook, runHook, type Runner } from './hooks.js';
import type { ReadClock } from '../schedule/index.js';

/** The spawner for one definition (the check or its hook): the caller adds what lives above execute (assets, secrets). */
export type PrepareRun = (run: Runner, definition: Record<string, unknown>) => Runner;

export interface CheckRunContext {
  /** The full, unredacted local client: tokens and stdin read it. */
  readonly client: Record<string, unknown>;
  readonly run: Runner;
  readonly clock: ReadClock;
  /** checkbridge.default_timeout: applies when a check has no timeout (off unless set). */
  readonly defaultTimeout?: number | undefined;
  /** Wraps `run` per definition, e.g. with its `runtime_assets` on the paths and its `secrets` in the environment. */
  readonly prepare?: PrepareRun | undefined;
  readonly onMetricError?: (error: { line: number; text: string; reason: string }) => void;
}

function publishable(check: Record<string, unknown>): Record<string, unknown> {
  const out = { ...check };
  if (out.source === '') delete out.source;
  return out;
}

/** Executes one check request as the legacy client does, on deep copies (docs/legacy-quirks.md). */
export async function runCheck(request: Record<string, unknown> & { name: string }, context: CheckRunContext): Promise<CheckResult> {
  const clientName = String(context.client.name);
  const started = context.clock.now();
  const executed = Math.floor(started / 1000);
  const { hooks, ...withoutHooks } = request;
  const { value: substituted, unmatched } = substituteObject(withoutHooks, context.client);
  const originals = { command: request.command, ...(hooks !== undefined ? { hooks } : {}) };

  if (unmatched.length > 0) {
    const check = { ...substituted, ...originals, output: unmatchedTokensOutput(unmatched), status: 3, handle: false, executed };
    return { client: clientName, check: publishable(check) as CheckResult['check'] };
  }

  const stdinCheck = { ...substituted, ...originals, executed };
  const timeout = typeof substituted.timeout === 'number' ? substituted.timeout : context.defaultTimeout;
  const stdin = substituted.stdin === true ? JSON.stringify({ client: context.client, check: stdinCheck }) : undefined;
  const prepare = context.prepare ?? ((run) => run);
  const spawned = await prepare(context.run, request)(String(substituted.command), { timeout, stdin });
  const duration = round3((context.clock.now() - started) / 1000);
  const check: Record<string, unknown> = { ...substituted, ...originals, executed, duration, output: spawned.output, status: spawned.status };

  const hookName = selectHook(hooks as Record<string, unknown> | undefined, spawned.status);
  if (hookName) {
    const hookDefinitions = hooks as Record<string, Record<string, unknown>>;
    const hook = hookDefinitions[hookName]!;
    const ran = await runHook(hook, context.client, check, context.clock, prepare(context.run, hook));
    check.hooks = { ...hookDefinitions, [hookName]: { ...hookDefinitions[hookName], ...ran } };
  }

  const result: { -readonly [K in keyof CheckResult]: CheckResult[K] } = { client: clientName, check: publishable(check) as CheckResult['check'] };
  if (typeof context.client.signature === 'string') result.signature = context.client.signature;
  if (typeof check.output_metric_format === 'string') {
    const parsed = parseMetrics(check.output_metric_format, spawned.output, executed, check.output_metric_tags);
    parsed.errors.forEach((e) => context.onMetricError?.(e));
    const handlers = Array.isArray(check.output_metric_handlers) ? (check.output_metric_handlers as string[]) : [];
    result.metrics = { handlers, points: parsed.points };
  }
  return result;
}
