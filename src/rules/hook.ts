// A HookConfig's rules (Sensu Go's HookConfig.Validate, the name aside).
import type { Json } from '../json.js';

/** The first reason a HookConfig's spec is invalid, or null. */
export function hookProblem(h: Json): string | null {
  if (typeof h.command !== 'string' || h.command === '') return 'command cannot be empty';
  return Number(h.timeout ?? 0) > 0 ? null : 'timeout: a hook timeout must be greater than 0';
}
