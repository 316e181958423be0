import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { SCHEMA_VERSION } from '../store/index.js';

export interface VersionInfo {
  readonly version: string;
  readonly commit: string | null;
  readonly built_at: string | null;
  readonly node: string;
  readonly store_schemas: Record<string, number>;
}

const readJson = (relative: string): Record<string, unknown> | null => {
  try {
    return JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as Record<string, unknown>;
  } catch {
    return null;
  }
};

function versionInfo(): VersionInfo {
  const build = readJson('../../build-info.json');
  return {
    version: String(readJson('../../../package.json')?.version ?? 'unknown'),
    commit: typeof build?.commit === 'string' ? build.commit : null,
    built_at: typeof build?.built_at === 'string' ? build.built_at : null,
    node: process.version,
    store_schemas: { sqlite: SCHEMA_VERSION },
  };
}

export function versionText(info = versionInfo()): string {
  const schemas = Object.entries(info.store_schemas)
    .map(([store, version]) => `${store} ${version}`)
    .join(', ');
  return `checkbridge version ${info.version}, build ${info.commit ?? 'unknown'}, built ${info.built_at ?? 'unknown'}, node ${info.node}\nstore schemas: ${schemas}`;
}

export function registerVersion(program: Command): void {
  program
    .command('version')
    .description('print the version, the build commit and the store schema versions')
    .option('--json', 'print JSON for scripts')
    .action((flags: { json?: boolean }) => {
      const info = versionInfo();
      process.stdout.write((flags.json ? JSON.stringify(info) : versionText(info)) + '\n');
    });
}
