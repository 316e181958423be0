// Sensu Go's token substitution (token/token.go): every string of a resource is a Go text/template rendered against
// a synthesized entity, with Sensu's `default` function. This is the subset Sensu's documentation uses: fields
// (`.name`, `.labels.x`), string, number and boolean literals, pipelines, `default`, `index` and `assetPath`.

import type { Json } from '../json.js';
export type TemplateOutcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

/** A missing map entry: Go's zero value, printed `<no value>`, and nil to `default`. */
const MISSING = Symbol('missing');
type Token = { kind: 'field' | 'string' | 'number' | 'ident' | 'pipe'; text: string };

class TemplateError extends Error {}

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);
const isNil = (value: unknown) => value === MISSING || value === null || value === undefined;

const LEXEMES: readonly (readonly [Token['kind'], RegExp])[] = [
  ['string', /^"(?:[^"\\\n]|\\.)*"|^`[^`]*`/],
  ['field', /^(\.[A-Za-z_][A-Za-z0-9_]*)+|^\.(?![\w.])/],
  ['number', /^-?\d+(\.\d+)?(?![\w.])/],
  ['ident', /^[A-Za-z_][A-Za-z0-9_]*/],
  ['pipe', /^\|/],
];

function lex(action: string): Token[] {
  const tokens: Token[] = [];
  let rest = action.trim();
  while (rest.length > 0) {
    const token = LEXEMES.map(([kind, pattern]) => ({ kind, text: pattern.exec(rest)?.[0] })).find((t): t is Token => t.text !== undefined);
    if (!token) throw new TemplateError(`${JSON.stringify(rest[0])} is not supported in a template here (fields, literals, default, index, assetPath)`);
    tokens.push(token);
    rest = rest.slice(token.text.length).trimStart();
  }
  return tokens;
}

function literal(token: Token): unknown {
  if (token.text.startsWith('`')) return token.text.slice(1, -1);
  try {
    return JSON.parse(token.text);
  } catch {
    // Go escapes JSON lacks (`\x41`, `\a`): refused rather than read otherwise.
    throw new TemplateError(`unsupported literal ${token.text}`);
  }
}

function field(data: unknown, path: string): unknown {
  let value = data;
  for (const segment of path
    .split('.')
    .slice(1)
    .filter((s) => s !== '')) {
    if (isNil(value)) throw new TemplateError(`nil pointer evaluating interface {}.${segment} at <${path}>`);
    if (!isObject(value)) throw new TemplateError(`can't evaluate field ${segment} at <${path}>`);
    value = Object.prototype.hasOwnProperty.call(value, segment) ? value[segment] : MISSING;
  }
  return value;
}

const FUNCTIONS: Record<string, (args: unknown[]) => unknown> = {
  // Sensu's defaultFunc: the default, or the piped value when it is not nil.
  default: (args) => {
    if (args.length === 0 || args.length > 2) throw new TemplateError(`default takes 1 or 2 arguments, not ${args.length}`);
    return args.length === 2 && !isNil(args[1]) ? args[1] : args[0];
  },
  index: ([target, ...keys]) => {
    let value = target;
    for (const key of keys) {
      if (Array.isArray(value) && typeof key === 'number') value = value[key] ?? MISSING;
      else if (isObject(value) && typeof key === 'string') value = Object.prototype.hasOwnProperty.call(value, key) ? value[key] : MISSING;
      else if (isNil(value)) throw new TemplateError('index of untyped nil');
      else throw new TemplateError(`can't index item with ${JSON.stringify(key)}`);
    }
    return value;
  },
  // The environment variable an asset's path is in, as the agent sets it (util/environment Key).
  assetPath: ([name]) =>
    `${String(name)
      .replace(/[^a-zA-Z0-9]+/g, '_')
      .toUpperCase()}_PATH`,
};

function evaluateCommand(tokens: Token[], data: unknown, piped: unknown[]): unknown {
  const [head, ...rest] = tokens;
  if (!head) throw new TemplateError('missing value for command');
  const operand = (token: Token): unknown => {
    if (token.kind === 'field') return field(data, token.text);
    if (token.kind === 'string' || token.kind === 'number') return literal(token);
    if (token.text === 'true' || token.text === 'false') return token.text === 'true';
    if (token.text === 'nil') return null;
    throw new TemplateError(`function ${JSON.stringify(token.text)} used as a value`);
  };
  // Own names only: `__proto__` or `constructor` is no function of a template.
  if (head.kind === 'ident' && Object.hasOwn(FUNCTIONS, head.text)) return FUNCTIONS[head.text]!([...rest.map(operand), ...piped]);
  if (head.kind === 'ident' && !['true', 'false', 'nil'].includes(head.text))
    throw new TemplateError(`${JSON.stringify(head.text)} is not supported in a template here (fields, literals, default, index, assetPath)`);
  if (rest.length > 0 || piped.length > 0) throw new TemplateError(`can't give argument to non-function ${head.text}`);
  return operand(head);
}

// Go's fmt %v for what JSON holds.
function print(value: unknown): string {
  if (isNil(value)) return '<no value>';
  if (Array.isArray(value)) return `[${value.map(print).join(' ')}]`;
  if (isObject(value))
    return `map[${Object.keys(value)
      .sort()
      .map((k) => `${k}:${print(value[k])}`)
      .join(' ')}]`;
  return String(value);
}

function evaluateAction(action: string, data: unknown): string {
  const commands: Token[][] = [[]];
  for (const token of lex(action)) {
    if (token.kind === 'pipe') commands.push([]);
    else commands.at(-1)!.push(token);
  }
  let piped: unknown[] = [];
  for (const command of commands) piped = [evaluateCommand(command, data, piped)];
  const value = piped[0];
  if (isNil(value)) throw new TemplateError(`unmatched token: {{${action}}} has no value`);
  return print(value);
}

/** Renders one string; text without `{{` is returned as it is. */
export function renderGoTemplate(text: string, data: unknown): TemplateOutcome<string> {
  if (!text.includes('{{')) return { ok: true, value: text };
  let out = '';
  let at = 0;
  try {
    for (;;) {
      const open = text.indexOf('{{', at);
      if (open < 0) break;
      let close = text.indexOf('}}', open + 2);
      // A quoted `}}` does not close the action.
      while (close >= 0 && /^(?:[^"`]|"(?:[^"\\]|\\.)*"|`[^`]*`)*("(?:[^"\\]|\\.)*|`[^`]*)$/.test(text.slice(open + 2, close)))
        close = text.indexOf('}}', close + 2);
      if (close < 0) throw new TemplateError('unclosed action');
      let inner = text.slice(open + 2, close);
      let literalText = text.slice(at, open);
      if (/^-\s/.test(inner)) {
        literalText = literalText.trimEnd();
        inner = inner.slice(1);
      }
      const trimAfter = /\s-$/.test(inner);
      if (trimAfter) inner = inner.slice(0, -1);
      out += literalText;
      if (!/^\s*\/\*[\s\S]*\*\/\s*$/.test(inner)) out += evaluateAction(inner, data);
      at = close + 2;
      if (trimAfter) while (at < text.length && /\s/.test(text[at]!)) at++;
    }
  } catch (error) {
    // Whatever a template does, it fails that template only: it runs inside the scheduler's timers.
    return { ok: false, error: error instanceof TemplateError ? error.message : `template could not be rendered: ${(error as Error).message}` };
  }
  return { ok: true, value: out + text.slice(at) };
}

/** Renders every string inside `value` (object keys stay), naming the field of the first failure, as Sensu Go does. */
export function substituteGoTemplates<T>(value: T, data: unknown, key = ''): TemplateOutcome<T> {
  if (typeof value === 'string') {
    const rendered = renderGoTemplate(value, data);
    return rendered.ok ? (rendered as TemplateOutcome<T>) : { ok: false, error: `${key}: ${rendered.error}` };
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) {
      const rendered = substituteGoTemplates(item, data, key);
      if (!rendered.ok) return rendered;
      out.push(rendered.value);
    }
    return { ok: true, value: out as T };
  }
  if (isObject(value)) {
    const out: [string, unknown][] = [];
    for (const [k, v] of Object.entries(value)) {
      const rendered = substituteGoTemplates(v, data, k);
      if (!rendered.ok) return rendered;
      out.push([k, rendered.value]);
    }
    // fromEntries: a key such as `__proto__` stays an own field.
    return { ok: true, value: Object.fromEntries(out) as T };
  }
  return { ok: true, value };
}
