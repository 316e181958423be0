import { rubyInspect } from '../tokens/index.js';
import { ExpressionError } from './parse.js';

/** A value of the Ruby subset: nil is null, a Hash a plain object. */
export type Value = unknown;

export const isHash = (v: Value): v is Record<string, Value> => v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof RegExp);
export const truthy = (v: Value) => v !== null && v !== undefined && v !== false;
export const typeName = (v: Value) =>
  v === null || v === undefined
    ? 'nil'
    : Array.isArray(v)
      ? 'Array'
      : typeof v === 'string'
        ? 'String'
        : typeof v === 'number'
          ? Number.isInteger(v)
            ? 'Integer'
            : 'Float'
          : typeof v === 'boolean'
            ? String(v) + 'Class'
            : v instanceof RegExp
              ? 'Regexp'
              : 'Hash';

export function rubyEqual(a: Value, b: Value): boolean {
  if ((a === null || a === undefined) && (b === null || b === undefined)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => rubyEqual(x, b[i]));
  if (isHash(a) && isHash(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && rubyEqual(a[k], b[k]));
  }
  return a === b;
}

export function compare(op: string, a: Value, b: Value): boolean {
  const comparable = (typeof a === 'number' && typeof b === 'number') || (typeof a === 'string' && typeof b === 'string');
  if (!comparable) throw new ExpressionError(`comparison of ${typeName(a)} with ${rubyInspect(b)} failed`);
  const [x, y] = [a as number | string, b as number | string];
  return op === '<' ? x < y : op === '<=' ? x <= y : op === '>' ? x > y : x >= y;
}

function integerOp(a: number, b: number, op: '/' | '%'): number {
  if (b === 0) throw new ExpressionError('divided by 0');
  if (op === '/') return Math.floor(a / b);
  return ((a % b) + b) % b;
}

export function arithmetic(op: string, a: Value, b: Value): Value {
  if (typeof a === 'number' && typeof b === 'number') {
    if (op === '+') return a + b;
    if (op === '-') return a - b;
    if (op === '*') return a * b;
    if (Number.isInteger(a) && Number.isInteger(b)) return integerOp(a, b, op as '/' | '%');
    return op === '/' ? a / b : a - b * Math.floor(a / b);
  }
  if (op === '+' && typeof a === 'string' && typeof b === 'string') return a + b;
  if (op === '+' && Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
  if (op === '-' && Array.isArray(a) && Array.isArray(b)) return a.filter((x) => !b.some((y) => rubyEqual(x, y)));
  if (op === '*' && typeof a === 'string' && typeof b === 'number' && Number.isInteger(b) && b >= 0) return a.repeat(b);
  throw new ExpressionError(`undefined method '${op}' for ${typeName(a)} with ${typeName(b)}`);
}

export const number = (v: Value, name: string): number => {
  if (typeof v !== 'number') throw new ExpressionError(`undefined method '${name}' for ${typeName(v)}`);
  return v;
};

export function toI(v: Value): number {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'number') return Math.trunc(v);
  if (typeof v === 'string') {
    const m = /^\s*[-+]?\d[\d_]*/.exec(v);
    return m ? Number(m[0].replaceAll('_', '')) : 0;
  }
  throw new ExpressionError(`undefined method 'to_i' for ${typeName(v)}`);
}

export function toF(v: Value): number {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    const m = /^\s*[-+]?\d[\d_]*(\.\d+)?([eE][-+]?\d+)?/.exec(v);
    return m ? Number(m[0].replaceAll('_', '')) : 0;
  }
  throw new ExpressionError(`undefined method 'to_f' for ${typeName(v)}`);
}

export function fail(message: string): never {
  throw new ExpressionError(message);
}
