import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { toYaml } from './yaml-emit.js';
import type { Resource } from './model.js';

export type OutputFormat = 'yaml' | 'wrapped-json' | 'json';

/** YAML documents separated by `---`; wrapped JSON as back-to-back objects (what `create -f` reads); json as an array. */
export function formatResources(resources: readonly Resource[], format: OutputFormat): string {
  if (format === 'json') return JSON.stringify(resources, null, 2) + '\n';
  if (format === 'wrapped-json') return resources.map((r) => JSON.stringify(r, null, 2) + '\n').join('');
  return resources.map((r) => toYaml(r as unknown as Record<string, unknown>)).join('---\n');
}

/** One file per resource kind, e.g. `checkconfig.yaml`; returns the paths written. */
export function writeResources(dir: string, resources: readonly Resource[], format: OutputFormat): string[] {
  mkdirSync(dir, { recursive: true });
  const byKind = new Map<string, Resource[]>();
  for (const r of resources) byKind.set(r.type, [...(byKind.get(r.type) ?? []), r]);
  const extension = format === 'yaml' ? 'yaml' : 'json';
  return [...byKind].map(([kind, list]) => {
    const path = join(dir, `${kind.toLowerCase()}.${extension}`);
    writeFileSync(path, formatResources(list, format));
    return path;
  });
}
