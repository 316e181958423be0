// The checks Sensu Go's Validate methods make on a check, filter, hook, mutator and pipeline, each message naming the field.
import { Script } from 'node:vm';
import type { Json } from '../../json.js';

const OUTPUT_METRIC_FORMATS = ['nagios_perfdata', 'graphite_plaintext', 'opentsdb_line', 'influxdb_line', 'prometheus_text'];
const MUTATOR_TYPES = ['pipe', 'javascript'];
const NAME = /^[\w.\-:]+$/;

/** Why a list of JavaScript expressions does not parse as programs (compiled, never run), or null. */
export function expressionsProblem(field: string, expressions: unknown): string | null {
  const list = (expressions ?? []) as unknown[];
  for (let index = 0; index < list.length; index++) {
    try {
      new Script(String(list[index]), { filename: `${field}[${index}]` });
    } catch (error) {
      return `${field}[${index}] is not a valid JavaScript expression: ${(error as Error).message}`;
    }
  }
  return null;
}

/** The checks past the schedule Sensu Go makes on a CheckConfig: metric format, proxy requests, flap thresholds. */
export function checkRulesProblem(c: Json): string | null {
  if (c.output_metric_format && !OUTPUT_METRIC_FORMATS.includes(c.output_metric_format))
    return `output_metric_format ${JSON.stringify(c.output_metric_format)} is not valid: one of ${OUTPUT_METRIC_FORMATS.join(', ')}`;
  const proxy = c.proxy_requests as Json | undefined;
  if (proxy) {
    const coverage = Number(proxy.splay_coverage ?? 0);
    if (coverage > 100) return 'proxy_requests.splay_coverage must be between 0 and 100';
    if (proxy.splay && coverage === 0) return 'proxy_requests.splay_coverage must be greater than 0 if splay is enabled';
    const attributes = expressionsProblem('proxy_requests.entity_attributes', proxy.entity_attributes);
    if (attributes) return attributes;
  }
  const low = Number(c.low_flap_threshold ?? 0);
  const high = Number(c.high_flap_threshold ?? 0);
  if (low !== 0 && high !== 0 && low >= high) return `invalid flap thresholds: low_flap_threshold (${low}) must be below high_flap_threshold (${high})`;
  if (Number(c.max_output_size ?? 0) < 0) return 'max_output_size must be 0 or more';
  return null;
}

export function filterProblem(f: Json): string | null {
  if (!['allow', 'deny'].includes(f.action)) return `action ${JSON.stringify(f.action ?? '')} is not valid: allow or deny`;
  if (!Array.isArray(f.expressions) || f.expressions.length === 0) return 'expressions: a filter must have one or more expressions';
  return expressionsProblem('expressions', f.expressions);
}

export function hookProblem(h: Json): string | null {
  if (typeof h.command !== 'string' || h.command === '') return 'command cannot be empty';
  return Number(h.timeout ?? 0) > 0 ? null : 'timeout: a hook timeout must be greater than 0';
}

export function mutatorProblem(m: Json): string | null {
  if (!m.command && !m.eval) return 'mutator command or eval must be set';
  if (m.type === 'javascript' && m.command) return 'command used with a javascript mutator: give the script as eval';
  if (m.type && !MUTATOR_TYPES.includes(m.type)) return `invalid mutator type ${JSON.stringify(m.type)}: one of ${MUTATOR_TYPES.join(', ')}`;
  return null;
}

// What each reference of a workflow may point to, and what Sensu Go calls that capability.
const REFERENCES = [
  ['filters', 'EventFilter', 'filtering'],
  ['mutator', 'Mutator', 'mutating'],
  ['handler', 'Handler', 'handling'],
] as const;

function referenceProblem(where: string, ref: Json, type: string, capability: string): string | null {
  if (!ref.name || !NAME.test(String(ref.name))) return `${where}.name must be 1 to 255 letters, digits, _ . - :`;
  if (!ref.type) return `${where}.type must be set`;
  if (!ref.api_version) return `${where}.api_version must be set`;
  if (ref.type !== type || ref.api_version !== 'core/v2') return `${where}: resource type not capable of ${capability} events: ${ref.api_version}.${ref.type}`;
  return null;
}

export function pipelineProblem(p: Json): string | null {
  const workflows = (p.workflows ?? []) as Json[];
  for (let index = 0; index < workflows.length; index++) {
    const workflow = workflows[index] ?? {};
    const where = `workflows[${index}]`;
    if (!workflow.name || !NAME.test(String(workflow.name))) return `${where}.name must be 1 to 255 letters, digits, _ . - :`;
    if (!workflow.handler) return `${where}.handler must be set`;
    for (const [field, type, capability] of REFERENCES) {
      const refs = (field === 'filters' ? (workflow.filters ?? []) : workflow[field] ? [workflow[field]] : []) as Json[];
      for (let at = 0; at < refs.length; at++) {
        const problem = referenceProblem(field === 'filters' ? `${where}.filters[${at}]` : `${where}.${field}`, refs[at] ?? {}, type, capability);
        if (problem) return problem;
      }
    }
  }
  return null;
}
