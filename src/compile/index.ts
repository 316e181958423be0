import type { Settings, LoadedFile, Diagnostic } from '../config/index.js';
import { locateSetting } from '../config/index.js';
import { KIND_ORDER, resource, type CompileContext, type CompileResult, type Resource, type SensuGoVersion } from './model.js';
import { emitChecks } from './checks.js';
import { emitFilters, emitHandlers, emitMutators } from './handlers.js';
import { emitEntities } from './entities.js';
import { emitAssets } from './assets.js';
import { newContext } from './context.js';
import { sensuProblem } from './sensu-rules.js';
import { asSensuName } from '../rules/index.js';

export { formatResources, writeResources, type OutputFormat } from './output.js';
export { parseTarget } from './sensu-rules.js';
export { formatReport, type ReportFormat } from './report.js';
export type { Resource, CompileResult, SensuGoVersion } from './model.js';
export { translateChecks, type TranslatedChecks } from './translate-checks.js';
export { escapeTemplateText } from './go-template.js';
export { agentLabelsOf } from './client-entity.js';
export { templateDeep as agentTemplateOf } from './tokens.js';

export interface CompileOptions {
  readonly silences?: Record<string, unknown>[];
  /** The Sensu Go version the output is for; the latest 6.x by default. */
  readonly target?: SensuGoVersion;
  /** UTC offset (minutes) for legacy times without a zone; the compiling process's by default. */
  readonly localOffsetMinutes?: number;
}

// What changes for every migrated configuration, said once in the report.
const ALWAYS_DIFFERENT = [
  "Every pipeline starts with the checkbridge-handled filter: like legacy, only non-OK results, resolutions, flapping and metric checks' results are handled (a resolution is Sensu Go's: the previous status was not OK).",
  "Time windows (filter when, subdue filters) use the Sensu Go backend's local time where legacy used the legacy server's.",
];

/** Legacy settings → core/v2 resources Sensu Go accepts, sorted by kind then name; every difference is a located warning. */
export function compileSettings(settings: Settings, files: readonly LoadedFile[], namespace: string, options: CompileOptions = {}): CompileResult {
  const { silences = [] } = options;
  const warnings: Diagnostic[] = [];
  const warn: CompileContext['warn'] = (segments, message) => warnings.push(locateSetting(files, segments, message, 'CB_COMPILE_UNMAPPED'));
  const ctx = newContext(settings, namespace, warn, options.target, options.localOffsetMinutes, ALWAYS_DIFFERENT);
  for (const name of Object.keys(settings.extensions).sort()) ctx.warn(['extensions', name], 'extensions have no v2 equivalent: not emitted');
  const checks = emitChecks(settings, ctx, String(settings.client.name));
  const filters = emitFilters(settings, ctx);
  const resources: Resource[] = [
    resource('Namespace', namespace, null, { name: namespace }),
    ...checks,
    ...filters,
    ...ctx.checkFilters.values(),
    ...emitMutators(settings, ctx),
    ...emitHandlers(settings, ctx, new Set(filters.map((f) => f.metadata.name))),
    ...emitAssets(settings, ctx),
  ];
  const proxies = checks.filter((r) => r.type === 'CheckConfig' && r.spec.proxy_entity_name).map((r) => String(r.spec.proxy_entity_name));
  const entities = emitEntities(settings, ctx, ctx.labelsRead, proxies);
  ctx.became.set(
    'client',
    entities.map((e) => `Entity/${e.metadata.name}`),
  );
  resources.push(...entities);
  for (const entry of silences) {
    const id = String(entry.id);
    const name = asSensuName(id);
    resources.push(
      resource('Silenced', name, namespace, {
        ...(entry.subscription ? { subscription: entry.subscription } : {}),
        ...(entry.check ? { check: entry.check } : {}),
        begin: entry.begin ?? 0,
        expire: typeof entry.expire === 'number' ? entry.expire : -1,
        expire_on_resolve: entry.expire_on_resolve === true,
        creator: entry.creator ?? '',
        reason: entry.reason ?? '',
      }),
    );
  }
  // Nothing Sensu Go would refuse is written: one refused document aborts a whole `sensuctl create -f`.
  const refused: { resource: string; reason: string }[] = [];
  const accepted = resources.filter((r) => {
    const reason = sensuProblem(r, ctx.target);
    if (reason) refused.push({ resource: `${r.type}/${r.metadata.name}`, reason });
    return !reason;
  });
  const rank = (r: Resource) => KIND_ORDER.indexOf(r.type);
  accepted.sort((a, b) => rank(a) - rank(b) || (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0));
  return {
    resources: accepted,
    warnings,
    refused,
    labelReport: ctx.labelReport,
    labelsRead: ctx.labelsRead,
    became: ctx.became,
    differences: [...ctx.differences],
  };
}
