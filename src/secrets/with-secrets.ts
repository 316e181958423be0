import type { SpawnOptions, SpawnResult } from '../execute/index.js';
import { redactValues } from '../config/index.js';
import { secretRefsOf } from '../config/index.js';
import type { SecretsLookup } from './resolver.js';

type Spawn = (command: string, options: SpawnOptions) => Promise<SpawnResult>;

/**
 * `spawn` for one definition's command: its `secrets` resolved first and added to the command's environment (an
 * overlay the spawner merges over its own, so other overlays such as a PATH compose), the values redacted from the
 * captured output. A secret that cannot be resolved fails the execution with status 3 and says why.
 */
export function withSecrets(spawn: Spawn, definition: unknown, lookup: SecretsLookup | undefined): Spawn {
  const refs = secretRefsOf(definition);
  if (!lookup || refs.length === 0) return spawn;
  return async (command, options) => {
    const started = performance.now();
    const resolution = await lookup(refs);
    if (!resolution.ok) return { status: 3, output: resolution.output, timedOut: false, signal: null, durationMs: performance.now() - started };
    const result = await spawn(command, { ...options, env: { ...options?.env, ...resolution.env } });
    return { ...result, output: redactValues(result.output, resolution.values) };
  };
}
