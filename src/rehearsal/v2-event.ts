import type { Processed } from '../intake/index.js';
import { translateEvent } from '../v2/index.js';
import { agentLabelsOf } from '../compile/index.js';
import type { Json } from '../json.js';
import type { RehearsalPlan } from './plan.js';
import type { TokenDifference } from './tokens.js';

/** Sensu Go's occurrences and watermark over a history: consecutive results of the same status (eventd's rule, replayed). */
export function v2Occurrences(statuses: readonly number[]): { occurrences: number; watermark: number } {
  let occurrences = 0;
  let watermark = 0;
  for (let n = 1; n <= statuses.length; n++) {
    occurrences = n > 1 && statuses[n - 1] === statuses[n - 2] ? occurrences + 1 : 1;
    if (n > 1 && statuses[n - 2] === 0 && statuses[n - 1] !== 0) watermark = 1;
    else if (occurrences > watermark) watermark++;
  }
  return { occurrences, watermark };
}

/**
 * The event Sensu Go would have made of this legacy result once compiled: its entity carrying the labels compile
 * gives the client, its check carrying the CheckConfig's annotations, pipelines, handlers and subdues, and Sensu Go's
 * own occurrences. Null for a check compile left out.
 */
export function v2EventOf(plan: RehearsalPlan, processed: Processed, labels: Record<string, string>): Json {
  const { event, history } = processed;
  const v2 = translateEvent(event, history, plan.namespace);
  const name = String(event.check.name);
  const config = plan.resources.get(`CheckConfig/${name}`);
  const statuses = (v2.check.history as { status: number }[]).map((h) => h.status);
  const { occurrences, watermark } = v2Occurrences(statuses);
  v2.check.occurrences = occurrences;
  v2.check.occurrences_watermark = watermark;
  v2.entity.metadata.labels = labels;
  if (config) {
    v2.check.metadata.annotations = { ...(config.metadata?.annotations ?? {}) };
    v2.check.handlers = config.handlers ?? [];
    v2.check.interval = config.interval ?? v2.check.interval;
    if (config.subdues) v2.check.subdues = config.subdues;
    v2.pipelines = config.pipelines ?? [];
  }
  return v2;
}

/** What the rehearsal keeps per client record and configuration: its agent labels, and per check the tokens that render differently. */
export interface ClientView {
  readonly labels: Record<string, string>;
  readonly tokens: Map<string, TokenDifference[]>;
}

/** A per-configuration cache of client record → its view (the same record gives the same labels and tokens). */
export function clientViews(plan: RehearsalPlan): (client: Record<string, unknown>) => ClientView {
  const cache = new Map<string, ClientView>();
  return (client) => {
    // A keepalive moves the timestamp only: the same view.
    const key = JSON.stringify({ ...client, timestamp: 0 });
    let view = cache.get(key);
    if (!view) {
      if (cache.size >= 1000) cache.clear();
      cache.set(key, (view = { labels: agentLabelsOf(plan.settings, client, plan.labelsRead, plan.namespace), tokens: new Map() }));
    }
    return view;
  };
}
