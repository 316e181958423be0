// Enterprise bodies decoded as Go's encoding/json decodes them into Sensu Go's structs: a key matches its field
// exactly, else case-insensitively; maps (labels, annotations) keep their keys as sent.
import type { FastifyInstance } from 'fastify';

/** A struct's fields by their JSON names: a nested struct, a list of structs (`[shape]`), or a plain value / map (true). */
interface Shape {
  readonly [field: string]: Shape | readonly [Shape] | true;
}

const METADATA: Shape = { name: true, namespace: true, labels: true, annotations: true, created_by: true };
const SEARCH: Shape = { base_dn: true, attribute: true, name_attribute: true, object_class: true };
const LDAP_SERVER: Shape = {
  host: true,
  port: true,
  insecure: true,
  security: true,
  trusted_ca_file: true,
  client_cert_file: true,
  client_key_file: true,
  default_upn_domain: true,
  include_nested_groups: true,
  binding: { user_dn: true, password: true },
  group_search: SEARCH,
  user_search: SEARCH,
};
// LDAP, AD and OIDC specs together: no two of their field names differ by case alone, so one table folds them all.
const AUTH_PROVIDER_SPEC: Shape = {
  servers: [LDAP_SERVER],
  groups_prefix: true,
  username_prefix: true,
  additional_scopes: true,
  client_id: true,
  client_secret: true,
  disable_offline_access: true,
  groups_claim: true,
  redirect_uri: true,
  server: true,
  username_claim: true,
};
const VAULT_CLIENT: Shape = {
  address: true,
  token: true,
  version: true,
  tls: { ca_cert: true, ca_path: true, client_cert: true, client_key: true, cname: true, insecure: true, tls_server_name: true },
  max_retries: true,
  timeout: true,
  rate_limiter: { limit: true, burst: true },
  agent_address: true,
};
const POSTGRES_SPEC: Shape = {
  dsn: true,
  pool_size: true,
  strict: true,
  max_conn_lifetime: true,
  max_idle_conns: true,
  batch_buffer: true,
  batch_size: true,
  batch_workers: true,
  enable_round_robin: true,
};
// Sensu Go's authentication wrapper spells its type field `Type`; the other wrappers `type`.
const wrapped = (typeField: string, spec: Shape): Shape => ({ [typeField]: true, api_version: true, metadata: METADATA, spec });

/** Each enterprise route prefix that takes a body, with the shape its body decodes into. */
const BODIES: readonly (readonly [string, Shape])[] = [
  ['/api/enterprise/authentication/v2/authproviders', wrapped('Type', AUTH_PROVIDER_SPEC)],
  ['/api/enterprise/secrets/v1/providers', wrapped('type', { client: VAULT_CLIENT })],
  ['/api/enterprise/secrets/v1/namespaces/', wrapped('type', { id: true, provider: true })],
  ['/api/enterprise/store/v1/provider', wrapped('type', POSTGRES_SPEC)],
];

/** Go's field lookup: the exact name, else the first field equal to the key ignoring case; null when none. */
function fieldOf(shape: Shape, key: string): string | null {
  if (Object.hasOwn(shape, key)) return key;
  const lower = key.toLowerCase();
  return Object.keys(shape).find((field) => field.toLowerCase() === lower) ?? null;
}

/** The value with every key of a known struct renamed to its field; a later duplicate overwrites, as in Go. */
export function foldKeys(value: unknown, shape: Shape | readonly [Shape] | true): unknown {
  if (shape === true || value === null || typeof value !== 'object') return value;
  if (Array.isArray(shape)) return Array.isArray(value) ? value.map((item) => foldKeys(item, shape[0])) : value;
  if (Array.isArray(value)) return value;
  const struct = shape as Shape;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    const field = fieldOf(struct, key);
    // An unknown key stays as sent: the route's own validation names it.
    const folded = field === null ? inner : foldKeys(inner, struct[field]!);
    // Defined, not assigned: a key `__proto__` stays a key.
    Object.defineProperty(out, field ?? key, { value: folded, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** The one place every enterprise route's body is folded, before validation and the route's handler read it. */
export function registerCaseBlindBodies(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const url = request.routeOptions.url ?? '';
    const found = BODIES.find(([prefix]) => url.startsWith(prefix));
    if (found && request.body !== undefined) request.body = foldKeys(request.body, found[1]);
  });
}
