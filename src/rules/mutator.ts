// A Mutator's rules (Sensu Go's Mutator.Validate, the name aside).
import { MUTATOR_TYPES, isOneOf } from './enumerations.js';
import type { Json } from '../json.js';

/** The first reason a Mutator's spec is invalid, or null: a pipe mutator runs a command, a javascript one evaluates `eval`. */
export function mutatorProblem(m: Json): string | null {
  if (!m.command && !m.eval) return 'mutator command or eval must be set';
  if (m.type === 'javascript' && m.command) return 'command used with a javascript mutator: give the script as eval';
  if (m.type && !isOneOf(MUTATOR_TYPES, m.type)) return `invalid mutator type ${JSON.stringify(m.type)}: one of ${MUTATOR_TYPES.join(', ')}`;
  return null;
}
