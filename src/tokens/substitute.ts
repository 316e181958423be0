import { rubyToS } from './render.js';

export interface Substituted<T> {
  readonly value: T;
  /** Token paths (without defaults) that found no value, in order of appearance, each once. */
  readonly unmatched: readonly string[];
}

/** A `:::path|default:::` token (shared with the compiler, which turns tokens into v2 templates). */
export const TOKEN = /:::([^:].*?):::/g;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

// Ruby's String#split: trailing empty fields are dropped.
function rubySplitDots(path: string): string[] {
  const parts = path.split('.');
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

// Legacy lookup: descend through objects; a scalar ends the walk (extra segments ignored, as legacy did).
function findAttribute(tree: Record<string, unknown>, path: string[], fallback: string | undefined): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return fallback;
  const value = Object.prototype.hasOwnProperty.call(tree, head) ? tree[head] : undefined;
  if (isObject(value)) return findAttribute(value, rest, fallback);
  return value === undefined || value === null ? fallback : value;
}

/** Replaces every `:::path|default:::` in `text` from `attributes`; UTF-8 text passes through (legacy stripped non-ASCII bytes). */
export function substituteTokens(text: string, attributes: Record<string, unknown>): Substituted<string> {
  const unmatched: string[] = [];
  // Bytes that were not UTF-8 (decoded as U+FFFD) are dropped, as legacy dropped them.
  const value = text.replace(/\uFFFD/g, '').replace(TOKEN, (_match, inner: string) => {
    const pipe = inner.indexOf('|');
    const token = pipe < 0 ? inner : inner.slice(0, pipe);
    const fallback = pipe < 0 ? undefined : inner.slice(pipe + 1);
    const found = findAttribute(attributes, rubySplitDots(token), fallback);
    if (found === undefined) {
      unmatched.push(token);
      return '';
    }
    return rubyToS(found);
  });
  return { value, unmatched: [...new Set(unmatched)] };
}

/** Substitutes every string of a structure, deeply, into a new copy (never in place, unlike legacy). Keys are kept. */
export function substituteObject<T>(input: T, attributes: Record<string, unknown>): Substituted<T> {
  const unmatched: string[] = [];
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') {
      const result = substituteTokens(node, attributes);
      unmatched.push(...result.unmatched);
      return result.value;
    }
    if (Array.isArray(node)) return node.map(walk);
    if (isObject(node)) {
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(node)) out[key] = walk(value);
      return out;
    }
    return node;
  };
  const value = walk(input) as T;
  return { value, unmatched: [...new Set(unmatched)] };
}

export function unmatchedTokensOutput(tokens: readonly string[]): string {
  return `Unmatched client token(s): ${tokens.join(', ')}`;
}
