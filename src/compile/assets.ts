import type { Settings } from '../config/index.js';
import { resource, type CompileContext, type Resource } from './model.js';
import { configuredAssets } from '../config/index.js';
import type { Json } from '../json.js';

/** `runtime_assets` carried as is: the names stay the same, and each asset is emitted as an Asset resource. */
export const runtimeAssetsOf = (definition: Json | undefined): string[] | null =>
  Array.isArray(definition?.runtime_assets) && definition.runtime_assets.length > 0 ? definition.runtime_assets.map(String) : null;

const build = (b: Json): Json => ({
  url: String(b.url ?? ''),
  sha512: String(b.sha512 ?? ''),
  filters: Array.isArray(b.filters) ? b.filters.map(String) : null,
  headers: b.headers && typeof b.headers === 'object' ? b.headers : null,
});

/** The top-level `assets` category (a checkbridge extension of legacy configuration) → core/v2 Asset resources. */
export function emitAssets(settings: Settings, ctx: CompileContext): Resource[] {
  const assets = configuredAssets(settings) as Record<string, Json>;
  const out: Resource[] = [];
  for (const name of Object.keys(assets).sort()) {
    const asset = assets[name]!;
    const spec: Json = Array.isArray(asset.builds) && asset.builds.length > 0 ? { builds: asset.builds.map(build) } : build(asset);
    if (spec.builds && asset.headers) for (const b of spec.builds) b.headers ??= asset.headers;
    out.push(resource('Asset', name, ctx.namespace, spec));
    ctx.became.set(`assets.${name}`, [`Asset/${name}`]);
  }
  return out;
}
