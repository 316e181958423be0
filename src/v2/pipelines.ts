import type { Logger } from 'pino';
import type { V2Store } from '../store/index.js';
import type { Spawner } from '../server/handling/mutate.js';
import { deliver } from '../server/handling/deliver.js';
import type { Handler } from '../server/handling/resolve.js';
import { shapeEvent } from './event-shape.js';
import { filterAllows, isResolution } from './event-filters.js';
import { withAssets, type AssetResolver } from '../assets/index.js';
import { withSecrets } from '../secrets/with-secrets.js';
import type { SecretsLookup } from '../secrets/resolver.js';

type Json = Record<string, any>;

/** Built-in event filters of v2 pipelines. */
const BUILTIN_FILTERS = new Map<string, (event: Json) => boolean>([
  ['is_incident', (e) => Boolean(e.check && (e.check.status !== 0 || isResolution(e)))],
  ['not_silenced', (e) => !e.check?.is_silenced],
  ['has_metrics', (e) => Boolean(e.metrics)],
]);

interface Step {
  readonly handler: string;
  readonly filters: string[];
  readonly mutator: string | null;
}

/** The handler steps an event asks for: its pipelines' workflows, else `check.handlers`, plus `metrics.handlers`. */
function stepsOf(store: V2Store, namespace: string, event: Json, log: Logger): Step[] {
  const steps: Step[] = [];
  for (const ref of (event.pipelines ?? []) as Json[]) {
    const pipeline = store.getResource('Pipeline', namespace, String(ref.name));
    if (!pipeline) {
      log.error({ pipeline: ref.name, namespace }, 'pipeline not found');
      continue;
    }
    for (const workflow of (pipeline.workflows ?? []) as Json[]) {
      if (!workflow.handler?.name) continue;
      steps.push({ handler: String(workflow.handler.name), filters: ((workflow.filters ?? []) as Json[]).map((f) => String(f.name)), mutator: workflow.mutator?.name ?? null });
    }
  }
  if (steps.length === 0) for (const name of (event.check?.handlers ?? []) as string[]) steps.push({ handler: name, filters: [], mutator: null });
  for (const name of (event.metrics?.handlers ?? []) as string[]) steps.push({ handler: name, filters: [], mutator: null });
  return steps;
}

/** Runs an event through its pipelines (spec 4.2 rule 6): filters, mutator, then a pipe, tcp or udp handler. */
export async function runPipelines(store: V2Store, namespace: string, event: Json, spawn: Spawner, log: Logger, assets?: AssetResolver, secrets?: SecretsLookup): Promise<void> {
  const steps = stepsOf(store, namespace, event, log);
  // Most events name no handler: they need no serialisation.
  if (steps.length === 0) return;
  const json = JSON.stringify(shapeEvent(event));
  await Promise.all(
    steps.map(async (step) => {
      const fields = { event: event.id, handler: step.handler, namespace };
      const handler = store.getResource('Handler', namespace, step.handler);
      if (!handler) return void log.error(fields, 'handler not found');
      const filters = [...step.filters, ...((handler.filters ?? []) as string[])];
      for (const name of filters) {
        const builtin = BUILTIN_FILTERS.get(name);
        const resource = builtin ? null : store.getResource('EventFilter', namespace, name);
        if (!builtin && !resource) return void log.error({ ...fields, filter: name }, 'filter not found');
        const verdict = builtin ? { allowed: builtin(event) } : filterAllows(resource!, event, Date.now(), (entity, check) => store.getEvent(namespace, entity, check));
        if ('error' in verdict && verdict.error) log.error({ ...fields, filter: name, error: verdict.error }, 'filter expression failed');
        if (!verdict.allowed) return void log.info({ ...fields, filter: name }, 'event was filtered');
      }
      let data = json;
      const mutatorName = step.mutator ?? handler.mutator ?? null;
      if (mutatorName === 'only_check_output') data = String(event.check?.output ?? '');
      else if (mutatorName && mutatorName !== 'json') {
        const mutator = store.getResource('Mutator', namespace, String(mutatorName)) as { command?: string; timeout?: number; runtime_assets?: string[] } | null;
        if (!mutator?.command) return void log.error({ ...fields, mutator: mutatorName }, 'mutator not found');
        const run = await withSecrets(withAssets(spawn, assets, mutator.runtime_assets), mutator, secrets)(mutator.command, { stdin: json, timeout: mutator.timeout || undefined });
        if (run.status !== 0) return void log.error({ ...fields, mutator: mutatorName, output: run.output, status: run.status }, 'mutator error');
        data = run.output;
      }
      const delivery = await deliver({ ...handler, name: step.handler, type: String(handler.type ?? 'pipe'), timeout: handler.timeout || undefined } as Handler, data, withSecrets(withAssets(spawn, assets, handler.runtime_assets), handler, secrets), 600);
      if (delivery.error) log.error({ ...fields, error: delivery.error }, 'handler error');
      else log[delivery.ok ? 'info' : 'error']({ ...fields, output: delivery.output, status: delivery.status }, 'handler output');
    }),
  );
}
