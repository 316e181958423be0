// What the v2 store's rows hold, by the kind they are stored under.
import type {
  Asset,
  CheckConfig,
  ClusterRole,
  ClusterRoleBinding,
  EventFilter,
  Handler,
  HookConfig,
  Mutator,
  Pipeline,
  Role,
  RoleBinding,
  Silenced,
} from '../v2/index.js';

/** A stored resource whose kind is only known at run time: its fields read as unknown until checked. */
export type StoredResource = Readonly<Record<string, unknown>>;

/**
 * The kinds whose rows have a known shape: the Sensu Go kinds stored under their own Go name here, and the store-only
 * kinds of higher levels added where they are defined (`declare module`: secrets, auth providers). Not every Go name:
 * 'Secret' in the store is the enterprise secret reference (id and provider), not core/v2's Secret (name and value).
 */
export interface StoredKinds {
  CheckConfig: CheckConfig;
  HookConfig: HookConfig;
  Asset: Asset;
  Handler: Handler;
  Mutator: Mutator;
  EventFilter: EventFilter;
  Pipeline: Pipeline;
  Silenced: Silenced;
  Role: Role;
  ClusterRole: ClusterRole;
  RoleBinding: RoleBinding;
  ClusterRoleBinding: ClusterRoleBinding;
}

/** What a resource of kind `K` holds: its interface when the kind names one, else a general record. */
export type ResourceOf<K extends string> = K extends keyof StoredKinds ? StoredKinds[K] : StoredResource;
