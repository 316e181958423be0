import type { Settings } from '../config/settings.js';

/** Spec §3/§8: an instance without a license monitors at most 100 entities; `checkbridge.entity_limit` (0: none) raises it. */
export const DEFAULT_ENTITY_LIMIT = 100;

export function entityLimitOf(settings: Settings): number {
  const value = (settings.raw.checkbridge as { entity_limit?: unknown } | undefined)?.entity_limit;
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : DEFAULT_ENTITY_LIMIT;
}

export const entityLimitMessage = (limit: number) =>
  `entity limit of ${limit} reached: no license for more entities; existing entities keep being monitored; raise or remove the limit with the setting checkbridge.entity_limit (0 for none)`;

/** Whether one more entity would go past `limit` (0 is no limit); the store counts only when there is a limit, and only up to it. */
export const atEntityLimit = (store: { countEntities(upTo: number): number }, limit: number) => limit > 0 && store.countEntities(limit) >= limit;

/** A result or keepalive refused for the entity limit: HTTP doors answer 402, the socket `invalid`. */
export class EntityLimitError extends Error {
  readonly httpStatus = 402;
}
