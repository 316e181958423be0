import type { Command } from 'commander';
import { stringify } from 'yaml';
import { CheckbridgeError } from '../errors.js';
import { apiTarget, request, apiError, apiMessage, type ApiTarget } from './api-client.js';
import { readResourceFiles, PATHS, CLUSTER_KINDS, clusterPut, clusterDocuments, type ClusterKind } from './resource-files.js';
import { enterprisePut, enterpriseList } from './enterprise-resources.js';
import { isSecretsResource, secretsPut, secretsDumpUrl, SECRETS_DUMP_TYPES } from '../secrets/index.js';
import type { Json } from '../json.js';

type Globals = { url?: string; apiKey?: string };

/** `create -f FILE|DIR` and `dump`, registered in that order. */
export function registerCreate(program: Command): void {
  registerCreateCommand(program);
  registerDumpCommand(program);
}

/** Where one resource is PUT and with what body; an error instead when it cannot be sent. Fills metadata.namespace as the PUT will. */
function resolvePut(resource: Json, metadata: Json, name: string, namespace: string): { url: string; body: Json } | { error: string } {
  const type = String(resource.type ?? '');
  const enterprise = enterprisePut(resource);
  if (isSecretsResource(resource)) {
    const put = secretsPut(resource, namespace);
    if ('error' in put) return { error: put.error };
    metadata.namespace = put.namespace;
    return { url: put.url, body: put.body };
  } else if (enterprise) {
    return { url: enterprise.url, body: enterprise.body };
  } else if (type === 'Namespace') {
    return { url: `/api/core/v2/namespaces/${encodeURIComponent(name || resource.spec?.name)}`, body: { name: name || resource.spec?.name } };
  } else if (PATHS[type] && (resource.api_version ?? 'core/v2') === 'core/v2') {
    metadata.namespace ||= namespace;
    const url = `/api/core/v2/namespaces/${encodeURIComponent(metadata.namespace)}/${PATHS[type]}/${encodeURIComponent(name)}`;
    return { url, body: { ...(resource.spec ?? {}), metadata } };
  } else if (CLUSTER_KINDS.has(`${resource.api_version ?? 'core/v2'}.${type || String(resource.Type ?? '')}`)) {
    return clusterPut(CLUSTER_KINDS.get(`${resource.api_version ?? 'core/v2'}.${type || String(resource.Type ?? '')}`)!, resource, name);
  }
  return { error: `unknown type ${resource.api_version ?? 'core/v2'}.${type}` };
}

/** `create -f FILE|DIR`: one PUT per resource (create or replace, so a re-run is harmless); every failure reported. */
function registerCreateCommand(program: Command): void {
  program
    .command('create')
    .description('apply core/v2 and secrets/v1 resources (YAML or wrapped JSON) to a v2 API, one PUT each')
    .requiredOption('-f, --file <path...>', 'files or directories of resources')
    .option('--namespace <ns>', 'namespace for resources that name none', 'default')
    .action(async (flags: { file: string[]; namespace: string }, command: Command) => {
      const target = await apiTarget(command.optsWithGlobals() as Globals);
      let index = 0;
      let failed = 0;
      let applied = 0;
      for (const path of flags.file) {
        // Namespaces first: the API writes only into namespaces that exist, and a directory's files come in name order.
        const namespacesFirst = readResourceFiles(path)
          .flatMap((file) => file.resources)
          .sort((a, b) => Number(b.type === 'Namespace') - Number(a.type === 'Namespace'));
        for (const resource of namespacesFirst) {
          index++;
          const metadata = { ...(resource.spec?.metadata ?? {}), ...(resource.metadata ?? {}) } as Json;
          const name = String(metadata.name ?? '');
          const put = resolvePut(resource, metadata, name, flags.namespace);
          if ('error' in put) {
            process.stderr.write(`resource #${index} with name "${name}": ${put.error}\n`);
            failed++;
            continue;
          }
          const { url, body } = put;
          const reply = await request(target, 'PUT', url, body);
          if (reply.status >= 200 && reply.status < 300) applied++;
          else {
            failed++;
            process.stderr.write(
              `error putting resource #${index} with name "${name}" and namespace "${metadata.namespace ?? ''}" (${url}): ${apiMessage(reply)}\n`,
            );
          }
        }
      }
      process.stdout.write(`applied ${applied} of ${index} resources\n`);
      if (failed > 0) throw new CheckbridgeError('CB_RUNTIME', `${failed} resources failed`);
    });
}

type ClusterDumps = Map<string, { key: string; kind: ClusterKind }>;

/** The documents of one wanted type, read from the API in the order `dump` prints them. */
async function dumpType(target: ApiTarget, want: string, byPath: Record<string, string>, clusterDumps: ClusterDumps, namespace: string): Promise<Json[]> {
  const documents: Json[] = [];
  const enterpriseUrl = enterpriseList(want) ?? secretsDumpUrl(want, namespace);
  if (enterpriseUrl) {
    const reply = await request(target, 'GET', enterpriseUrl);
    if (reply.status !== 200) throw apiError(reply);
    documents.push(...(JSON.parse(reply.text) as Json[]));
    return documents;
  }
  const cluster = clusterDumps.get(want) ?? [...clusterDumps.values()].find(({ key }) => key === want || key.endsWith(`.${want}`));
  if (cluster) {
    const reply = await request(target, 'GET', cluster.kind.collection);
    if (reply.status !== 200) throw apiError(reply);
    documents.push(...clusterDocuments(cluster.key, cluster.kind, JSON.parse(reply.text) as Json[]));
    return documents;
  }
  const path = byPath[want]
    ? want
    : (Object.entries(byPath).find(([, type]) => type === want)?.[0] ?? (want === 'namespaces' || want === 'Namespace' ? 'namespaces' : null));
  if (!path) throw new CheckbridgeError('CB_CLI_USAGE', `unknown type ${want}`);
  const url = path === 'namespaces' ? '/api/core/v2/namespaces' : `/api/core/v2/namespaces/${encodeURIComponent(namespace)}/${path}`;
  const reply = await request(target, 'GET', url);
  if (reply.status !== 200) throw apiError(reply);
  for (const item of JSON.parse(reply.text) as Json[]) {
    const { metadata, ...spec } = item;
    documents.push(
      path === 'namespaces'
        ? { type: 'Namespace', api_version: 'core/v2', metadata: { name: item.name }, spec: { name: item.name } }
        : { type: byPath[path], api_version: 'core/v2', metadata, spec },
    );
  }
  return documents;
}

/** `dump TYPES`: resources read back from a v2 API as YAML or wrapped JSON, ready for `create -f`. */
function registerDumpCommand(program: Command): void {
  program
    .command('dump')
    .description(
      'read resources back from a v2 API: checks, hooks, filters, handlers, mutators, pipelines, entities, silenced, assets, roles, rolebindings, namespaces, clusterroles, clusterrolebindings, authproviders, store/v1.PostgresConfig, providers, secrets, or all',
    )
    .argument('<types>', 'comma-separated types, or all')
    .option('--format <format>', 'yaml or wrapped-json', 'yaml')
    .option('--namespace <ns>', 'namespace', 'default')
    .action(async (types: string, flags: { format: string; namespace: string }, command: Command) => {
      const target = await apiTarget(command.optsWithGlobals() as Globals);
      const byPath = Object.fromEntries(
        Object.entries(PATHS)
          .filter(([t]) => !['Check', 'Hook'].includes(t))
          .map(([type, path]) => [path, type]),
      );
      const wanted =
        types === 'all' ? ['namespaces', ...Object.keys(byPath), ...SECRETS_DUMP_TYPES] : types.split(',').map((t) => t.trim().replace(/^core\/v2\./, ''));
      const documents: Json[] = [];
      const clusterDumps = new Map([...CLUSTER_KINDS].map(([key, kind]) => [kind.dumpName, { key, kind }]));
      if (types === 'all') wanted.push(...clusterDumps.keys());
      for (const want of wanted) documents.push(...(await dumpType(target, want, byPath, clusterDumps, flags.namespace)));
      process.stdout.write(
        flags.format === 'wrapped-json'
          ? documents.map((d) => JSON.stringify(d, null, 2) + '\n').join('')
          : documents.map((d) => stringify(d, { lineWidth: 0 })).join('---\n'),
      );
    });
}
