// What the v2 store's rows hold, by the kind they are stored under.
import type { SensuGoTypes } from '../v2/index.js';

/** A stored resource whose kind is only known at run time: its fields read as unknown until checked. */
export type StoredResource = Readonly<Record<string, unknown>>;

/**
 * The Sensu Go kinds stored under their own Go name. Not every Go name: 'Secret' in the store is the enterprise secret
 * reference (id and provider), not core/v2's Secret (name and value), so it and other store-only kinds stay general.
 */
export type StoredKinds = Pick<
  SensuGoTypes,
  | 'CheckConfig'
  | 'HookConfig'
  | 'Asset'
  | 'Handler'
  | 'Mutator'
  | 'EventFilter'
  | 'Pipeline'
  | 'Silenced'
  | 'Role'
  | 'ClusterRole'
  | 'RoleBinding'
  | 'ClusterRoleBinding'
>;

/** What a resource of kind `K` holds: its Sensu Go interface when the kind names one, else a general record. */
export type ResourceOf<K extends string> = K extends keyof StoredKinds ? StoredKinds[K] : StoredResource;
