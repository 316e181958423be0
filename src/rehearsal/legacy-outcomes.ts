import type { Settings } from '../config/index.js';
import type { LegacyDecision } from '../handling/index.js';
import type { HandlerOutcome } from './v2-decision.js';

const BUILT_IN_MUTATORS = new Set(['json', 'only_check_output', 'ruby_hash']);

// What decided, for the reasons legacy's filter_event gives without a filter name.
const RULES: Record<string, string> = {
  'event handling disabled for event': 'handle',
  'handler does not handle action': 'flapping',
  'handler does not handle event severity': 'severities',
  'handler is silenced': 'silenced',
};

/** Legacy's decision as one outcome per handler: filtered (by what), failing for want of its mutator, or handled. */
export function legacyOutcomes(settings: Settings, decision: LegacyDecision): HandlerOutcome[] {
  return decision.handlers.map(({ handler, filtered }) => {
    if (filtered) {
      const by = filtered.filter ?? RULES[filtered.message] ?? 'filter';
      return {
        handler: handler.name,
        handled: false,
        by,
        detail: `${filtered.filter ? `filtered by ${filtered.filter}` : filtered.message}${filtered.reason ? ` (${filtered.reason})` : ''}`,
      };
    }
    const mutator = handler.mutator;
    if (handler.type !== 'extension' && typeof mutator === 'string' && !BUILT_IN_MUTATORS.has(mutator) && !Object.hasOwn(settings.mutators, mutator))
      return { handler: handler.name, handled: false, by: 'mutator', detail: `fails: mutator ${mutator} is not defined (unknown mutator)` };
    return { handler: handler.name, handled: true, detail: typeof mutator === 'string' ? `handled (mutator ${mutator})` : 'handled' };
  });
}
