import { rubyToS, rubyInspect } from '../tokens/index.js';
import { ExpressionError, type Node } from './parse.js';
import { arithmetic, compare, fail, isHash, number, rubyEqual, toF, toI, truthy, typeName, type Value } from './values.js';

type Env = Record<string, Value>;

/** Ruby regexp to JS: ^/$ are line anchors in Ruby; \A, \z, \Z, \h have no JS spelling. */
function rubyRegex(source: string, flags: string): RegExp {
  const translated = source.replace(
    /\\([AzZh])/g,
    (_m, c: string) => ({ A: '(?<![\\s\\S])', z: '(?![\\s\\S])', Z: '(?=\\n?(?![\\s\\S]))', h: '[0-9a-fA-F]' })[c]!,
  );
  return new RegExp(translated, 'm' + (flags.includes('i') ? 'i' : '') + (flags.includes('m') ? 's' : ''));
}

function match(a: Value, b: Value): number | null {
  const [text, re] = b instanceof RegExp ? [a, b] : a instanceof RegExp ? [b, a] : [null, null];
  if (!re) throw new ExpressionError(`=~ needs a regular expression, got ${typeName(a)} and ${typeName(b)}`);
  if (text === null || text === undefined) return null;
  if (typeof text !== 'string') throw new ExpressionError(`no implicit conversion of ${typeName(text)} into String`);
  const found = re.exec(text);
  return found ? found.index : null;
}

function index(target: Value, key: Value): Value {
  if (Array.isArray(target) || typeof target === 'string') {
    if (typeof key !== 'number' || !Number.isInteger(key)) throw new ExpressionError(`no implicit conversion of ${typeName(key)} into Integer`);
    const at = key < 0 ? target.length + key : key;
    return at >= 0 && at < target.length ? target[at] : null;
  }
  // Its own keys only: a Ruby hash has no `constructor` or `__proto__`.
  if (isHash(target)) return Object.hasOwn(target, String(key)) ? (target[String(key)] ?? null) : null;
  throw new ExpressionError(`undefined method '[]' for ${typeName(target)}`);
}

/** The methods the subset knows; the validator names any other. */
export const METHODS = new Set([
  'nil?',
  'to_s',
  'to_i',
  'to_f',
  'to_a',
  'inspect',
  'include?',
  'start_with?',
  'end_with?',
  'downcase',
  'upcase',
  'strip',
  'length',
  'size',
  'count',
  'empty?',
  'match?',
  'split',
  'abs',
  'zero?',
  'positive?',
  'negative?',
  'even?',
  'odd?',
  'between?',
  'round',
  'floor',
  'ceil',
  'first',
  'last',
  'any?',
  'all?',
  'none?',
  'select',
  'reject',
  'map',
  'min',
  'max',
  'sum',
  'uniq',
  'sort',
  'join',
  'key?',
  'has_key?',
  'keys',
  'values',
]);

function callBlock(block: { param: string; body: Node } | null, env: Env, item: Value): Value {
  return block ? evaluateNode(block.body, { ...env, [block.param]: item }) : item;
}

// What a type's method table returns for a method it does not have.
const NO_METHOD = Symbol('no such method');

/** String methods of the subset. */
function stringMethod(s: string, m: string, args: Value[]): Value {
  switch (m) {
    case 'include?':
      return typeof args[0] === 'string' ? s.includes(args[0]) : fail(`no implicit conversion of ${typeName(args[0])} into String`);
    case 'start_with?':
      return args.some((a) => typeof a === 'string' && s.startsWith(a));
    case 'end_with?':
      return args.some((a) => typeof a === 'string' && s.endsWith(a));
    case 'downcase':
      return s.toLowerCase();
    case 'upcase':
      return s.toUpperCase();
    case 'strip':
      return s.trim();
    case 'length':
    case 'size':
      return [...s].length;
    case 'empty?':
      return s.length === 0;
    case 'match?':
      return args[0] instanceof RegExp ? args[0].test(s) : typeof args[0] === 'string' ? s.includes(args[0]) : false;
    case 'split':
      return args[0] === undefined ? s.trim().split(/\s+/).filter(Boolean) : s.split(args[0] instanceof RegExp ? args[0] : String(args[0]));
  }
  return NO_METHOD;
}

/** Numeric methods of the subset. */
function numberMethod(target: number, m: string, args: Value[]): Value {
  switch (m) {
    case 'abs':
      return Math.abs(target);
    case 'zero?':
      return target === 0;
    case 'positive?':
      return target > 0;
    case 'negative?':
      return target < 0;
    case 'even?':
      return Number.isInteger(target) && target % 2 === 0;
    case 'odd?':
      return Number.isInteger(target) && Math.abs(target % 2) === 1;
    case 'between?':
      return compare('>=', target, args[0]) && compare('<=', target, args[1]);
    case 'round':
      return Math.round(target);
    case 'floor':
      return Math.floor(target);
    case 'ceil':
      return Math.ceil(target);
  }
  return NO_METHOD;
}

/** Array methods of the subset; the block, when given, is called per item. */
function arrayMethod(list: Value[], m: string, args: Value[], block: { param: string; body: Node } | null, env: Env): Value {
  const test = (item: Value) => truthy(callBlock(block, env, item));
  switch (m) {
    case 'include?':
      return list.some((x) => rubyEqual(x, args[0]));
    case 'length':
    case 'size':
      return list.length;
    case 'count':
      return block ? list.filter(test).length : args.length > 0 ? list.filter((x) => rubyEqual(x, args[0])).length : list.length;
    case 'empty?':
      return list.length === 0;
    case 'first':
      return list[0] ?? null;
    case 'last':
      return list.at(-1) ?? null;
    case 'any?':
      return list.some(test);
    case 'all?':
      return list.every(test);
    case 'none?':
      return !list.some(test);
    case 'select':
      return list.filter(test);
    case 'reject':
      return list.filter((x) => !test(x));
    case 'map':
      return list.map((x) => callBlock(block, env, x));
    case 'min':
      return list.reduce((a: Value, b) => (a === undefined || compare('<', b, a) ? b : a), undefined) ?? null;
    case 'max':
      return list.reduce((a: Value, b) => (a === undefined || compare('>', b, a) ? b : a), undefined) ?? null;
    case 'sum':
      return list.reduce((a: number, b) => a + number(b, '+'), 0);
    case 'uniq':
      return list.filter((x, i) => list.findIndex((y) => rubyEqual(x, y)) === i);
    case 'sort':
      return [...list].sort((a, b) => (compare('<', a, b) ? -1 : compare('>', a, b) ? 1 : 0));
    case 'join':
      return list.map((x) => (x === null ? '' : rubyToS(x))).join(args[0] === undefined ? '' : String(args[0]));
    case 'to_a':
      return list;
  }
  return NO_METHOD;
}

/** Hash methods of the subset. */
function hashMethod(target: Record<string, Value>, m: string, args: Value[]): Value {
  switch (m) {
    case 'key?':
    case 'has_key?':
    case 'include?':
      return Object.hasOwn(target, String(args[0]));
    case 'keys':
      return Object.keys(target);
    case 'values':
      return Object.values(target);
    case 'length':
    case 'size':
      return Object.keys(target).length;
    case 'empty?':
      return Object.keys(target).length === 0;
  }
  return NO_METHOD;
}

function call(node: Extract<Node, { kind: 'call' }>, env: Env): Value {
  const target = evaluateNode(node.target, env);
  const args = node.args.map((a) => evaluateNode(a, env));
  const m = node.method;
  const nil = target === null || target === undefined;
  if (m === 'nil?') return nil;
  if (m === 'to_s') return nil ? '' : rubyToS(target);
  if (m === 'inspect') return rubyInspect(target ?? null);
  if (m === 'to_i') return toI(target);
  if (m === 'to_f') return toF(target);
  if (nil && m === 'to_a') return [];
  const found =
    typeof target === 'string'
      ? stringMethod(target, m, args)
      : typeof target === 'number'
        ? numberMethod(target, m, args)
        : Array.isArray(target)
          ? arrayMethod(target, m, args, node.block, env)
          : isHash(target)
            ? hashMethod(target, m, args)
            : NO_METHOD;
  return found === NO_METHOD ? fail(`undefined method '${m}' for ${typeName(target)}`) : found;
}

export function evaluateNode(node: Node, env: Env): Value {
  switch (node.kind) {
    case 'literal':
      return node.value;
    case 'regex':
      return rubyRegex(node.source, node.flags);
    case 'array':
      return node.items.map((item) => evaluateNode(item, env));
    case 'var':
      return env[node.name] ?? null;
    case 'not':
      return !truthy(evaluateNode(node.operand, env));
    case 'neg':
      return -number(evaluateNode(node.operand, env), '-@');
    case 'index':
      return index(evaluateNode(node.target, env), evaluateNode(node.index, env));
    case 'call':
      return call(node, env);
    case 'binary': {
      if (node.op === '&&') {
        const left = evaluateNode(node.left, env);
        return truthy(left) ? evaluateNode(node.right, env) : left;
      }
      if (node.op === '||') {
        const left = evaluateNode(node.left, env);
        return truthy(left) ? left : evaluateNode(node.right, env);
      }
      const left = evaluateNode(node.left, env);
      const right = evaluateNode(node.right, env);
      switch (node.op) {
        case '==':
          return rubyEqual(left, right);
        case '!=':
          return !rubyEqual(left, right);
        case '=~':
          return match(left, right);
        case '!~':
          return match(left, right) === null;
        case '<':
        case '<=':
        case '>':
        case '>=':
          return compare(node.op, left, right);
        default:
          return arithmetic(node.op, left, right);
      }
    }
  }
}

export { truthy };
