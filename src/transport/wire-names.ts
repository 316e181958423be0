import { LEGACY_VERSION } from '../legacy-version.js';

/** The per-process client queue: `<client name>-<version>-<start epoch seconds>`. */
export function clientQueueName(clientName: string, startedMs: number): string {
  return `${clientName}-${LEGACY_VERSION}-${Math.floor(startedMs / 1000)}`;
}
