import { statSync } from 'node:fs';
import { watch, type FSWatcher } from 'chokidar';
import type { Logger } from 'pino';
import type { ConfigSources } from './sources.js';
import type { LoadedFile } from './load.js';
import { loadSettings, type LoadOutcome } from './load-settings.js';
import { canonicalKey } from './merge.js';
import type { Settings, CheckDefinition } from './settings.js';
import { formatDiagnostic, type Diagnostic } from './diagnostic.js';

export interface SettingsDiff {
  readonly added: readonly CheckDefinition[];
  readonly changed: readonly CheckDefinition[];
  readonly removed: readonly string[];
  readonly clientChanged: boolean;
  /** Handlers, filters, mutators or other top-level settings differ. */
  readonly otherChanged: boolean;
}

export function diffSettings(before: Settings, after: Settings): SettingsDiff {
  const added: CheckDefinition[] = [];
  const changed: CheckDefinition[] = [];
  const removed: string[] = [];
  for (const [name, check] of Object.entries(after.checks)) {
    const old = before.checks[name];
    if (!old) added.push(check);
    else if (canonicalKey(old) !== canonicalKey(check)) changed.push(check);
  }
  for (const name of Object.keys(before.checks)) if (!after.checks[name]) removed.push(name);
  const rest = (s: Settings) => canonicalKey({ ...s.raw, checks: null, client: null });
  return {
    added,
    changed,
    removed,
    clientChanged: canonicalKey(before.client) !== canonicalKey(after.client),
    otherChanged: rest(before) !== rest(after),
  };
}

export function isEmptyDiff(diff: SettingsDiff): boolean {
  return !diff.added.length && !diff.changed.length && !diff.removed.length && !diff.clientChanged && !diff.otherChanged;
}

export interface SettingsWatcher {
  /** The last good settings. */
  current(): Settings;
  /** Diagnostics of the newest load; empty when it was good. */
  diagnostics(): readonly Diagnostic[];
  onChange(listener: (diff: SettingsDiff, settings: Settings) => void): void;
  /** Reload now (SIGHUP uses this, the watcher too): everything is re-read. */
  reload(): Promise<void>;
  /** Resolves once chokidar has its initial scan done. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export interface WatchOptions {
  readonly sources: ConfigSources;
  readonly initial: LoadOutcome & { settings: Settings };
  readonly logger: Logger;
  readonly debounceMs?: number;
  readonly env?: NodeJS.ProcessEnv;
}

/** Watches every source; on change re-reads only the changed files, re-merges, re-validates, publishes a diff. */
export function watchSettings(options: WatchOptions): SettingsWatcher {
  const { sources, logger } = options;
  const log = logger.child({ component: 'config-watch' });
  let good = options.initial.settings;
  let lastDiagnostics: readonly Diagnostic[] = [];
  // A file is re-read when its mtime or size moved; unchanged files keep their parse.
  const stamp = (path: string): string => {
    try {
      const s = statSync(path);
      return `${s.mtimeMs}:${s.size}:${s.ino}`;
    } catch {
      return 'missing';
    }
  };
  let cache = new Map<string, { file: LoadedFile; stamp: string }>(options.initial.files.map((f) => [f.path, { file: f, stamp: stamp(f.path) }]));
  const listeners: ((diff: SettingsDiff, settings: Settings) => void)[] = [];
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();

  const apply = (full: boolean): void => {
    const stamps = new Map<string, string>();
    const outcome = loadSettings(sources, options.env ?? process.env, (path) => {
      const now = stamp(path);
      stamps.set(path, now);
      const hit = cache.get(path);
      return !full && hit && hit.stamp === now ? hit.file : undefined;
    });
    cache = new Map(outcome.files.map((f) => [f.path, { file: f, stamp: stamps.get(f.path) ?? stamp(f.path) }]));
    lastDiagnostics = outcome.diagnostics;
    if (!outcome.settings) {
      for (const d of outcome.diagnostics) log.error({ file: d.file, line: d.line, path: d.path }, formatDiagnostic(d));
      log.error({ errors: outcome.diagnostics.length }, 'configuration is invalid; keeping the last good settings');
      return;
    }
    const diff = diffSettings(good, outcome.settings);
    good = outcome.settings;
    if (isEmptyDiff(diff)) return;
    log.info(
      { added: diff.added.map((c) => c.name), changed: diff.changed.map((c) => c.name), removed: diff.removed, clientChanged: diff.clientChanged },
      'settings changed',
    );
    for (const listener of listeners) listener(diff, good);
  };

  const schedule = (full: boolean): Promise<void> => {
    running = running.then(() => apply(full)).catch((error) => log.error({ err: error }, 'settings reload failed'));
    return running;
  };

  const paths = [...(sources.configFile ? [sources.configFile] : []), ...sources.configDirs];
  const watcher: FSWatcher = watch(paths, { ignoreInitial: true, atomic: true, ignored: (p) => /(^|[/\\])\.[^/\\]/.test(p) && !paths.includes(p) });
  const onEvent = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      void schedule(false);
    }, options.debounceMs ?? 100);
  };
  watcher.on('add', onEvent).on('change', onEvent).on('unlink', onEvent).on('unlinkDir', onEvent).on('addDir', onEvent);
  watcher.on('error', (error) => log.error({ err: error }, 'config watcher error'));
  const readyPromise = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));

  return {
    current: () => good,
    diagnostics: () => lastDiagnostics,
    onChange: (listener) => void listeners.push(listener),
    reload: () => schedule(true),
    ready: () => readyPromise,
    close: async () => {
      if (timer) clearTimeout(timer);
      await watcher.close();
      await running;
    },
  };
}
