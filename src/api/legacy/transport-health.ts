import type { TransportInfo } from '../../transport/index.js';

/** Legacy GET /health: why the transport is unhealthy for `consumers`/`messages`, empty when it is not. */
export function healthFailures(info: TransportInfo, query: Record<string, unknown>): string[] {
  if (!info.connected) return ['not connected to transport'];
  const failures: string[] = [];
  const minConsumers = query.consumers !== undefined ? Number(query.consumers) : null;
  const maxMessages = query.messages !== undefined ? Number(query.messages) : null;
  const figure = (value: number | null | undefined) => value ?? 0;
  if (minConsumers !== null && Number.isFinite(minConsumers) && info.keepalives && info.results) {
    if (figure(info.keepalives.consumers) < minConsumers)
      failures.push(`keepalive consumers (${figure(info.keepalives.consumers)}) less than min_consumers (${minConsumers})`);
    if (figure(info.results.consumers) < minConsumers)
      failures.push(`result consumers (${figure(info.results.consumers)}) less than min_consumers (${minConsumers})`);
  }
  if (maxMessages !== null && Number.isFinite(maxMessages) && info.keepalives && info.results) {
    if (figure(info.keepalives.messages) > maxMessages)
      failures.push(`keepalive messages (${figure(info.keepalives.messages)}) greater than max_messages (${maxMessages})`);
    if (figure(info.results.messages) > maxMessages)
      failures.push(`result messages (${figure(info.results.messages)}) greater than max_messages (${maxMessages})`);
  }
  return failures;
}
