import { existsSync } from 'node:fs';

export interface ConfigSources {
  readonly configFile: string | null;
  readonly configDirs: readonly string[];
}

export interface SourceOptions {
  configFile?: string | undefined;
  configDirs?: readonly string[] | undefined;
}

// Legacy: /etc/sensu/config.json and /etc/sensu/conf.d when they exist; we fall back to ./conf.d.
export function resolveSources(options: SourceOptions, exists: (path: string) => boolean = existsSync): ConfigSources {
  const dirs = (options.configDirs ?? []).flatMap((d) => d.split(',')).map((d) => d.trim()).filter((d) => d !== '');
  if (options.configFile || dirs.length > 0) {
    return { configFile: options.configFile ?? null, configDirs: dirs };
  }
  const legacyFile = exists('/etc/sensu/config.json') ? '/etc/sensu/config.json' : null;
  const legacyDir = exists('/etc/sensu/conf.d') ? ['/etc/sensu/conf.d'] : [];
  if (legacyFile || legacyDir.length > 0) return { configFile: legacyFile, configDirs: legacyDir };
  return { configFile: null, configDirs: ['conf.d'] };
}
