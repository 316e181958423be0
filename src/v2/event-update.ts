// The backend's event-store update: history of 21, state, occurrences, watermark, last_ok.
import { HISTORY_LENGTH, weightedStateChange } from '../legacy/index.js';

import type { Check, CheckHistory, Event } from './generated/interfaces.js';
// One history length for both event models.
export { HISTORY_LENGTH };

function updateState(check: Check): void {
  const history = check.history ?? [];
  check.total_state_change = weightedStateChange(history, (entry) => entry.status, 'sensu-go');
  const low = Number(check.low_flap_threshold ?? 0);
  const high = Number(check.high_flap_threshold ?? 0);
  if (low !== 0 && high !== 0 && check.total_state_change >= high) check.state = 'flapping';
  else if (check.status === 0) {
    check.state = 'passing';
    check.last_ok = check.executed ?? 0;
  } else check.state = 'failing';
}

/** UpdateEvent: merges the incoming check with the stored one, then counts occurrences. Returns the event to store. */
export function updateEvent<E extends Event>(previous: Event | null, incoming: E, nowSeconds: number): E {
  return updateOwnedEvent(previous, structuredClone(incoming), nowSeconds);
}

/** The entry a check's result adds to its history. */
const entryOf = (check: Check): CheckHistory => ({ status: check.status ?? 0, executed: check.executed ?? 0 });

/** `updateEvent` on an event the caller made for it (nobody else holds it): changed in place, without a copy. It has a check. */
export function updateOwnedEvent<E extends Event>(previous: Event | null, event: E, nowSeconds: number): E {
  const check = event.check!;
  if (previous?.check) {
    const prev = previous.check;
    check.history = [...(prev.history ?? []), entryOf(check)].slice(-HISTORY_LENGTH);
    check.last_ok = prev.last_ok ?? 0;
    check.occurrences = prev.occurrences ?? 0;
    check.occurrences_watermark = prev.occurrences_watermark ?? 0;
  } else {
    // First write: the check merges with itself, so history and counters sent by the client are kept.
    check.state = check.status === 0 ? 'passing' : 'failing';
    if (check.status === 0) check.last_ok = check.executed ?? 0;
    check.history = [...(check.history ?? []), entryOf(check)].slice(-HISTORY_LENGTH);
  }
  updateState(check);
  const history = check.history;
  const n = history.length;
  check.occurrences = n > 1 && history[n - 1]!.status === history[n - 2]!.status ? Number(check.occurrences ?? 0) + 1 : 1;
  const watermark = Number(check.occurrences_watermark ?? 0);
  if (n > 1 && history[n - 2]!.status === 0 && history[n - 1]!.status !== 0) check.occurrences_watermark = 1;
  else if (check.occurrences <= watermark) check.occurrences_watermark = watermark;
  else check.occurrences_watermark = watermark + 1;
  if (!event.timestamp) event.timestamp = nowSeconds;
  return event;
}
