import type { Settings } from '../config/index.js';
import type { SpawnResult, SpawnOptions } from '../execute/index.js';
import type { EventDraft, Handler } from '../legacy/index.js';
import { withAssets, type AssetResolver } from '../assets/index.js';

export type Spawner = (command: string, options: SpawnOptions) => Promise<SpawnResult>;
export type Mutation = { ok: true; data: string } | { ok: false; error: string; output?: string; status?: number };

/** The event as handlers see it: full output, string history, no null last_state_change. */
export function eventJson(event: EventDraft): string {
  if (event.last_state_change !== null) return JSON.stringify(event);
  const { last_state_change: _absent, ...rest } = event;
  return JSON.stringify(rest);
}

/** Legacy mutate_event: a settings mutator is a pipe; `json` and `only_check_output` are built in. */
export async function mutateEvent(
  handler: Handler,
  event: EventDraft,
  json: () => string,
  settings: Settings,
  spawn: Spawner,
  assets?: AssetResolver,
): Promise<Mutation> {
  const name = typeof handler.mutator === 'string' ? handler.mutator : 'json';
  const mutator = settings.mutators[name] as { command?: string; timeout?: number; runtime_assets?: string[] } | undefined;
  if (mutator) {
    if (typeof mutator.command !== 'string') return { ok: false, error: `mutator ${name} has no command` };
    const run = await withAssets(spawn, assets, mutator.runtime_assets)(mutator.command, { stdin: json(), timeout: mutator.timeout });
    if (run.status !== 0) return { ok: false, error: 'mutator error', output: run.output, status: run.status };
    return { ok: true, data: run.output };
  }
  if (name === 'json' || name === 'ruby_hash') return { ok: true, data: json() };
  if (name === 'only_check_output') return { ok: true, data: String(event.check.output ?? '') };
  return { ok: false, error: 'unknown mutator' };
}
