import { CheckbridgeError } from '../errors.js';
// The setting and its default live with the other settings' reads.

export const entityLimitMessage = (limit: number) =>
  `entity limit of ${limit} reached: no license for more entities; existing entities keep being monitored; raise or remove the limit with the setting checkbridge.entity_limit (0 for none)`;

/**
 * Whether one more entity would go past `limit` (0 is no limit): the entities counted are the ones the v2 entity lists
 * show, legacy clients in `legacyNamespace`. The store counts only when there is a limit, and only up to it.
 */
export const atEntityLimit = (store: { countEntities(upTo: number, legacyNamespace: string): number }, limit: number, legacyNamespace: string) =>
  limit > 0 && store.countEntities(limit, legacyNamespace) >= limit;

/** A result or keepalive refused for the entity limit (CB_ENTITY_LIMIT): HTTP doors answer its status, the socket `invalid`. */
export class EntityLimitError extends CheckbridgeError {
  constructor(message: string) {
    super('CB_ENTITY_LIMIT');
    // The message names the limit and how to raise it, word for word what the doors answered before.
    this.message = message;
  }
}
