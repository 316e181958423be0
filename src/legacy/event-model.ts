// Legacy event rules, pure: the processor feeds them stored state.
export const HISTORY_LENGTH = 21;

/** Storage truncation (exactly `length` characters, where legacy kept one more, then "\n..."); events keep the full output. */
export function truncateOutput(output: string, length = 255): string {
  const lines = output.split('\n');
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const first = lines[0] ?? output;
  if (lines.length > 1 || first.length > length) return first.slice(0, length) + '\n...';
  return first;
}

export function shouldTruncate(check: Record<string, unknown>): boolean {
  return Boolean(check.truncate_output) || (check.type === 'metric' && check.truncate_output !== false);
}

/**
 * How each model reads the one formula: legacy (Ruby) weighs a change at position i 0.80 + 0.02·i, Sensu Go
 * 0.80 + 0.02·(i − 1) and rounds its sum through a float32.
 */
export type StateChangeRule = 'legacy' | 'sensu-go';

/** total_state_change: the weighted changes between neighbouring statuses, in percent; 0 until the history is full. */
export function weightedStateChange<T>(history: readonly T[], statusOf: (entry: T) => unknown, rule: StateChangeRule): number {
  if (history.length < HISTORY_LENGTH) return 0;
  let weight = rule === 'legacy' ? 0.8 + 0.02 : 0.8;
  let changes = 0;
  for (let i = 1; i < history.length; i++) {
    if (statusOf(history[i]!) !== statusOf(history[i - 1]!)) changes += weight;
    weight += 0.02;
  }
  return Math.trunc(((rule === 'legacy' ? changes : Math.fround(changes)) / 20) * 100);
}

/** The legacy weighted formula (kept, 101 included: thresholds were tuned on it): statuses compared as strings, as legacy stores them. */
export const totalStateChange = (history: readonly (string | number)[]): number => weightedStateChange(history, String, 'legacy');

export type EventAction = 'create' | 'resolve' | 'flapping';

/** Flapping needs both thresholds as integers; it holds while > low, starts at >= high. */
export function isFlapping(check: Record<string, unknown>, change: number, wasFlapping: boolean): boolean {
  if (!('low_flap_threshold' in check) || !('high_flap_threshold' in check)) return false;
  const low = check.low_flap_threshold;
  const high = check.high_flap_threshold;
  if (!Number.isInteger(low) || !Number.isInteger(high)) return false;
  return wasFlapping ? change > (low as number) : change >= (high as number);
}

export interface StoredEvent {
  readonly id: string;
  readonly action: EventAction;
  readonly occurrences: number;
  readonly occurrences_watermark?: number;
  readonly last_state_change?: number | null;
}

export interface EventDraft {
  id: string;
  client: Record<string, unknown>;
  check: Record<string, unknown>;
  occurrences: number;
  occurrences_watermark: number;
  last_ok: number | null;
  last_state_change: number | null;
  action: EventAction;
  timestamp: number;
  silenced: boolean;
  silenced_by: string[];
}

/** Event construction with id, occurrences, watermark and action carried over from the stored event. */
export function buildEvent(input: {
  client: Record<string, unknown>;
  check: Record<string, unknown> & { status: number };
  history: readonly string[];
  lastOk: number | null;
  stored: StoredEvent | null;
  now: number;
  newId: () => string;
}): EventDraft {
  const { check, history, stored, now } = input;
  const change = totalStateChange(history);
  const flapping = isFlapping(check, change, stored?.action === 'flapping');
  const event: EventDraft = {
    id: stored?.id ?? input.newId(),
    client: input.client,
    check: { ...check, history: [...history], total_state_change: change },
    occurrences: stored?.occurrences ?? 1,
    occurrences_watermark: stored?.occurrences_watermark ?? stored?.occurrences ?? 1,
    last_ok: input.lastOk,
    last_state_change: stored?.last_state_change ?? null,
    action: flapping ? 'flapping' : 'create',
    timestamp: now,
    silenced: false,
    silenced_by: [],
  };
  if (check.status !== 0 || flapping) {
    if (history.at(-1) === history.at(-2)) {
      event.occurrences += 1;
      event.occurrences_watermark = Math.max(event.occurrences_watermark, event.occurrences);
    } else {
      event.occurrences = 1;
      event.last_state_change = now;
    }
  } else if (stored) {
    event.action = 'resolve';
    event.last_state_change = now;
  }
  return event;
}

export type RegistryUpdate = 'store' | 'remove' | 'none';

/** What happens to the stored event, and whether the event is handled. */
export function registryUpdate(event: EventDraft): { update: RegistryUpdate; process: boolean } {
  const status = event.check.status as number;
  const forceResolve = event.check.force_resolve === true;
  if (status !== 0 || (event.action === 'flapping' && !forceResolve)) return { update: 'store', process: true };
  if ((event.action === 'resolve' && (event.check.auto_resolve !== false || forceResolve)) || (event.action === 'flapping' && forceResolve)) {
    return { update: 'remove', process: true };
  }
  if (event.check.type === 'metric') return { update: 'none', process: true };
  return { update: 'none', process: false };
}
