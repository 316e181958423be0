/** What the next update of an event reads of the stored one (its id and sequence for replays, its check's counters). */
export interface EventState {
  readonly id?: string;
  readonly sequence?: number;
  readonly check?: {
    history: { status: number; executed: number }[];
    last_ok?: number;
    occurrences?: number;
    occurrences_watermark?: number;
  };
}

type History = { status: number; executed: number }[];
/** What stateOf reads of an event, each field unchecked until it is (any event is one). */
interface StateSource {
  readonly id?: unknown;
  readonly sequence?: unknown;
  readonly check?: unknown;
}

const MAX_ENTRIES = 10_000;
const isNumberOrAbsent = (value: unknown): value is number | undefined => value === undefined || (typeof value === 'number' && Number.isFinite(value));
const isPlainObject = (value: unknown): value is Readonly<Record<string, unknown>> => typeof value === 'object' && value !== null && !Array.isArray(value);

// Only items a JSON round trip gives back unchanged ({status, executed} numbers, in that order) are kept; anything else reads the row.
function historyOf(value: unknown): History | null {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return null;
  const history: History = [];
  for (const item of value) {
    if (!isPlainObject(item)) return null;
    let keys = 0;
    for (const key in item) {
      if (key !== (keys === 0 ? 'status' : 'executed')) return null;
      keys++;
    }
    if (keys !== 2 || typeof item.status !== 'number' || !Number.isFinite(item.status) || typeof item.executed !== 'number' || !Number.isFinite(item.executed))
      return null;
    history.push({ status: item.status, executed: item.executed });
  }
  return history;
}

/** The state of `event` exactly as reading its stored JSON back would give it; null when that needs the row itself. */
function stateOf(event: StateSource): EventState | null {
  const { id, sequence, check } = event;
  if (!(id === undefined || typeof id === 'string') || !isNumberOrAbsent(sequence)) return null;
  if (check === undefined) return { id, sequence };
  if (!isPlainObject(check)) return null;
  const history = historyOf(check.history);
  if (!history || !isNumberOrAbsent(check.last_ok) || !isNumberOrAbsent(check.occurrences) || !isNumberOrAbsent(check.occurrences_watermark)) return null;
  return { id, sequence, check: { history, last_ok: check.last_ok, occurrences: check.occurrences, occurrences_watermark: check.occurrences_watermark } };
}

// Length-prefixed, so that no two (namespace, entity, check) triples share a key whatever their names hold.
const keyOf = (namespace: string, entity: string, check: string) => `${namespace.length}:${namespace}${entity.length}:${entity}${check}`;

/**
 * The embedded store's last-written event states, so that an update does not read and parse the stored event again
 * (a third of a v2 PUT's time). Written through; emptied when a transaction fails (it may hold what was rolled back).
 * Never used when several servers share the store: another server's write would not be seen.
 */
export class EventStates {
  private readonly states = new Map<string, EventState>();

  /** A copy the caller owns, or undefined when not held. */
  get(namespace: string, entity: string, check: string): EventState | undefined {
    const state = this.states.get(keyOf(namespace, entity, check));
    if (!state) return undefined;
    return state.check
      ? { ...state, check: { ...state.check, history: state.check.history.map((h) => ({ status: h.status, executed: h.executed })) } }
      : { ...state };
  }

  /** Keeps the state of `event`, just written (or read), when it can be kept exactly; forgets the key otherwise. */
  remember(namespace: string, entity: string, check: string, event: StateSource): void {
    const key = keyOf(namespace, entity, check);
    this.states.delete(key);
    const state = stateOf(event);
    if (!state) return;
    if (this.states.size >= MAX_ENTRIES) this.states.delete(this.states.keys().next().value!);
    this.states.set(key, state);
  }

  forget(namespace: string, entity: string, check: string): void {
    this.states.delete(keyOf(namespace, entity, check));
  }

  clear(): void {
    this.states.clear();
  }
}
