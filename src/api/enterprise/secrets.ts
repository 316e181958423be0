// /api/enterprise/secrets/v1: wrapped JSON, admins only (src/api/v2/access.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isDeepStrictEqual } from 'node:util';
import { fail, callerOf, type V2ApiDeps } from '../v2/context.js';
import { sensuNameProblem } from '../../rules/index.js';
import { isPlainObject } from '../../config/index.js';
import { listResponse } from '../v2/listing.js';
import { missingNamespace } from '../v2/resources.js';
import { PROVIDER_FIELDS, SECRET_FIELDS } from '../../v2/index.js';
import {
  API_VERSION,
  PROVIDER_KIND,
  SECRET_KIND,
  ENV_TYPE,
  EXTERNAL_TYPE,
  ENV_PROVIDER_NAME,
  canonicalProviderType,
  providerProblem,
  secretProblem,
  providerForRead,
  withClientDefaults,
} from '../../secrets/index.js';
import { vaultPathOf } from '../../secrets/index.js';
import { SecretFailure } from '../../secrets/index.js';
import { keepCredential, type CredentialDestination } from '../../secrets/index.js';
import type { SecretReference, SecretsProvider, VaultClientSpec } from '../../secrets/index.js';

type Store = V2ApiDeps['store']['resources'];

const SECRETS_BASE = '/api/enterprise/secrets/v1';

/** A vault client as providerProblem lets it through: its defaults not yet written in. */
type SentVaultClient = Omit<VaultClientSpec, 'max_retries' | 'timeout'> & Partial<Pick<VaultClientSpec, 'max_retries' | 'timeout'>>;

/** Exactly one Env provider exists: created at start with an empty spec. */
function ensureEnvProvider(store: Store): void {
  if (store.listResources(PROVIDER_KIND, '').some((p) => p.type === ENV_TYPE)) return;
  store.putResource(PROVIDER_KIND, '', ENV_PROVIDER_NAME, { type: ENV_TYPE, api_version: API_VERSION, metadata: { name: ENV_PROVIDER_NAME }, spec: {} });
}

/** Why a vault provider would refuse this id (checked again at each read: the provider may come later), or null. */
function vaultIdProblem(provider: SecretsProvider | null, id: string): string | null {
  if (provider?.type !== EXTERNAL_TYPE) return null;
  try {
    vaultPathOf(id, provider.spec?.client?.version === 'v1' ? 'v1' : 'v2');
    return null;
  } catch (error) {
    return error instanceof SecretFailure ? error.reason : (error as Error).message;
  }
}

const sameAddress = (a: unknown, b: unknown): boolean => {
  try {
    return new URL(String(a)).href.replace(/\/+$/, '') === new URL(String(b)).href.replace(/\/+$/, '');
  } catch {
    return false;
  }
};

/** Where a vault token goes and whom it trusts there: a REDACTED token follows none of these changing. */
function vaultTargets(before: Pick<VaultClientSpec, 'address' | 'tls'>, after: Pick<VaultClientSpec, 'address' | 'tls'>): CredentialDestination[] {
  const tls = (name: keyof NonNullable<VaultClientSpec['tls']>): CredentialDestination => ({
    field: `spec.client.tls.${name}`,
    before: before.tls?.[name],
    after: after.tls?.[name],
  });
  return [
    { field: 'spec.client.address', before: before.address, after: after.address, same: sameAddress },
    tls('ca_cert'),
    tls('cname'),
    tls('client_cert'),
    tls('client_key'),
  ];
}

const bodyOf = (request: FastifyRequest): Record<string, unknown> | null => (isPlainObject(request.body) ? request.body : null);

/** metadata with the URL's name filled in; a message when they disagree or the name is unusable. */
function metadataFor(body: Record<string, unknown>, name: string): Record<string, unknown> | string {
  // null is none, as Go reads it; a string or a list was spread into fields ("abc": 0, 1 and 2).
  const sent = body.metadata ?? {};
  if (!isPlainObject(sent)) return 'metadata must be a map';
  const metadata = { ...sent };
  metadata.name ||= name;
  if (metadata.name !== name) return `the name of the resource (${String(metadata.name)}) does not match the name of the URI (${name})`;
  return sensuNameProblem(name) ?? metadata;
}

export function registerSecretsRoutes(app: FastifyInstance, deps: V2ApiDeps): void {
  const store = deps.store.resources;
  ensureEnvProvider(store);
  registerProviderRoutes(app, store);
  registerSecretRoutes(app, store);
}

/** Secrets providers: cluster-wide; the Env provider can be neither created a second time nor deleted. */
function registerProviderRoutes(app: FastifyInstance, store: Store): void {
  const providers = `${SECRETS_BASE}/providers`;

  app.get(providers, (request, reply) =>
    listResponse(request, reply, store.listResources(PROVIDER_KIND, '').map(providerForRead), PROVIDER_FIELDS, (p) => String(p.metadata?.name ?? '')),
  );
  app.get(`${providers}/:name`, (request, reply) => {
    const found = store.getResource(PROVIDER_KIND, '', (request.params as { name: string }).name);
    return found ? providerForRead(found) : fail(reply, 'notFound', 'not found');
  });
  app.put(`${providers}/:name`, (request, reply) => {
    const name = (request.params as { name: string }).name;
    const sent = bodyOf(request);
    if (!sent) return fail(reply, 'invalid', 'request body must be a JSON object');
    const body: Record<string, unknown> = { ...sent, type: canonicalProviderType(sent.type) };
    const metadata = metadataFor(body, name);
    if (typeof metadata === 'string') return fail(reply, 'invalid', metadata);
    const problem = providerProblem(body);
    if (problem) return fail(reply, 'invalid', problem);
    const existing = store.getResource(PROVIDER_KIND, '', name);
    if (existing && (existing.type !== body.type || existing.api_version !== body.api_version))
      return fail(reply, 'invalid', `the type and API version of provider ${name} (${existing.api_version}.${existing.type}) cannot be changed`);
    if (!existing && body.type === ENV_TYPE) return fail(reply, 'invalid', 'exactly one Env provider exists: a second cannot be created');
    let spec: SecretsProvider['spec'] = {};
    if (body.type === EXTERNAL_TYPE) {
      // A read shows the token as REDACTED: writing that back (dump, then create -f) keeps the stored token, for the same vault only.
      // providerProblem let only a checked client through; an existing provider of the same type has one.
      const { client } = body.spec as { client: SentVaultClient };
      const stored = existing?.spec.client;
      const token = keepCredential(
        { field: 'spec.client.token', what: 'the vault token', given: client.token, stored: stored?.token },
        stored ? vaultTargets(stored, client) : [],
      );
      if ('problem' in token) return fail(reply, 'invalid', token.problem);
      spec = { client: withClientDefaults({ ...client, token: token.value }) };
    }
    metadata.created_by = callerOf(request).username;
    const next = { type: body.type, api_version: API_VERSION, metadata, spec };
    // A read written back (its token REDACTED, so the stored one kept) is no change: nothing is written.
    const unchanged = existing && isDeepStrictEqual({ ...existing, metadata: { ...existing.metadata, created_by: metadata.created_by } }, next);
    if (!unchanged) store.putResource(PROVIDER_KIND, '', name, next);
    return reply.code(201).type('application/json').send();
  });
  app.delete(`${providers}/:name`, (request, reply) => {
    const name = (request.params as { name: string }).name;
    const found = store.getResource(PROVIDER_KIND, '', name);
    if (!found) return fail(reply, 'notFound', 'not found');
    if (found.type === ENV_TYPE) return fail(reply, 'conflict', 'the Env provider cannot be deleted');
    store.deleteResource(PROVIDER_KIND, '', name);
    return reply.code(204).send();
  });
}

/** Secrets: namespaced references to an id at a provider, listed across all namespaces too. */
function registerSecretRoutes(app: FastifyInstance, store: Store): void {
  const secretKey = (s: SecretReference) => `${String(s.metadata?.namespace ?? '')}/${String(s.metadata?.name ?? '')}`;
  app.get(`${SECRETS_BASE}/secrets`, (request, reply) => {
    const all = store.listResources('Namespace', '').flatMap((n) => store.listResources(SECRET_KIND, String(n.name)));
    return listResponse(request, reply, all, SECRET_FIELDS, secretKey);
  });
  const secrets = `${SECRETS_BASE}/namespaces/:namespace/secrets`;
  app.get(secrets, (request, reply) =>
    listResponse(request, reply, store.listResources(SECRET_KIND, (request.params as { namespace: string }).namespace), SECRET_FIELDS, (s) =>
      String(s.metadata?.name ?? ''),
    ),
  );
  app.get(`${secrets}/:name`, (request, reply) => {
    const { namespace, name } = request.params as { namespace: string; name: string };
    return store.getResource(SECRET_KIND, namespace, name) ?? fail(reply, 'notFound', 'not found');
  });
  app.put(`${secrets}/:name`, (request, reply) => {
    const { namespace, name } = request.params as { namespace: string; name: string };
    const body = bodyOf(request);
    if (!body) return fail(reply, 'invalid', 'request body must be a JSON object');
    const metadata = metadataFor(body, name);
    if (typeof metadata === 'string') return fail(reply, 'invalid', metadata);
    metadata.namespace ||= namespace;
    if (metadata.namespace !== namespace)
      return fail(reply, 'invalid', `the namespace of the resource (${String(metadata.namespace)}) does not match the namespace of the URI (${namespace})`);
    const problem = secretProblem(body);
    if (problem) return fail(reply, 'invalid', problem);
    // secretProblem let through only a spec naming a provider and an id (both non-empty strings).
    const { id, provider } = body.spec as SecretReference['spec'];
    const missing = missingNamespace(store, namespace);
    if (missing) return fail(reply, 'notFound', missing);
    const idProblem = vaultIdProblem(store.getResource(PROVIDER_KIND, '', provider), id);
    if (idProblem) return fail(reply, 'invalid', `spec.id: ${idProblem}`);
    metadata.created_by = callerOf(request).username;
    store.putResource(SECRET_KIND, namespace, name, {
      type: SECRET_KIND,
      api_version: API_VERSION,
      metadata,
      spec: { id, provider },
    });
    return reply.code(201).type('application/json').send();
  });
  app.delete(`${secrets}/:name`, (request, reply) => {
    const { namespace, name } = request.params as { namespace: string; name: string };
    return store.deleteResource(SECRET_KIND, namespace, name) ? reply.code(204).send() : fail(reply, 'notFound', 'not found');
  });
}
