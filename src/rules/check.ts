// A CheckConfig's rules (Sensu Go's CheckConfig.Validate, the name aside), and the parts an event's check shares with it.
import { goCronProblem } from '../time/index.js';
import { expressionsProblem } from './expressions.js';
import { METRIC_FORMATS, isOneOf } from './enumerations.js';
import { sensuNameProblem } from './names.js';
import type { Json } from '../json.js';

/** One of a cron (robfig's standard syntax) or an interval of at least 1 s, even for a check that only runs ad hoc. */
function scheduleProblem(c: Json): string | null {
  if (c.cron) {
    if (Number(c.interval) > 0) return 'must only specify either an interval or a cron schedule';
    const problem = goCronProblem(String(c.cron));
    return problem ? `check cron string is invalid: ${problem}` : null;
  }
  return Number.isInteger(c.interval) && c.interval >= 1 ? null : 'check interval must be greater than 0 or a valid cron schedule must be provided';
}

/** A ttl longer than the interval, and at least 5 s (Sensu Go's event validation: every result of a shorter one would be lost). */
export function ttlProblem(ttl: unknown, interval: unknown): string | null {
  const seconds = Number(ttl ?? 0);
  if (!(seconds > 0)) return null;
  if (seconds <= Number(interval ?? 0)) return 'ttl must be greater than check interval';
  return seconds < 5 ? 'minimum ttl is 5 seconds' : null;
}

/** Both flap thresholds set: the low one below the high one. */
export function flapThresholdsProblem(c: Json): string | null {
  const low = Number(c.low_flap_threshold ?? 0);
  const high = Number(c.high_flap_threshold ?? 0);
  return low !== 0 && high !== 0 && low >= high ? `invalid flap thresholds: low_flap_threshold (${low}) must be below high_flap_threshold (${high})` : null;
}

/** A proxy entity name, when given, is a name. */
export const proxyEntityNameProblem = (c: Json): string | null => (c.proxy_entity_name ? sensuNameProblem(c.proxy_entity_name, 'proxy entity name') : null);

/** Every subscription a non-empty string. */
export function subscriptionsProblem(subscriptions: unknown): string | null {
  if (subscriptions === undefined || subscriptions === null) return null;
  return !Array.isArray(subscriptions) || subscriptions.some((s: unknown) => typeof s !== 'string' || s === '')
    ? 'subscriptions cannot be empty strings'
    : null;
}

function proxyRequestsProblem(proxy: Json | undefined): string | null {
  if (!proxy) return null;
  const coverage = Number(proxy.splay_coverage ?? 0);
  if (coverage > 100) return 'proxy_requests.splay_coverage must be between 0 and 100';
  if (proxy.splay && coverage === 0) return 'proxy_requests.splay_coverage must be greater than 0 if splay is enabled';
  return expressionsProblem('proxy_requests.entity_attributes', proxy.entity_attributes);
}

/** The output metric format, when given, one Sensu Go extracts. */
export function metricFormatProblem(format: unknown): string | null {
  if (!format || isOneOf(METRIC_FORMATS, format)) return null;
  return `output_metric_format ${JSON.stringify(format)} is not valid: one of ${METRIC_FORMATS.join(', ')}`;
}

/** The first reason a CheckConfig's spec is invalid, or null, in Sensu Go's order. A check without a command is accepted (a dump restores). */
export function checkConfigProblem(c: Json): string | null {
  return (
    scheduleProblem(c) ??
    ttlProblem(c.ttl, c.interval) ??
    subscriptionsProblem(c.subscriptions) ??
    proxyEntityNameProblem(c) ??
    proxyRequestsProblem(c.proxy_requests) ??
    metricFormatProblem(c.output_metric_format) ??
    flapThresholdsProblem(c) ??
    (Number(c.max_output_size ?? 0) < 0 ? 'max_output_size must be 0 or more' : null)
  );
}
