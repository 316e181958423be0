import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { CheckbridgeError } from '../errors.js';
import type { Json } from '../json.js';

/** Back-to-back JSON values (wrapped-json), split where each top-level value closes. */
function splitJson(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      if (depth === 0) start = i;
      depth++;
    } else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) out.push(text.slice(start, i + 1));
    }
  }
  return out;
}

/** Resources of one file: documents split at lines starting with `---`; JSON documents may hold several objects. */
export function parseResources(text: string, source: string): Json[] {
  const out: Json[] = [];
  for (const document of text.split(/^---.*$/m)) {
    const trimmed = document.trim();
    if (!trimmed) continue;
    try {
      if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
        for (const chunk of splitJson(trimmed)) {
          const value = JSON.parse(chunk) as Json | Json[];
          out.push(...(Array.isArray(value) ? value : [value]));
        }
      } else out.push(parse(trimmed) as Json);
    } catch (error) {
      throw new CheckbridgeError('CB_CLI_USAGE', `${source}: ${(error as Error).message}`);
    }
  }
  return out;
}

/** A file, or the .yaml/.yml/.json files of a directory (sorted, not recursive). */
export function readResourceFiles(path: string): { source: string; resources: Json[] }[] {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    throw new CheckbridgeError('CB_CLI_USAGE', `${path}: no such file or directory`);
  }
  const files = stats.isDirectory()
    ? readdirSync(path)
        .filter((f) => /\.(ya?ml|json)$/.test(f))
        .sort()
        .map((f) => join(path, f))
    : [path];
  return files.map((file) => ({ source: file, resources: parseResources(readFileSync(file, 'utf8'), file) }));
}

/** URL segment of each namespaced core/v2 kind. */
export const PATHS: Record<string, string> = {
  CheckConfig: 'checks',
  Check: 'checks',
  HookConfig: 'hooks',
  Hook: 'hooks',
  EventFilter: 'filters',
  Handler: 'handlers',
  Mutator: 'mutators',
  Pipeline: 'pipelines',
  Entity: 'entities',
  Silenced: 'silenced',
  Asset: 'assets',
  Role: 'roles',
  RoleBinding: 'rolebindings',
};

/** Cluster-wide kinds by `api_version.type`: their collection URL, the dump name, and whether the API takes them wrapped. */
export interface ClusterKind {
  readonly collection: string;
  readonly dumpName: string;
  readonly wrapped: boolean;
}
const PROVIDERS = '/api/enterprise/authentication/v2/authproviders';
export const CLUSTER_KINDS: ReadonlyMap<string, ClusterKind> = new Map([
  ['core/v2.ClusterRole', { collection: '/api/core/v2/clusterroles', dumpName: 'clusterroles', wrapped: false }],
  ['core/v2.ClusterRoleBinding', { collection: '/api/core/v2/clusterrolebindings', dumpName: 'clusterrolebindings', wrapped: false }],
  ['authentication/v2.ldap', { collection: PROVIDERS, dumpName: 'authproviders', wrapped: true }],
  ['authentication/v2.ad', { collection: PROVIDERS, dumpName: 'authproviders', wrapped: true }],
  ['authentication/v2.oidc', { collection: PROVIDERS, dumpName: 'authproviders', wrapped: true }],
]);

/** The PUT of one cluster-wide resource: core/v2 flat with its metadata; providers wrapped, `Type` with a capital T. */
export function clusterPut(kind: ClusterKind, resource: Json, name: string): { url: string; body: Json } {
  const url = `${kind.collection}/${encodeURIComponent(name)}`;
  if (!kind.wrapped) return { url, body: { ...(resource.spec ?? {}), metadata: { ...(resource.metadata ?? {}) } } };
  const { type, Type, ...rest } = resource;
  return { url, body: { ...rest, Type: Type ?? type } };
}

/** Dumped documents of a cluster-wide list: core/v2 items wrapped here, providers as the API gives them. */
export function clusterDocuments(key: string, kind: ClusterKind, items: Json[]): Json[] {
  if (kind.wrapped) return items;
  const [apiVersion, type] = key.split('.') as [string, string];
  return items.map(({ metadata, ...spec }) => ({ type, api_version: apiVersion, metadata, spec }));
}
