import type { Logger } from 'pino';
import type { Settings } from '../config/index.js';
import { entityLimitOf, legacyNamespace } from '../config/index.js';
import { atEntityLimit, entityLimitMessage } from '../legacy/index.js';

/** What the gate reads of the store: the entities counted up to the limit, and whether a v2 entity of a name exists. */
export interface EntityCounts {
  countEntities(upTo: number, legacyNamespace: string): number;
  hasV2Entity(name: string, legacyNamespace: string): boolean;
}

/**
 * The one entity-limit gate of every door: null when one more entity may be admitted, else the refusal. A `name`
 * already stored as a v2 entity of the legacy namespace is no new entity (the caller asks only when its own record
 * of the name is missing); without a name the caller has found the entity new.
 */
export function entityRefusal(store: EntityCounts, settings: Settings, name?: string): string | null {
  const limit = entityLimitOf(settings);
  // No limit: nothing to count, and nothing read (on PostgreSQL a read here would hold the thread for a round trip).
  if (limit === 0) return null;
  const namespace = legacyNamespace(settings);
  if (name !== undefined && store.hasV2Entity(name, namespace)) return null;
  return atEntityLimit(store, limit, namespace) ? entityLimitMessage(limit) : null;
}

/** The gate bound to a store and the live settings, for the doors that take it as a callback. */
export class EntityGate {
  constructor(
    private readonly store: EntityCounts,
    private readonly settings: () => Settings,
  ) {}

  /** See `entityRefusal`: the settings read now. */
  readonly refusal = (name?: string): string | null => entityRefusal(this.store, this.settings(), name);
}

/** At start: a store that already holds the limit's worth of entities refuses every new one; said at once. */
export function warnPastEntityLimit(store: Pick<EntityCounts, 'countEntities'>, settings: Settings, logger: Logger): void {
  const limit = entityLimitOf(settings);
  if (limit === 0) return;
  const known = store.countEntities(Number.MAX_SAFE_INTEGER, legacyNamespace(settings));
  if (known < limit) return;
  logger.warn(
    { entities: known, entity_limit: limit },
    `the store already knows ${known} clients and entities, ${known > limit ? 'past' : 'at'} the entity limit of ${limit}: new ones are refused, existing ones keep being monitored; raise or remove the limit with the setting checkbridge.entity_limit (0 for none)`,
  );
}
