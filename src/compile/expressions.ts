import { parseExpression, type Node } from '../ruby-eval/index.js';
import { labelOf } from './tokens.js';
import { rubyRegexToJs } from './js-dialect.js';
import { rubyToS } from '../tokens/index.js';
import type { Json } from '../json.js';

const CHECK_FIELDS = new Set([
  'status',
  'output',
  'command',
  'interval',
  'occurrences',
  'occurrences_watermark',
  'history',
  'total_state_change',
  'executed',
  'issued',
  'duration',
  'handlers',
  'subscriptions',
  'ttl',
  'timeout',
  'state',
  'last_ok',
  'is_silenced',
  'proxy_entity_name',
]);

/** An `eval:` clause or regular expression with no faithful JavaScript spelling, and why. */
class Untranslatable extends Error {}

// Check attributes compile maps onto other v2 fields (or drops): an event carries no copy of them.
const CHECK_CONFIG_ONLY = new Set([
  'publish',
  'standalone',
  'cron',
  'subdue',
  'hooks',
  'proxy_requests',
  'refresh',
  'auto_resolve',
  'handle',
  'stdin',
  'low_flap_threshold',
  'high_flap_threshold',
  'output_metric_format',
  'output_metric_handlers',
  'handler',
  'extension',
]);
// Custom check attributes travel in the check's legacy-attributes annotation (JSON), which events carry.
const LEGACY_CHECK = '(JSON.parse((event.check.annotations || {})["checkbridge.io/legacy-attributes"] || "{}"))';

/** A legacy event path as a v2 event path (client → entity labels; custom check attributes → the legacy annotation). */
function eventPath(segments: string[]): string | null {
  const [head, field, ...rest] = segments;
  if (head === 'client') {
    if (field === 'name') return 'event.entity.name';
    if (field === 'subscriptions') return 'event.entity.subscriptions';
    return field ? `event.entity.labels.${labelOf([field, ...rest].join('.'))}` : null;
  }
  if (head === 'check') {
    if (field === 'name') return 'event.check.name';
    if (field === 'subscribers') return 'event.check.subscriptions';
    if (field === 'source') return 'event.check.proxy_entity_name';
    // Legacy history is a list of status strings; v2 history holds {status, executed}.
    if (field === 'history' && rest.length === 0) return 'event.check.history.map(function(h) { return String(h.status); })';
    if (field && CHECK_FIELDS.has(field)) return rest.length === 0 ? `event.check.${field}` : null;
    if (!field || CHECK_CONFIG_ONLY.has(field)) return null;
    return [field, ...rest].reduce((path, key, i) => (i === 0 ? `${path}[${JSON.stringify(key)}]` : `(${path} || {})[${JSON.stringify(key)}]`), LEGACY_CHECK);
  }
  if (head === 'occurrences' && !field) return 'event.check.occurrences';
  if (head === 'occurrences_watermark' && !field) return 'event.check.occurrences_watermark';
  if (head === 'silenced' && !field) return 'event.check.is_silenced';
  return null;
}

/** A clause of the Ruby subset as JavaScript over `subject`, or null when it has no faithful spelling. */
function rubyToJs(node: Node, subject: string, params: Record<string, string> = {}): string | null {
  const js = (n: Node) => rubyToJs(n, subject, params);
  switch (node.kind) {
    case 'literal':
      return JSON.stringify(node.value);
    case 'regex': {
      const regex = rubyRegexToJs(node.source, node.flags);
      if ('problem' in regex) throw new Untranslatable(`regular expression /${node.source}/: ${regex.problem}`);
      return `/${regex.source}/${regex.flags}`;
    }
    case 'array': {
      const items = node.items.map(js);
      return items.includes(null) ? null : `[${items.join(', ')}]`;
    }
    case 'var':
      return node.name === 'value' ? subject : (params[node.name] ?? null);
    case 'not': {
      const inner = js(node.operand);
      return inner === null ? null : `!(${inner})`;
    }
    case 'neg': {
      const inner = js(node.operand);
      return inner === null ? null : `-(${inner})`;
    }
    case 'index': {
      const target = js(node.target);
      if (target === null) return null;
      const negative =
        node.index.kind === 'neg' && node.index.operand.kind === 'literal' && typeof node.index.operand.value === 'number' ? -node.index.operand.value : null;
      if (negative !== null) return `${target}.slice(${negative})[0]`;
      const index = js(node.index);
      return index === null ? null : `${target}[${index}]`;
    }
    case 'binary': {
      const [l, r] = [js(node.left), js(node.right)];
      if (l === null || r === null) return null;
      if (node.op === '=~') return node.right.kind === 'regex' ? `${r}.test(${l})` : node.left.kind === 'regex' ? `${l}.test(${r})` : null;
      if (node.op === '!~') return node.right.kind === 'regex' ? `!${r}.test(${l})` : null;
      return `(${l} ${node.op} ${r})`;
    }
    case 'call': {
      const target = js(node.target);
      const args = node.args.map(js);
      if (target === null || args.includes(null)) return null;
      switch (node.method) {
        case 'include?':
          return `(${target}.indexOf(${args[0]}) >= 0)`;
        case 'nil?':
          return `(${target} == null)`;
        case 'empty?':
          return `(${target}.length == 0)`;
        case 'length':
        case 'size':
          return `${target}.length`;
        case 'to_i':
          return `parseInt(${target}, 10)`;
        case 'to_f':
          return `parseFloat(${target})`;
        case 'to_s':
          return `String(${target})`;
        case 'downcase':
          return `${target}.toLowerCase()`;
        case 'upcase':
          return `${target}.toUpperCase()`;
        case 'start_with?':
          return `(${target}.indexOf(${args[0]}) == 0)`;
        case 'any?':
        case 'all?': {
          if (!node.block) return null;
          const body = rubyToJs(node.block.body, subject, { ...params, [node.block.param]: node.block.param });
          return body === null ? null : `${target}.${node.method === 'any?' ? 'some' : 'every'}(function(${node.block.param}) { return ${body}; })`;
        }
      }
      return null;
    }
  }
}

export interface Expressions {
  readonly expressions: string[];
  /** JSON pointers (relative) of attributes that could not be expressed, with why. */
  readonly unmapped: { segments: string[]; reason: string }[];
}

/**
 * Legacy attribute matching as v2 JavaScript expressions: one equality per leaf (`==`, which also gives legacy's
 * to_s equality), `eval:` through the Ruby subset. `pathOf` maps a leaf's path to the v2 expression it reads.
 */
export function attributesToExpressions(attributes: Json, pathOf: (segments: string[]) => string | null, prefix: string[] = []): Expressions {
  const out: Expressions = { expressions: [], unmapped: [] };
  for (const [key, expected] of Object.entries(attributes)) {
    const segments = [...prefix, key];
    if (expected && typeof expected === 'object' && !Array.isArray(expected)) {
      const inner = attributesToExpressions(expected, pathOf, segments);
      out.expressions.push(...inner.expressions);
      out.unmapped.push(...inner.unmapped);
      continue;
    }
    const path = pathOf(segments);
    if (!path) {
      out.unmapped.push({ segments, reason: `no v2 event field for ${segments.join('.')}` });
      continue;
    }
    // Labels are strings: equality compares legacy's to_s, and eval reads the value back as the JSON type it had.
    const label = path.includes('.labels.');
    if (typeof expected === 'string' && expected.startsWith('eval:')) {
      let js: string | null = null;
      let why = `eval expression has no JavaScript equivalent here: ${expected}`;
      try {
        js = rubyToJs(parseExpression(expected.slice(5)), label ? typedLabel(path) : path);
      } catch (error) {
        if (error instanceof Untranslatable) why = `${error.message}: ${expected}`;
      }
      if (js) out.expressions.push(js);
      else out.unmapped.push({ segments, reason: why });
      continue;
    }
    if (expected === null) out.expressions.push(`${path} == null`);
    else if (label) out.expressions.push(`${path} == ${JSON.stringify(rubyToS(expected))}`);
    else if (Array.isArray(expected)) out.expressions.push(`JSON.stringify(${path}) == ${JSON.stringify(JSON.stringify(expected))}`);
    else out.expressions.push(`${path} == ${JSON.stringify(expected)}`);
  }
  return out;
}

// A label holding "true", "false" or a number reads back as that value, as the legacy attribute was.
const typedLabel = (path: string) =>
  `(function (v) { return v === "true" ? true : v === "false" ? false : v !== undefined && v !== "" && !isNaN(Number(v)) ? Number(v) : v; })(${path})`;

export const filterPath = (segments: string[]) => (segments.length === 1 && segments[0] === 'action' ? null : eventPath(segments));

/** Proxy `client_attributes` read the candidate entity: `entity.*` in v2 entity_attributes. */
export function entityPath(segments: string[]): string | null {
  const [field, ...rest] = segments;
  if (field === 'name') return 'entity.name';
  if (field === 'subscriptions') return 'entity.subscriptions';
  if (field === 'address') return 'entity.labels.address';
  return field ? `entity.labels.${labelOf([field, ...rest].join('.'))}` : null;
}
