import { statSync, watch as watchNative, type FSWatcher as NativeWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { Logger } from 'pino';
import { loadSettings, canonicalKey, formatDiagnostic, daemonEnvironment } from '../config/index.js';
import type { ConfigSources, LoadedFile, LoadOutcome, Settings, CheckDefinition, Diagnostic } from '../config/index.js';

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

function isEmptyDiff(diff: SettingsDiff): boolean {
  return !diff.added.length && !diff.changed.length && !diff.removed.length && !diff.clientChanged && !diff.otherChanged;
}

export interface SettingsWatcher {
  /** The last good settings. */
  current(): Settings;
  /** Diagnostics of the newest load; empty when it was good. */
  diagnostics(): readonly Diagnostic[];
  onChange(listener: (diff: SettingsDiff, settings: Settings) => void): void;
  /** Reload now (SIGHUP uses this, the watcher too): the watches are set up afresh and everything is re-read. */
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

/** A path's identity: a directory deleted and recreated, or renamed over, is another one. */
function identity(path: string): string {
  try {
    const s = statSync(path);
    return `${s.dev}:${s.ino}`;
  } catch {
    return 'missing';
  }
}

/** A file's stamp: it is re-read when its mtime or size moved; unchanged files keep their parse. */
function fileStamp(path: string): string {
  try {
    const s = statSync(path);
    return `${s.mtimeMs}:${s.size}:${s.ino}`;
  } catch {
    return 'missing';
  }
}

type FileCache = Map<string, { file: LoadedFile; stamp: string }>;

/** Loads the settings again, re-reading only the files whose stamp moved (every file when full); the new cache goes with it. */
function loadAgain(sources: ConfigSources, env: NodeJS.ProcessEnv, cache: FileCache, full: boolean): { outcome: LoadOutcome; cache: FileCache } {
  const stamps = new Map<string, string>();
  const outcome = loadSettings(sources, env, (path) => {
    const now = fileStamp(path);
    stamps.set(path, now);
    const hit = cache.get(path);
    return !full && hit && hit.stamp === now ? hit.file : undefined;
  });
  return { outcome, cache: new Map(outcome.files.map((f) => [f.path, { file: f, stamp: stamps.get(f.path) ?? fileStamp(f.path) }])) };
}

interface SourceWatches {
  /** Resolves once the first watches have their initial scan done. */
  readonly ready: Promise<void>;
  /** Sets the watches up afresh: always, or (not always) only when a source really was replaced. */
  rearm(always: boolean): Promise<void>;
  /** Waits for a re-arm under way, then closes every watch. */
  close(): Promise<void>;
}

/**
 * Watches the sources with chokidar, and each source's parent natively: when a source is replaced (deleted and
 * recreated, or renamed over, as deployment tools do) the watch on the old one is dead, so it is set up again.
 */
function watchSources(paths: string[], log: Logger, onEvent: () => void, isClosed: () => boolean): SourceWatches {
  const names = new Set(paths.map((p) => basename(p)));
  let watcher: FSWatcher;
  let parents: NativeWatcher[] = [];
  let armedAs: string[] = [];
  const replaced = () => paths.some((p, i) => identity(p) !== armedAs[i]);
  const onParentEvent = (name: string | Buffer | null) => {
    if ((name === null || names.has(String(name))) && replaced()) void rearm(false);
  };
  const arm = (): Promise<void> => {
    armedAs = paths.map(identity);
    watcher = watch(paths, { ignoreInitial: true, atomic: true, ignored: (p) => /(^|[/\\])\.[^/\\]/.test(p) && !paths.includes(p) });
    watcher.on('add', onEvent).on('change', onEvent).on('unlink', onEvent).on('unlinkDir', onEvent).on('addDir', onEvent);
    watcher.on('error', (error) => log.error({ err: error }, 'config watcher error'));
    parents = [...new Set(paths.map((p) => dirname(p)))].flatMap((dir) => {
      try {
        const parent = watchNative(dir, (_kind, name) => onParentEvent(name));
        parent.on('error', (error) => log.warn({ err: error, dir }, 'config parent watcher error'));
        return [parent];
      } catch (error) {
        log.warn({ err: error, dir }, 'cannot watch the parent of a configuration source: a replaced source is seen on SIGHUP only');
        return [];
      }
    });
    const armed = watcher;
    return new Promise<void>((resolve) => armed.once('ready', () => resolve()));
  };
  const disarm = async (): Promise<void> => {
    for (const parent of parents.splice(0)) parent.close();
    await watcher.close();
  };
  // One re-arm at a time; a re-arm asked for by the parent watch only when a source really was replaced.
  let arming: Promise<void> = Promise.resolve();
  const rearm = (always: boolean): Promise<void> => {
    arming = arming
      .then(async () => {
        if (isClosed() || (!always && !replaced())) return;
        await disarm();
        if (!always) log.info({ paths }, 'a configuration source was replaced: watching it afresh');
        await arm();
        if (!always) onEvent();
      })
      .catch((error) => log.error({ err: error }, 'config watcher could not be set up again'));
    return arming;
  };
  const ready = arm();
  return {
    ready,
    rearm,
    close: async () => {
      await arming;
      await disarm();
    },
  };
}

/**
 * Watches every source; on change re-reads only the changed files, re-merges, re-validates, publishes a diff.
 * A replaced source is watched again (see watchSources).
 */
export function watchSettings(options: WatchOptions): SettingsWatcher {
  const { sources, logger } = options;
  const log = logger.child({ component: 'config-watch' });
  let good = options.initial.settings;
  let lastDiagnostics: readonly Diagnostic[] = [];
  // Set by an invalid edit: the next valid load says so, even when it changes nothing.
  let broken = false;
  let cache: FileCache = new Map(options.initial.files.map((f) => [f.path, { file: f, stamp: fileStamp(f.path) }]));
  const listeners: ((diff: SettingsDiff, settings: Settings) => void)[] = [];
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();

  const apply = (full: boolean): void => {
    const loaded = loadAgain(sources, options.env ?? daemonEnvironment(), cache, full);
    const outcome = loaded.outcome;
    cache = loaded.cache;
    lastDiagnostics = outcome.diagnostics;
    if (!outcome.settings) {
      for (const d of outcome.diagnostics) log.error({ file: d.file, line: d.line, path: d.path }, formatDiagnostic(d));
      log.error({ errors: outcome.diagnostics.length }, 'configuration is invalid; keeping the last good settings');
      broken = true;
      return;
    }
    if (broken) log.info({ files: outcome.files.length }, 'configuration is valid again');
    broken = false;
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
  let closed = false;
  const onEvent = () => {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      void schedule(false);
    }, options.debounceMs ?? 100);
  };
  const watches = watchSources(paths, log, onEvent, () => closed);

  return {
    current: () => good,
    diagnostics: () => lastDiagnostics,
    onChange: (listener) => void listeners.push(listener),
    reload: () => watches.rearm(true).then(() => schedule(true)),
    ready: () => watches.ready,
    close: async () => {
      closed = true;
      if (timer) clearTimeout(timer);
      await watches.close();
      await running;
    },
  };
}
