import { LEGACY_VERSION } from '../legacy-version.js';

/** The per-process client queue: `<client name>-<version>-<start epoch seconds>` (reference §2.5 row 3). */
export function clientQueueName(clientName: string, startedMs: number): string {
  return `${clientName}-${LEGACY_VERSION}-${Math.floor(startedMs / 1000)}`;
}
