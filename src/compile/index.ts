import type { Settings, LoadedFile, Diagnostic } from '../config/index.js';
import { locateSetting } from '../config/index.js';
import { KIND_ORDER, resource, type CompileContext, type CompileResult, type Resource } from './model.js';
import { emitChecks } from './checks.js';
import { emitFilters, emitHandlers, emitMutators } from './handlers.js';
import { emitEntities } from './entities.js';

export { formatResources, writeResources, type OutputFormat } from './output.js';
export type { Resource, CompileResult } from './model.js';

/** Legacy settings → core/v2 resources, sorted by kind then name; every unmapped attribute is a located warning. */
export function compileSettings(settings: Settings, files: readonly LoadedFile[], namespace: string, silences: Record<string, unknown>[] = []): CompileResult {
  const warnings: Diagnostic[] = [];
  const ctx: CompileContext = {
    namespace,
    warn: (segments, message) => warnings.push(locateSetting(files, segments, message, 'CB_COMPILE_UNMAPPED')),
    labelsRead: new Map(),
    labelReport: {},
  };
  for (const name of Object.keys(settings.extensions).sort()) ctx.warn(['extensions', name], 'extensions have no v2 equivalent: not emitted');
  const resources: Resource[] = [
    resource('Namespace', namespace, null, { name: namespace }),
    ...emitChecks(settings, ctx, String(settings.client.name)),
    ...emitFilters(settings, ctx),
    ...emitMutators(settings, ctx),
    ...emitHandlers(settings, ctx),
  ];
  resources.push(...emitEntities(settings, ctx, ctx.labelsRead));
  for (const entry of silences) {
    const id = String(entry.id);
    const name = id.replace(/\*/g, '_').replace(/[^\w.\-:]/g, '_');
    resources.push(resource('Silenced', name, namespace, {
      ...(entry.subscription ? { subscription: entry.subscription } : {}),
      ...(entry.check ? { check: entry.check } : {}),
      begin: entry.begin ?? 0,
      expire: typeof entry.expire === 'number' ? entry.expire : -1,
      expire_on_resolve: entry.expire_on_resolve === true,
      creator: entry.creator ?? '',
      reason: entry.reason ?? '',
    }));
  }
  const rank = (r: Resource) => KIND_ORDER.indexOf(r.type);
  resources.sort((a, b) => rank(a) - rank(b) || (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0));
  return { resources, warnings, labelReport: ctx.labelReport };
}
