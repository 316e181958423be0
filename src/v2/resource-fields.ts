// The field sets `fieldSelector` reads on each list (Sensu Go's *Fields functions).
import type { Json } from '../json.js';

export const selectorValue = (v: unknown) => (Array.isArray(v) ? v.join(',') : v === undefined || v === null ? '' : String(v));

/** One resource's selectable fields: their names (to refuse unknown ones) and how to read them. */
export interface FieldSet {
  readonly prefix: string;
  readonly names: readonly string[];
  readonly fields: (item: Json) => Record<string, string>;
  /** The labels a `labelSelector` reads (bare keys). */
  readonly labels: (item: Json) => Record<string, string>;
}

const own = (labels: unknown): Record<string, string> => {
  const out: Record<string, string> = Object.create(null);
  for (const [k, v] of Object.entries((labels ?? {}) as Json)) out[k] = selectorValue(v);
  return out;
};

/** A field set from `name → getter`, with `<prefix>.labels.<k>` from the resource's metadata labels. */
export function fieldSet(
  prefix: string,
  getters: Record<string, (item: Json) => unknown>,
  labelsOf: (item: Json) => unknown = (item) => item.metadata?.labels,
): FieldSet {
  const entries = Object.entries(getters).map(([name, get]) => [`${prefix}.${name}`, get] as const);
  return {
    prefix,
    names: entries.map(([name]) => name),
    labels: (item) => own(labelsOf(item)),
    fields: (item) => {
      const out: Record<string, string> = Object.create(null);
      for (const [name, get] of entries) out[name] = selectorValue(get(item));
      for (const [k, v] of Object.entries(own(labelsOf(item)))) out[`${prefix}.labels.${k}`] = v;
      return out;
    },
  };
}

const name = (item: Json) => item.metadata?.name;
const namespace = (item: Json) => item.metadata?.namespace;
const bool = (v: unknown) => Boolean(v);

/** By the URL segment of each namespaced kind. */
export const RESOURCE_FIELDS: ReadonlyMap<string, FieldSet> = new Map([
  [
    'checks',
    fieldSet('check', {
      name,
      namespace,
      handlers: (c) => c.handlers ?? [],
      publish: (c) => bool(c.publish),
      round_robin: (c) => bool(c.round_robin),
      runtime_assets: (c) => c.runtime_assets ?? [],
      subscriptions: (c) => c.subscriptions ?? [],
    }),
  ],
  [
    'entities',
    fieldSet('entity', {
      name,
      namespace,
      deregister: (e) => bool(e.deregister),
      entity_class: (e) => e.entity_class,
      subscriptions: (e) => e.subscriptions ?? [],
      'system.arch': (e) => e.system?.arch,
      'system.os': (e) => e.system?.os,
      'system.platform': (e) => e.system?.platform,
      'system.platform_family': (e) => e.system?.platform_family,
    }),
  ],
  [
    'handlers',
    fieldSet('handler', {
      name,
      namespace,
      filters: (h) => h.filters ?? [],
      handlers: (h) => h.handlers ?? [],
      mutator: (h) => h.mutator,
      type: (h) => h.type,
    }),
  ],
  ['hooks', fieldSet('hook', { name, namespace })],
  ['filters', fieldSet('filter', { name, namespace, action: (f) => f.action, runtime_assets: (f) => f.runtime_assets ?? [] })],
  ['mutators', fieldSet('mutator', { name, namespace, runtime_assets: (m) => m.runtime_assets ?? [] })],
  [
    'silenced',
    fieldSet('silenced', {
      name,
      namespace,
      check: (s) => s.check,
      creator: (s) => s.creator,
      expire_on_resolve: (s) => bool(s.expire_on_resolve),
      subscription: (s) => s.subscription,
    }),
  ],
  ['pipelines', fieldSet('pipeline', { name, namespace })],
  ['assets', fieldSet('asset', { name, namespace, filters: (a) => a.filters ?? [] })],
  ['roles', fieldSet('role', { name, namespace })],
  ['rolebindings', fieldSet('rolebinding', { name, namespace, 'role_ref.name': (b) => b.role_ref?.name, 'role_ref.type': (b) => b.role_ref?.type })],
]);

/** The cluster-wide RBAC kinds. */
export const RBAC_FIELDS: ReadonlyMap<string, FieldSet> = new Map([
  ['clusterroles', fieldSet('clusterrole', { name })],
  ['clusterrolebindings', fieldSet('clusterrolebinding', { name, 'role_ref.name': (b) => b.role_ref?.name, 'role_ref.type': (b) => b.role_ref?.type })],
]);

export const NAMESPACE_FIELDS = fieldSet('namespace', { name: (n) => n.name }, () => ({}));
export const APIKEY_FIELDS = fieldSet('apikey', { name, username: (k) => k.username });
export const USER_FIELDS = fieldSet('user', { username: (u) => u.username, disabled: (u) => bool(u.disabled), groups: (u) => u.groups ?? [] }, () => ({}));
export const PROVIDER_FIELDS = fieldSet('provider', { name });
export const SECRET_FIELDS = fieldSet('secret', { name, namespace, provider: (s) => s.spec?.provider, id: (s) => s.spec?.id });
