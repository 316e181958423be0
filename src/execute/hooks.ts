import { substituteTokens, unmatchedTokensOutput } from '../tokens/index.js';
import { severityOf, round3 } from './result.js';
import type { SpawnResult, SpawnOptions } from './spawn.js';
import type { ReadClock } from '../schedule/index.js';

export type Runner = (command: string, options: SpawnOptions) => Promise<SpawnResult>;

/** The status as a string, the severity name, then non-zero. At most one runs. */
export function selectHook(hooks: Record<string, unknown> | undefined, status: number): string | null {
  if (!hooks || typeof hooks !== 'object' || Object.keys(hooks).length === 0) return null;
  if (String(status) in hooks) return String(status);
  const severity = severityOf(status);
  if (severity in hooks) return severity;
  if (status !== 0 && 'non-zero' in hooks) return 'non-zero';
  return null;
}

export interface HookRun {
  readonly output: string;
  readonly status: number;
  readonly executed: number;
  readonly duration?: number;
}

/** Runs one hook: its command substituted now, not with the check's; an unmatched token fails this hook only. */
export async function runHook(
  hook: Record<string, unknown>,
  client: Record<string, unknown>,
  checkForStdin: Record<string, unknown>,
  clock: ReadClock,
  run: Runner,
): Promise<HookRun> {
  const executed = Math.floor(clock.now() / 1000);
  const { value: command, unmatched } = substituteTokens(String(hook.command ?? ''), client);
  if (unmatched.length > 0) return { output: unmatchedTokensOutput(unmatched), status: 3, executed };
  const timeout = typeof hook.timeout === 'number' ? hook.timeout : 60;
  const stdin = hook.stdin === true ? JSON.stringify({ client, check: checkForStdin }) : undefined;
  const result = await run(command, { timeout, stdin });
  return { output: result.output, status: result.status, executed, duration: round3(result.durationMs / 1000) };
}
