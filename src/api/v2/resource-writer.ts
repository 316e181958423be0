import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ObjectMeta, SensuGoTypes } from '../../v2/index.js';
import type { Caller, V2ApiDeps } from './context.js';

/** How a stored write is answered: PUT and POST 201 with no body, PATCH 200 with the resource. */
type Respond = (reply: FastifyReply, namespace: string, name: string) => unknown;
export const created: Respond = (reply) => reply.code(201).type('application/json').send();

/** The Sensu Go types the generic routes store, each a resource with its metadata (name, namespace, labels...). */
export type ResourceType =
  | 'Asset'
  | 'CheckConfig'
  | 'ClusterRole'
  | 'ClusterRoleBinding'
  | 'Entity'
  | 'EventFilter'
  | 'Handler'
  | 'HookConfig'
  | 'Mutator'
  | 'Pipeline'
  | 'Role'
  | 'RoleBinding'
  | 'Silenced';

/** What the generic routes read of every stored resource: its metadata; the rest is its kind's. */
export interface Resource {
  metadata?: ObjectMeta;
}

/** A kind's stored resources and its PUT handler: what routes that change one resource in place go through. */
export interface ResourceWriter {
  readonly get: (namespace: string, name: string) => Resource | null;
  readonly put: (respond: Respond) => (request: FastifyRequest, reply: FastifyReply) => unknown;
}

// The hooks are methods: a kind's own hooks read its own type, and every kind is still a ResourceKind.
/** One kind of the v2 API's generic routes: where it is served, how a write of it is checked and completed. */
export interface ResourceKind<K extends ResourceType = ResourceType> {
  /** URL segment, e.g. `handlers`. */
  readonly path: string;
  /** Stored kind and wrapped `type`, e.g. `Handler`. */
  readonly type: K;
  /** Stored under no namespace and served at /api/core/v2/<path> (ClusterRole, ClusterRoleBinding). */
  readonly clusterWide?: true;
  /** The first reason a resource is invalid, or null. */
  validate(resource: SensuGoTypes[K]): string | null;
  /** For kinds that grant permissions: why the caller may not write this one (403), or null (namespace null: cluster-wide). */
  grantProblem?(deps: V2ApiDeps, caller: Caller, namespace: string | null, resource: SensuGoTypes[K]): string | null;
  /** Why a name is not one of this kind's, when not Sensu Go's name rule (Asset: `/` allowed; Silenced: `*`), or null. */
  nameProblem?(name: unknown): string | null;
  /** The name the kind gives every body, whatever it says (Silenced: `subscription:check`), or undefined. */
  nameOf?(resource: SensuGoTypes[K]): string;
  /** The resource as stored, completed from what the client sent (Silenced: begin, expire_at and its creator); null: nothing to store. */
  prepare?(resource: SensuGoTypes[K], nowS: number, username: string): SensuGoTypes[K] | null;
  /** Why this one may not be deleted now (409: others depend on it), or null. */
  deleteProblem?(deps: V2ApiDeps, namespace: string | null, name: string): string | null;
  /** What follows a write (Role: a new generation when it is new; binding: the role generation it applies to); namespace '' when cluster-wide. */
  afterWrite?(deps: V2ApiDeps, namespace: string, name: string, created: boolean): void;
  /** What goes with a deleted one (Entity: its events). */
  afterDelete?(deps: V2ApiDeps, namespace: string, name: string): Promise<void> | void;
}

/** A kind as its own type: its hooks read that type (`type` names it). */
export const resourceKind = <K extends ResourceType>(kind: ResourceKind<K>): ResourceKind<K> => kind;
