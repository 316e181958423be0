// What an execution needs from its runtime assets: the installed directories on PATH, LD_LIBRARY_PATH and CPATH.
import type { Logger } from 'pino';
import type { SpawnOptions, SpawnResult, PathPrepend } from '../execute/index.js';
import { selectBuild, filtersMatch } from './definitions.js';
import type { AssetCache } from './cache.js';
import type { Json } from '../json.js';

export type Prepared = { readonly ok: true; readonly prepend: PathPrepend } | { readonly ok: false; readonly output: string };
/** Prepares the named assets (in the order listed) for one execution. */
export type AssetResolver = (names: readonly string[]) => Promise<Prepared>;
/** One asset definition by name, or null. */
export type AssetLookup = (name: string) => Json | null;
type Run = (command: string, options: SpawnOptions) => Promise<SpawnResult>;

/** `bin/`, `lib/` and `include/` of each asset, first listed first. */
function pathsOf(dirs: readonly string[]): PathPrepend {
  return { PATH: dirs.map((d) => `${d}/bin`), LD_LIBRARY_PATH: dirs.map((d) => `${d}/lib`), CPATH: dirs.map((d) => `${d}/include`) };
}

export class RuntimeAssets {
  // Filter verdicts by filters and entity: the same asset on the same host need not re-run its expressions.
  private readonly verdicts = new Map<string, boolean>();
  // Verdicts being reached: callers asking meanwhile share the one evaluation.
  private readonly deciding = new Map<string, Promise<boolean>>();

  constructor(
    private readonly cache: AssetCache,
    /** The local entity filters read (its `system` from the host). */
    private readonly entity: () => Json,
    private readonly log: Logger,
  ) {}

  /** A resolver over one set of definitions (conf.d `assets`, or a namespace's Asset resources, whose sandbox time filters use). */
  resolver(lookup: AssetLookup, namespace = ''): AssetResolver {
    return (names) => this.prepare(names, lookup, namespace);
  }

  private async prepare(names: readonly string[], lookup: AssetLookup, namespace: string): Promise<Prepared> {
    const entity = this.entity();
    const entityKey = JSON.stringify(entity);
    const installs: Promise<string | null>[] = names.map(async (name) => {
      const definition = lookup(name);
      if (!definition) {
        this.log.warn({ asset: name }, 'asset not found: not installed');
        return null;
      }
      const build = await selectBuild(definition, (filters) => this.matches(filters, entity, entityKey, namespace));
      if (!build) {
        this.log.debug({ asset: name }, 'asset filters do not match this entity: not installed');
        return null;
      }
      return this.cache.install(name, build).catch((error: Error) => {
        this.log.warn({ asset: name, url: build.url, error: error.message }, 'asset install failed');
        throw new Error(`error getting asset ${name}: ${error.message}`);
      });
    });
    try {
      const dirs = (await Promise.all(installs)).filter((d): d is string => d !== null);
      return { ok: true, prepend: pathsOf(dirs) };
    } catch (error) {
      return { ok: false, output: (error as Error).message };
    }
  }

  private matches(filters: readonly string[], entity: Json, entityKey: string, namespace: string): boolean | Promise<boolean> {
    const key = JSON.stringify(filters) + '\u0000' + entityKey;
    const verdict = this.verdicts.get(key);
    if (verdict !== undefined) return verdict;
    let deciding = this.deciding.get(key);
    if (!deciding) {
      deciding = filtersMatch(filters, entity, namespace).then((matched) => {
        if (this.verdicts.size > 1000) this.verdicts.clear();
        this.verdicts.set(key, matched);
        return matched;
      });
      this.deciding.set(key, deciding);
      void deciding.finally(() => this.deciding.delete(key));
    }
    return deciding;
  }
}

/** `run` with the named assets on the paths; an asset that cannot be installed fails the execution with status 3. */
export function withAssets(run: Run, assets: AssetResolver | undefined, names: unknown): Run {
  const list = Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : [];
  if (!assets || list.length === 0) return run;
  return async (command, options) => {
    const prepared = await assets(list);
    if (!prepared.ok) return { status: 3, output: prepared.output, timedOut: false, signal: null, durationMs: 0 };
    return run(command, { ...options, prepend: prepared.prepend });
  };
}
