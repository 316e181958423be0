import type { ConfigSources } from './sources.js';
import { listConfigFiles, readConfigFile, type LoadedFile } from './load.js';
import { buildSettings, checkSettings, type BuildOutcome, type BuildReport } from './build.js';
import { daemonEnvironment } from './start-environment.js';

export interface LoadOutcome extends BuildOutcome {
  readonly files: readonly LoadedFile[];
}

export interface CheckOutcome extends BuildReport {
  readonly files: readonly LoadedFile[];
}

/** Reads every source and validates, without building the typed settings: what `validate` needs. */
export function checkSources(sources: ConfigSources, env: NodeJS.ProcessEnv = daemonEnvironment()): CheckOutcome {
  const listed = listConfigFiles(sources);
  const files = listed.files.map(readConfigFile);
  const report = checkSettings(files, env);
  return { ...report, diagnostics: [...listed.diagnostics, ...report.diagnostics], files };
}

/** Reads every source afresh and builds settings; `cache` lets the watcher reuse unchanged files. */
export function loadSettings(
  sources: ConfigSources,
  env: NodeJS.ProcessEnv = daemonEnvironment(),
  reuse: (path: string) => LoadedFile | undefined = () => undefined,
): LoadOutcome {
  const listed = listConfigFiles(sources);
  const files = listed.files.map((path) => reuse(path) ?? readConfigFile(path));
  const outcome = buildSettings(files, env);
  return { ...outcome, diagnostics: [...listed.diagnostics, ...outcome.diagnostics], settings: listed.diagnostics.length ? null : outcome.settings, files };
}
