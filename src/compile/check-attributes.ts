import { LEGACY_ANNOTATION, type CompileContext } from './model.js';
import type { Json } from '../json.js';

// Fields each mapped by hand in checks.ts; the rest are kept in the legacy-attributes annotation, with a warning.
const MAPPED = new Set([
  'command',
  'subscribers',
  'standalone',
  'publish',
  'interval',
  'cron',
  'handlers',
  'handler',
  'source',
  'ttl',
  'timeout',
  'stdin',
  'low_flap_threshold',
  'high_flap_threshold',
  'proxy_requests',
  'subdue',
  'hooks',
  'output_metric_format',
  'output_metric_handlers',
  'occurrences',
  'refresh',
  'aggregate',
  'aggregates',
  'type',
  'name',
  'extension',
  'ttl_status',
  'auto_resolve',
  'force_resolve',
  'handle',
  'truncate_output',
  'truncate_output_length',
  'secrets',
  'output_metric_tags',
  'runtime_assets',
]);
// Attributes with no v2 equivalent, with the reason given in the warning.
const NO_EQUIVALENT: Record<string, string> = {
  aggregate: 'v2 has no aggregates: kept as an annotation (a pipeline or an aggregate check can consume it)',
  aggregates: 'v2 has no aggregates: kept as an annotation',
  ttl_status: 'v2 TTL events are always status 1',
  force_resolve: 'v2 has no force_resolve on results',
  truncate_output: 'v2 truncates with max_output_size (bytes), not by lines',
  truncate_output_length: 'v2 truncates with max_output_size (bytes), not by lines',
  extension: 'check extensions do not exist in v2',
};
/** Annotations the emitted incident filter reads, so events are handled when legacy handled them. */
export const TYPE_ANNOTATION = 'checkbridge.io/type';
export const AUTO_RESOLVE_ANNOTATION = 'checkbridge.io/auto-resolve';

/** Attributes v2 cannot hold, kept for the legacy annotation, and the annotations the incident filter reads. */
export function keepUnmapped(check: Json, at: (...rest: string[]) => string[], ctx: CompileContext): { kept: Json; annotations: Record<string, string> } {
  const annotations: Record<string, string> = {};
  const kept: Json = {};
  for (const [key, value] of Object.entries(check)) {
    if (!MAPPED.has(key)) {
      kept[key] = value;
      ctx.warn(at(key), `custom attribute ${key}: v2 checks have no custom attributes; kept in the ${LEGACY_ANNOTATION} annotation (filters read it there)`);
    } else if (NO_EQUIVALENT[key]) {
      kept[key] = value;
      ctx.warn(at(key), `${key}: ${NO_EQUIVALENT[key]}`);
    }
  }
  if (check.type === 'metric') {
    kept.type = 'metric';
    annotations[TYPE_ANNOTATION] = 'metric';
    ctx.warn(
      at('type'),
      'type metric: every result is handled, OK ones too, as legacy did (the checkbridge-handled filter reads the checkbridge.io/type annotation)',
    );
  }
  if (check.auto_resolve === false) {
    annotations[AUTO_RESOLVE_ANNOTATION] = 'false';
    ctx.warn(
      at('auto_resolve'),
      'auto_resolve false: resolutions are not handled (the checkbridge-handled filter reads the checkbridge.io/auto-resolve annotation), but Sensu Go still records the OK status on the event, where legacy kept the old one until resolved by hand',
    );
  }
  return { kept, annotations };
}
