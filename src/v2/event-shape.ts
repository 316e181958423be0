// core/v2 JSON shapes: which keys are always present, null vs [], and key order.
import type { Json } from '../json.js';
import { redactedLabels } from '../config/index.js';

export function shapeMetadata(meta: Json | undefined): Json {
  const out: Json = {};
  for (const key of ['name', 'namespace', 'labels', 'annotations', 'created_by']) {
    const value = meta?.[key];
    if (value !== undefined && value !== null && value !== '' && !(typeof value === 'object' && Object.keys(value).length === 0)) out[key] = value;
  }
  return out;
}

/** The entity's metadata with the labels and annotations the one redaction policy names (its `redact` list too) as REDACTED. */
export function redactedMetadata(entity: Json): Json {
  return redactedLabels(shapeMetadata(entity.metadata), entity.redact);
}

export function shapeEntity(entity: Json): Json {
  const system = (entity.system ?? {}) as Json;
  const metadata = redactedMetadata(entity);
  return {
    entity_class: entity.entity_class ?? 'proxy',
    system: {
      ...Object.fromEntries(['hostname', 'os', 'platform', 'platform_family', 'platform_version'].filter((k) => system[k]).map((k) => [k, system[k]])),
      network: { interfaces: system.network?.interfaces ?? null },
      ...(system.arch ? { arch: system.arch } : {}),
      libc_type: system.libc_type ?? '',
      vm_system: system.vm_system ?? '',
      vm_role: system.vm_role ?? '',
      cloud_provider: system.cloud_provider ?? '',
      processes: system.processes ?? null,
    },
    subscriptions: entity.subscriptions ?? null,
    last_seen: entity.last_seen ?? 0,
    deregister: entity.deregister ?? false,
    deregistration: entity.deregistration ?? {},
    ...(entity.user ? { user: entity.user } : {}),
    ...(Array.isArray(entity.redact) && entity.redact.length > 0 ? { redact: entity.redact } : {}),
    metadata,
    sensu_agent_version: entity.sensu_agent_version ?? entity.svc_agent_version ?? '',
  };
}

const nullable = (v: unknown) => (v === undefined ? null : v);

export function shapeCheck(check: Json): Json {
  const out: Json = {};
  const set = (key: string, value: unknown, omitEmpty = false) => {
    if (omitEmpty && (value === undefined || value === null || value === '' || value === 0 || (Array.isArray(value) && value.length === 0))) return;
    out[key] = value;
  };
  set('command', check.command, true);
  set('handlers', check.handlers ?? []);
  set('high_flap_threshold', check.high_flap_threshold ?? 0);
  set('interval', check.interval ?? 0);
  set('low_flap_threshold', check.low_flap_threshold ?? 0);
  set('publish', check.publish ?? false);
  set('runtime_assets', nullable(check.runtime_assets));
  set('subscriptions', check.subscriptions ?? []);
  set('proxy_entity_name', check.proxy_entity_name ?? '');
  set('check_hooks', nullable(check.check_hooks));
  set('stdin', check.stdin ?? false);
  set('subdue', nullable(check.subdue));
  set('cron', check.cron, true);
  set('ttl', check.ttl ?? 0);
  set('timeout', check.timeout ?? 0);
  set('proxy_requests', check.proxy_requests, true);
  set('round_robin', check.round_robin ?? false);
  set('duration', check.duration, true);
  set('executed', check.executed ?? 0);
  set('history', nullable(check.history));
  set('issued', check.issued ?? 0);
  set('output', check.output ?? '');
  set('state', check.state, true);
  set('status', check.status ?? 0);
  set('total_state_change', check.total_state_change ?? 0);
  set('last_ok', check.last_ok ?? 0);
  set('occurrences', check.occurrences ?? 0);
  set('occurrences_watermark', check.occurrences_watermark ?? 0);
  set('silenced', check.silenced, true);
  set('hooks', check.hooks, true);
  set('output_metric_format', check.output_metric_format ?? '');
  set('output_metric_handlers', nullable(check.output_metric_handlers));
  set('env_vars', nullable(check.env_vars));
  set('metadata', shapeMetadata(check.metadata));
  set('secrets', nullable(check.secrets));
  set('is_silenced', check.is_silenced ?? false);
  set('output_metric_tags', check.output_metric_tags, true);
  set('scheduler', check.scheduler ?? '');
  set('processed_by', check.processed_by, true);
  set('pipelines', check.pipelines ?? []);
  return out;
}

/** The event as the API returns it: top-level keys sorted when it has an id (the Go marshaller's quirk). */
export function shapeEvent(event: Json): Json {
  const out: Json = {
    check: event.check ? shapeCheck(event.check) : undefined,
    entity: event.entity ? shapeEntity(event.entity) : undefined,
    id: event.id || null,
    metadata: shapeMetadata(event.metadata),
    metrics: event.metrics ?? undefined,
    pipelines: event.pipelines ?? null,
    sequence: event.sequence ?? 0,
    timestamp: event.timestamp || undefined,
  };
  for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key];
  return out;
}
