import type { Command } from 'commander';
import { resolveSources, type ConfigSources } from '../config/index.js';
import { loadSettings, checkSources, type LoadOutcome, type CheckOutcome } from '../config/index.js';
import { formatDiagnostic } from '../config/index.js';
import type { Settings } from '../config/index.js';
import { exitCodeOf } from '../errors.js';

export interface SourceFlags {
  configFile?: string;
  configDir?: string[];
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(',')];
}

/** Adds the config source flags every settings-reading command takes (legacy -c and -d keep working). */
export function withSourceOptions(command: Command): Command {
  return command
    .option('-c, --config-file <file>', 'a legacy config.json to load first (env CHECKBRIDGE_CONFIG_FILE)')
    .option('-d, --config-dir <dir>', 'a conf.d directory; repeatable or comma-separated (env CHECKBRIDGE_CONFIG_DIR)', collect);
}

/** Flag beats environment beats default; positional sources count as directories (or files). */
export function sourcesFrom(flags: SourceFlags, positional: readonly string[] = [], env = process.env): ConfigSources {
  const dirs = [...(flags.configDir ?? []), ...positional];
  return resolveSources({
    configFile: flags.configFile ?? env.CHECKBRIDGE_CONFIG_FILE,
    configDirs: dirs.length > 0 ? dirs : env.CHECKBRIDGE_CONFIG_DIR ? [env.CHECKBRIDGE_CONFIG_DIR] : [],
  });
}

export function loadFrom(flags: SourceFlags, positional: readonly string[] = []): LoadOutcome {
  return loadSettings(sourcesFrom(flags, positional));
}

/** Diagnostics only, for `validate`: the typed settings are never built. */
export function checkFrom(flags: SourceFlags, positional: readonly string[] = []): CheckOutcome {
  return checkSources(sourcesFrom(flags, positional));
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
  for (const diagnostic of outcome.diagnostics) process.stderr.write(formatDiagnostic(diagnostic) + '\n');
  process.stderr.write('configuration is invalid: refusing to start\n');
  process.exitCode = exitCodeOf('CB_CONFIG_REFUSED');
  return null;
}
