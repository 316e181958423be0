import type { Settings } from '../config/index.js';
import { rubyToS } from '../tokens/index.js';
import { resource, LEGACY_ANNOTATION, type CompileContext, type Resource } from './model.js';
import { labelOf } from './tokens.js';
import { isSecretPath, redactDeep } from './secrets.js';
import type { Json } from '../json.js';

// Client attributes with a v2 entity field of their own (or read by the client service only).
const ENTITY_FIELDS = new Set(['name', 'subscriptions', 'deregister', 'deregistration', 'redact', 'keepalive', 'address']);

function lookup(tree: Json, path: string): unknown {
  let node: unknown = tree;
  for (const part of path.split('.')) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Json)[part];
  }
  return node;
}

/** The client as an agent Entity carrying the labels the checks' templates read; proxy entities named by `source`. */
export function emitEntities(settings: Settings, ctx: CompileContext, labelPaths: Map<string, string>, proxyNames: Iterable<string>): Resource[] {
  const client = settings.client as Json;
  const name = String(client.name);
  const labels: Record<string, string> = {};
  // Sensu Go redacts only exact top-level key names from its own short list: secrets never become labels.
  const secret = (path: string) => isSecretPath(path, ctx.secretKeys);
  for (const [label, path] of labelPaths) {
    if (secret(path)) continue;
    const value = lookup(client, path);
    if (value !== undefined && value !== null && typeof value !== 'object') labels[label] = rubyToS(value);
    else if (Array.isArray(value)) labels[label] = rubyToS(value);
  }
  if (typeof client.address === 'string') labels.address ??= client.address;
  // Custom scalar attributes become labels (what v2 templates and filters read); the rest is kept as an annotation.
  const kept: Json = {};
  for (const [key, value] of Object.entries(client)) {
    if (ENTITY_FIELDS.has(key)) continue;
    if (secret(key)) {
      ctx.warn(
        ['client', key],
        `client attribute ${key} is a secret: not emitted (Sensu Go would store it in clear); give it to the agent through env_vars or Sensu Go secrets`,
      );
      continue;
    }
    // A nil attribute is absent to legacy tokens and filters: no label, so `default` and `== null` read it the same way.
    if (value === null) continue;
    if (typeof value !== 'object') labels[labelOf(key)] ??= rubyToS(value);
    else if (![...labelPaths.values()].some((path) => path.split('.')[0] === key)) {
      kept[key] = redactDeep(value, ctx.secretKeys);
      ctx.warn(['client', key], `client attribute ${key} has no v2 entity field: kept in the ${LEGACY_ANNOTATION} annotation (secrets redacted)`);
    }
  }
  if (client.keepalive !== undefined)
    ctx.warn(
      ['client', 'keepalive'],
      'keepalive thresholds are agent settings in v2 (keepalive-warning-timeout, keepalive-critical-timeout); only the handler is kept',
    );
  const subscriptions = ((client.subscriptions ?? []) as string[]).map((s) => (s === `client:${name}` ? `entity:${name}` : s));
  const out = [
    resource(
      'Entity',
      name,
      ctx.namespace,
      {
        entity_class: 'agent',
        subscriptions: [...new Set([...subscriptions, `entity:${name}`])].sort(),
        deregister: client.deregister === true,
        deregistration: client.deregistration?.handler ? { handler: client.deregistration.handler } : {},
        ...(Array.isArray(client.redact) ? { redact: client.redact } : {}),
        ...(client.keepalive?.handler ? { keepalive_handlers: [client.keepalive.handler] } : {}),
      },
      Object.keys(kept).length ? { [LEGACY_ANNOTATION]: JSON.stringify(kept) } : {},
      labels,
    ),
  ];
  const proxies = new Set<string>(proxyNames);
  for (const proxy of [...proxies].sort()) {
    if (proxy === name) continue;
    out.push(resource('Entity', proxy, ctx.namespace, { entity_class: 'proxy', subscriptions: [`entity:${proxy}`], deregister: false, deregistration: {} }));
  }
  return out;
}
