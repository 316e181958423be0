// The Asset resource (core/v2) and its legacy twin under conf.d `assets`: validation and the build an entity gets.
import { evaluateInSandbox, logExpressionFailure } from '../js-sandbox/index.js';
import { assetNameProblem } from '../rules/index.js';
import type { Json } from '../json.js';

/** What to fetch for one entity: the first matching build, or the asset itself. */
export interface AssetBuild {
  readonly url: string;
  readonly sha512: string;
  readonly headers: Readonly<Record<string, string>>;
}

const SHA512 = /^[0-9a-f]{128}$/i;

function stringArrayProblem(value: unknown, what: string): string | null {
  if (value === undefined || value === null) return null;
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? null : `${what} must be an array of strings`;
}

function sourceProblem(source: Json, what: string): string | null {
  // Any url is stored, as in Sensu Go (a dump restores); only an http or https one is ever fetched (`download`).
  if (typeof source.url !== 'string' || source.url === '') return `${what}url must be set`;
  if (typeof source.sha512 !== 'string' || !SHA512.test(source.sha512)) return `${what}sha512 must be 128 hexadecimal characters`;
  const filters = stringArrayProblem(source.filters, `${what}filters`);
  if (filters) return filters;
  const headers = source.headers;
  if (
    headers !== undefined &&
    headers !== null &&
    (typeof headers !== 'object' || Array.isArray(headers) || Object.values(headers).some((v) => typeof v !== 'string'))
  )
    return `${what}headers must map names to strings`;
  return null;
}

/** The first reason an asset definition is invalid, or null: a url and sha512, or builds that each have them. */
export function assetProblem(asset: Json): string | null {
  const builds = asset.builds;
  if (builds === undefined || builds === null || (Array.isArray(builds) && builds.length === 0)) return sourceProblem(asset, '');
  if (!Array.isArray(builds)) return 'builds must be an array';
  for (const [i, build] of builds.entries()) {
    if (!build || typeof build !== 'object' || Array.isArray(build)) return `builds[${i}] must be an object`;
    const problem = sourceProblem(build as Json, `builds[${i}].`);
    if (problem) return problem;
  }
  return stringArrayProblem(asset.filters, 'filters');
}

/** `runtime_assets` on checks, hooks, handlers and mutators: asset names, or absent. */
export function runtimeAssetsProblem(resource: Json): string | null {
  const names = resource.runtime_assets;
  if (names === undefined || names === null) return null;
  if (!Array.isArray(names) || names.some((n) => assetNameProblem(n) !== null)) return 'runtime_assets must be an array of asset names';
  return null;
}

/** Every filter true; a failing expression does not match (as a failing event filter expression), logged once. */
export async function filtersMatch(filters: readonly string[], entity: Json, namespace = ''): Promise<boolean> {
  if (filters.length === 0) return true;
  // As for event filters, metadata fields (name, namespace, labels) read from the entity itself; run in the sandbox.
  const scope = { entity: { ...entity, ...(entity.metadata ?? {}) } };
  const options = { nowMs: Date.now(), entity: String(entity.metadata?.name ?? ''), namespace };
  for (const expression of filters) {
    const outcome = await evaluateInSandbox(String(expression), scope, options);
    if (!outcome.ok && outcome.report)
      logExpressionFailure({ expression: String(expression), error: outcome.error }, 'asset filter expression failed: it does not match');
    if (!outcome.ok || !outcome.matched) return false;
  }
  return true;
}

const headersOf = (value: unknown): Record<string, string> => {
  const out: Record<string, string> = Object.create(null);
  if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) if (typeof v === 'string') out[k] = v;
  return out;
};

/** The build for this entity (first matching build, else the asset's own url when its filters match), or null: not installed. */
export async function selectBuild(asset: Json, matches: (filters: readonly string[]) => boolean | Promise<boolean>): Promise<AssetBuild | null> {
  const builds = Array.isArray(asset.builds) ? (asset.builds as Json[]) : [];
  const filtersOf = (source: Json): string[] => (Array.isArray(source.filters) ? source.filters.map(String) : []);
  if (builds.length === 0) {
    return (await matches(filtersOf(asset))) ? { url: String(asset.url), sha512: String(asset.sha512).toLowerCase(), headers: headersOf(asset.headers) } : null;
  }
  let build: Json | undefined;
  for (const candidate of builds) if (!build && (await matches(filtersOf(candidate)))) build = candidate;
  return build
    ? { url: String(build.url), sha512: String(build.sha512).toLowerCase(), headers: { ...headersOf(asset.headers), ...headersOf(build.headers) } }
    : null;
}
