// A Pipeline's rules (Sensu Go's Pipeline.Validate, the name aside): each workflow named, its references of the right kind.
import { sensuNameProblem } from './names.js';
import type { Json } from '../json.js';

// What each reference of a workflow may point to, and what Sensu Go calls that capability.
const REFERENCES = [
  ['filters', 'EventFilter', 'filtering'],
  ['mutator', 'Mutator', 'mutating'],
  ['handler', 'Handler', 'handling'],
] as const;

function referenceProblem(where: string, ref: Json, type: string, capability: string): string | null {
  const badName = sensuNameProblem(ref.name, `${where}.name`);
  if (badName) return badName;
  if (!ref.type) return `${where}.type must be set`;
  if (!ref.api_version) return `${where}.api_version must be set`;
  if (ref.type !== type || ref.api_version !== 'core/v2') return `${where}: resource type not capable of ${capability} events: ${ref.api_version}.${ref.type}`;
  return null;
}

function workflowProblem(workflow: Json, where: string): string | null {
  const badName = sensuNameProblem(workflow.name, `${where}.name`);
  if (badName) return badName;
  if (!workflow.handler) return `${where}.handler must be set`;
  for (const [field, type, capability] of REFERENCES) {
    const refs = (field === 'filters' ? (workflow.filters ?? []) : workflow[field] ? [workflow[field]] : []) as Json[];
    for (let at = 0; at < refs.length; at++) {
      const problem = referenceProblem(field === 'filters' ? `${where}.filters[${at}]` : `${where}.${field}`, refs[at] ?? {}, type, capability);
      if (problem) return problem;
    }
  }
  return null;
}

/** The first reason a Pipeline's spec is invalid, or null. */
export function pipelineProblem(p: Json): string | null {
  const workflows = (p.workflows ?? []) as Json[];
  for (let index = 0; index < workflows.length; index++) {
    const problem = workflowProblem(workflows[index] ?? {}, `workflows[${index}]`);
    if (problem) return problem;
  }
  return null;
}
