import { resolve } from 'node:path';
import type { Command } from 'commander';
import { resolveSources, type ConfigSources } from '../config/index.js';
import { loadSettings, checkSources, type LoadOutcome, type CheckOutcome } from '../config/index.js';
import { formatDiagnostic } from '../config/index.js';
import type { Settings } from '../config/index.js';
import { exitCodeOf } from '../errors.js';

export interface SourceFlags {
  configFile?: string | false;
  configDir?: string[];
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(',')];
}

/** Adds the config source flags every settings-reading command takes (legacy -c and -d keep working). */
export function withSourceOptions(command: Command): Command {
  return command
    .option(
      '-c, --config-file <file>',
      'a legacy config.json to load first (env CHECKBRIDGE_CONFIG_FILE; default /etc/sensu/config.json when it exists, also with -d)',
    )
    .option('--no-config-file', 'load no config.json, not even /etc/sensu/config.json')
    .option(
      '-d, --config-dir <dir>',
      'a conf.d directory; repeatable or comma-separated (env CHECKBRIDGE_CONFIG_DIR; default /etc/sensu/conf.d when it exists, else ./conf.d)',
      collect,
    );
}

/** Flag beats environment beats default; positional sources count as directories (or files). */
export function sourcesFrom(flags: SourceFlags, positional: readonly string[] = [], env = process.env): ConfigSources {
  const dirs = [...(flags.configDir ?? []), ...positional];
  return resolveSources({
    // An empty variable is an unset one.
    configFile: flags.configFile ?? (env.CHECKBRIDGE_CONFIG_FILE || undefined),
    configDirs: dirs.length > 0 ? dirs : env.CHECKBRIDGE_CONFIG_DIR ? [env.CHECKBRIDGE_CONFIG_DIR] : [],
    legacyRoot: env.CHECKBRIDGE_LEGACY_ETC || undefined,
  });
}

export interface SourcesRead {
  readonly config_file: string | null;
  readonly config_dirs: readonly { readonly dir: string; readonly files: number }[];
}

/** What loading read, as absolute paths: the config file and each directory with the number of files it gave. */
export function sourcesRead(sources: ConfigSources, files: readonly { readonly path: string }[]): SourcesRead {
  const config_dirs = sources.configDirs.map((dir) => {
    const prefix = dir.endsWith('/') ? dir : `${dir}/`;
    return { dir: resolve(dir), files: files.filter((f) => f.path === dir || f.path.startsWith(prefix)).length };
  });
  return { config_file: sources.configFile === null ? null : resolve(sources.configFile), config_dirs };
}

/** One line an operator reads to know which configuration a command used. */
export function describeSourcesRead(read: SourcesRead): string {
  const parts = [
    ...(read.config_file ? [read.config_file] : []),
    ...read.config_dirs.map(({ dir, files }) => `${dir} (${files} ${files === 1 ? 'file' : 'files'})`),
  ];
  return `configuration read from ${parts.join(', ') || 'nothing'}`;
}

function reportSourcesRead(sources: ConfigSources, files: readonly { readonly path: string }[]): void {
  if (!sources.searched) process.stderr.write(`checkbridge: ${describeSourcesRead(sourcesRead(sources, files))}\n`);
}

export function loadFrom(flags: SourceFlags, positional: readonly string[] = []): LoadOutcome {
  const sources = sourcesFrom(flags, positional);
  const outcome = loadSettings(sources);
  reportSourcesRead(sources, outcome.files);
  return outcome;
}

/** Diagnostics only, for `validate`: the typed settings are never built. */
export function checkFrom(flags: SourceFlags, positional: readonly string[] = []): CheckOutcome & { read: SourcesRead | null } {
  const sources = sourcesFrom(flags, positional);
  const outcome = checkSources(sources);
  reportSourcesRead(sources, outcome.files);
  return { ...outcome, read: sources.searched ? null : sourcesRead(sources, outcome.files) };
}

/** Valid settings, or the diagnostics on stderr, `configuration is invalid`, the exit code set, and null. */
export function loadValidOrReport(flags: SourceFlags, positional: readonly string[] = [], exitCode = 2): Settings | null {
  const outcome = loadFrom(flags, positional);
  if (outcome.settings) return outcome.settings;
  for (const diagnostic of outcome.diagnostics) process.stderr.write(formatDiagnostic(diagnostic) + '\n');
  process.stderr.write('configuration is invalid\n');
  process.exitCode = exitCode;
  return null;
}

/** A daemon's start: valid settings (with what loading said), or the diagnostics on stderr and exit code 78. */
export function loadOrRefuse(sources: ConfigSources): (LoadOutcome & { settings: Settings }) | null {
  const outcome = loadSettings(sources);
  if (outcome.settings) return outcome as LoadOutcome & { settings: Settings };
  reportSourcesRead(sources, outcome.files);
  for (const diagnostic of outcome.diagnostics) process.stderr.write(formatDiagnostic(diagnostic) + '\n');
  process.stderr.write('configuration is invalid: refusing to start\n');
  process.exitCode = exitCodeOf('CB_CONFIG_REFUSED');
  return null;
}
