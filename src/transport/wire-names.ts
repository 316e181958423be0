// The legacy version the fleet sees (the server's VERSION; not imported, transports depend on nothing of server/).
const LEGACY_VERSION = '1.9.0';

/** The per-process client queue: `<client name>-<version>-<start epoch seconds>` (reference §2.5 row 3). */
export function clientQueueName(clientName: string, startedMs: number): string {
  return `${clientName}-${LEGACY_VERSION}-${Math.floor(startedMs / 1000)}`;
}
