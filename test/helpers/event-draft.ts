// A legacy event as the handling receives it (client web-1, check disk critical), with the fields a test changes.
import type { EventDraft } from '../../src/legacy/index.js';

export const eventDraft = (check: Record<string, unknown> = {}, overrides: Partial<EventDraft> = {}): EventDraft => ({
  id: 'e-1',
  client: { name: 'web-1' },
  check: { name: 'disk', status: 2, output: 'disk full', ...check },
  occurrences: 1,
  occurrences_watermark: 1,
  last_ok: null,
  last_state_change: null,
  action: 'create',
  timestamp: 1_700_000_000,
  silenced: false,
  silenced_by: [],
  ...overrides,
});
