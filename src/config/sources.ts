import { existsSync } from 'node:fs';
import { join } from 'node:path';

export interface ConfigSources {
  readonly configFile: string | null;
  readonly configDirs: readonly string[];
  /** Where the defaults were looked for, when nothing was named and none of them exists. */
  readonly searched?: readonly string[];
}

export interface SourceOptions {
  /** A file, or false for none (not even the legacy default). */
  configFile?: string | false | undefined;
  configDirs?: readonly string[] | undefined;
  /** Where the legacy defaults config.json and conf.d live. */
  legacyRoot?: string | undefined;
}

const LEGACY_ROOT = '/etc/sensu';

// Legacy: -c defaults to /etc/sensu/config.json even when -d is named (sensu-server -d DIR keeps it); with nothing
// named, /etc/sensu/conf.d too; we fall back to ./conf.d.
export function resolveSources(options: SourceOptions, exists: (path: string) => boolean = existsSync): ConfigSources {
  const root = options.legacyRoot ?? LEGACY_ROOT;
  const legacyFile = join(root, 'config.json');
  const dirs = (options.configDirs ?? [])
    .flatMap((d) => d.split(','))
    .map((d) => d.trim())
    .filter((d) => d !== '');
  const configFile = options.configFile === false ? null : (options.configFile ?? (exists(legacyFile) ? legacyFile : null));
  if (options.configFile || dirs.length > 0) return { configFile, configDirs: dirs };
  const legacyDir = join(root, 'conf.d');
  if (exists(legacyDir)) return { configFile, configDirs: [legacyDir] };
  if (configFile) return { configFile, configDirs: [] };
  const searched = options.configFile === false ? ['conf.d'] : [legacyFile, legacyDir, 'conf.d'];
  return exists('conf.d') ? { configFile: null, configDirs: ['conf.d'] } : { configFile: null, configDirs: ['conf.d'], searched };
}
