// Test-side models of what a Sensu Go 6 backend and agent do with compiled resources: filters evaluated per
// expression as its pipeline does (allow needs every expression, deny drops on any), and the agent's template
// rendering for the subset compile emits. Anything outside that subset throws, so a test cannot pass by accident.
import { Script, createContext } from 'node:vm';

import type { Json } from '../../src/json.js';

/** The event as Sensu Go's filter engine sees it: metadata fields lifted, the derived booleans added. */
export function synthesize(event: Json): Json {
  const history = (event.check?.history ?? []) as { status: number }[];
  const isResolution = history.length >= 2 && history.at(-2)!.status !== 0 && event.check.status === 0;
  return { ...event, is_incident: event.check.status !== 0, is_resolution: isResolution, is_silenced: Boolean(event.check.is_silenced), has_check: true };
}

function run(expression: string, scope: Json): boolean {
  return Boolean(new Script(`(${expression})`).runInContext(createContext(structuredClone(scope)), { timeout: 500 }));
}

/** Sensu Go's evaluation of one EventFilter (backend/pipeline/filter.go): true when the event passes. */
export function sensuFilterPasses(filter: Json, event: Json): boolean {
  const subject = synthesize(event);
  for (const expression of filter.expressions as string[]) {
    const matched = run(expression, { event: subject });
    if (filter.action === 'allow' && !matched) return false;
    if (filter.action === 'deny' && matched) return false;
  }
  return true;
}

const BUILTIN: Record<string, (e: Json) => boolean> = {
  not_silenced: (e) => !e.check.is_silenced,
  is_incident: (e) => e.check.status !== 0 || synthesize(e).is_resolution,
};

/** Whether a pipeline's workflow hands the event to its handler. */
export function pipelinePasses(resources: Json[], pipeline: string, event: Json): boolean {
  const p = resources.find((r) => r.type === 'Pipeline' && r.metadata.name === pipeline);
  if (!p) throw new Error(`no pipeline ${pipeline}`);
  return (p.spec.workflows[0].filters as Json[]).every((ref) => {
    if (BUILTIN[ref.name]) return BUILTIN[ref.name]!(event);
    const filter = resources.find((r) => r.type === 'EventFilter' && r.metadata.name === ref.name);
    if (!filter) throw new Error(`pipeline ${pipeline} references a missing filter ${ref.name}`);
    return sensuFilterPasses(filter.spec, event);
  });
}

/** entity_attributes: every expression true for the entity. */
export function entityMatches(expressions: string[], entity: Json): boolean {
  return expressions.every((e) => run(e, { entity }));
}

/** The agent's rendering of a Go template over the entity, for the forms compile emits. */
export function renderTemplate(template: string, entity: Json): string {
  return template.replace(/\{\{(.*?)\}\}/g, (_m, inner: string) => {
    const action = inner.trim();
    const literal = /^"((?:[^"\\]|\\.)*)"$/.exec(action);
    if (literal) return JSON.parse(`"${literal[1]}"`) as string;
    const m = /^(?:\.(name)|\.labels\.(\w+)|index \.labels "(\w+)")(?: \| default ("(?:[^"\\]|\\.)*"))?$/.exec(action);
    if (!m) throw new Error(`template action outside the compiled subset: ${action}`);
    const value = m[1] ? entity.metadata.name : entity.metadata.labels?.[m[2] ?? m[3]!];
    if (value !== undefined) return String(value);
    if (m[4]) return JSON.parse(m[4]) as string;
    throw new Error(`unmatched token: ${action}`);
  });
}
