import type { Logger } from 'pino';
import type { Settings } from '../config/index.js';
import type { StateStore } from '../store/index.js';
import type { EventDraft, Handler } from '../legacy/index.js';
import { attributesMatch } from '../schedule/index.js';
import { inTimeWindows, type WindowSet } from '../schedule/index.js';
import { evalAttribute } from '../ruby-eval/index.js';
import { severityOf } from '../intake/index.js';
import { EXTENSION_FILTERS, occurrencesFilter, checkDependenciesFilter } from './builtin-filters.js';

export interface FilterContext {
  readonly settings: Settings;
  readonly store: StateStore;
  readonly now: number;
  readonly log: Logger;
  readonly zone?: string;
}

export interface Filtered {
  readonly message: string;
  readonly filter?: string;
  /** What an extension filter said (for example "not enough occurrences"). */
  readonly reason?: string;
}

function handlesSeverity(handler: Handler, event: EventDraft): boolean {
  if (!('severities' in handler)) return true;
  const wanted = Array.isArray(handler.severities) ? handler.severities : [];
  if (event.action === 'resolve') {
    const history = Array.isArray(event.check.history) ? event.check.history : [];
    return history.some((status) => wanted.includes(severityOf(Number.parseInt(String(status), 10))));
  }
  return wanted.includes(severityOf(event.check.status));
}

/** A settings filter: outside its `when` windows it does not apply; otherwise inclusive, or exclusive with `negate`. */
function nativeFiltered(name: string, definition: Record<string, unknown>, event: EventDraft, ctx: FilterContext): boolean {
  if (definition.when && !inTimeWindows(definition.when as WindowSet, ctx.now, ctx.zone)) return false;
  const root = event as unknown as Record<string, unknown>;
  const matched = attributesMatch(root, (definition.attributes ?? {}) as Record<string, unknown>, (attribute, value, object) => {
    const outcome = evalAttribute(attribute, value, object);
    if (outcome.ok) return outcome.matched;
    ctx.log.error({ filter: name, expression: attribute, error: outcome.error }, 'filter attribute eval error');
    return false;
  });
  return definition.negate === true ? matched : !matched;
}

/** Legacy filter_event: the first reason the handler skips the event, or null to handle it. */
export function filterEvent(handler: Handler, event: EventDraft, ctx: FilterContext): Filtered | null {
  if (event.check.handle === false) return { message: 'event handling disabled for event' };
  if (event.action === 'flapping' && handler.handle_flapping !== true) return { message: 'handler does not handle action' };
  if (!handlesSeverity(handler, event)) return { message: 'handler does not handle event severity' };
  if (event.silenced && handler.handle_silenced !== true) return { message: 'handler is silenced' };
  const names = handler.filters ?? handler.filter ?? [];
  for (const name of (Array.isArray(names) ? names : [names]).map(String)) {
    const definition = ctx.settings.filters[name];
    let reason: string | null = null;
    if (definition) {
      if (nativeFiltered(name, definition as Record<string, unknown>, event, ctx)) reason = 'event was filtered';
    } else if (EXTENSION_FILTERS.has(name)) {
      reason = name === 'occurrences' ? occurrencesFilter(event) : checkDependenciesFilter(event, ctx.store);
    } else {
      ctx.log.error({ filter: name, handler: handler.name }, 'unknown filter');
    }
    if (reason) return { message: 'event was filtered', filter: name, ...(reason !== 'event was filtered' ? { reason } : {}) };
  }
  return null;
}
