import { createRequire } from 'node:module';
import type { Node } from 'acorn';

// The JavaScript parser loads with the first expression checked: a daemon that is sent none never parses it.
const load = createRequire(import.meta.url);
let acorn: typeof import('acorn') | undefined;

// Sensu Go evaluates filter and entity_attributes expressions with otto: ECMAScript 5, and regular expressions
// translated to Go's RE2, which has no lookaround, backreferences, named groups, atomic groups or possessive quantifiers.
const OTTO_REFUSES: [RegExp, string][] = [
  [/\(\?[=!]/, 'lookahead'],
  [/\(\?<[=!]/, 'lookbehind'],
  [/\(\?P?<[A-Za-z]|\(\?'/, 'named groups'],
  [/\(\?>/, 'atomic groups'],
  [/\(\?[a-zA-Z-]+[:)]/, 'inline flags'],
  [/\\[1-9]|\\k</, 'backreferences'],
  [/([*+?}])\+/, 'possessive quantifiers'],
];

/** Why otto (Sensu Go's JavaScript engine) cannot compile this regular expression source, or null. */
function ottoRegexProblem(source: string): string | null {
  // Escaped characters never start a construct; drop them (and classes' contents) before looking for one.
  const plain = source.replace(/\\\\/g, '').replace(/\\[^1-9k]/g, '_');
  for (const [pattern, what] of OTTO_REFUSES)
    if (pattern.test(plain)) return `${what}: not supported by Sensu Go's JavaScript engine (otto translates to Go regular expressions)`;
  try {
    new RegExp(source);
  } catch (error) {
    return (error as Error).message;
  }
  return null;
}

// Ruby escapes with a JavaScript spelling; anything else Ruby-only has none.
const RUBY_ANCHORS: [RegExp, string][] = [
  [/\\A/g, '^'],
  [/\\z/g, '$'],
];
const RUBY_ONLY = /\\[ZhHGKRXp]|\(\?#|\[\[:/;

/** A Ruby regular expression as one otto runs with the same matches, or why there is none. */
export function rubyRegexToJs(source: string, flags: string): { source: string; flags: string } | { problem: string } {
  const ruby = RUBY_ONLY.exec(source.replace(/\\\\/g, ''));
  if (ruby) return { problem: `Ruby-only construct ${ruby[0]} has no JavaScript equivalent` };
  let js = source;
  for (const [pattern, replacement] of RUBY_ANCHORS) js = js.replace(pattern, (m, offset: number) => (precededByBackslashes(js, offset) ? m : replacement));
  if (flags.includes('x') || flags.includes('m'))
    return { problem: `Ruby flag ${flags.includes('x') ? 'x' : 'm'} has no equivalent in Sensu Go's JavaScript engine` };
  const problem = ottoRegexProblem(js);
  return problem ? { problem } : { source: js, flags: flags.includes('i') ? 'i' : '' };
}

function precededByBackslashes(text: string, offset: number): boolean {
  let count = 0;
  for (let i = offset - 1; i >= 0 && text[i] === '\\'; i--) count++;
  return count % 2 === 1;
}

function* walk(node: unknown): Generator<Node> {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const item of node) yield* walk(item);
    return;
  }
  if (typeof (node as Node).type === 'string') yield node as Node;
  for (const [key, value] of Object.entries(node)) if (key !== 'loc' && value && typeof value === 'object') yield* walk(value);
}

/** Why otto would refuse this filter expression (ES5 syntax, RE2 regular expressions), or null. */
export function es5ExpressionProblem(expression: string): string | null {
  let program: Node;
  try {
    program = (acorn ??= load('acorn') as typeof import('acorn')).parse(expression, { ecmaVersion: 5 });
  } catch (error) {
    return `not ECMAScript 5: ${(error as Error).message}`;
  }
  for (const node of walk(program)) {
    const regex = (node as { regex?: { pattern: string } }).regex;
    if (node.type === 'Literal' && regex) {
      const problem = ottoRegexProblem(regex.pattern);
      if (problem) return `regular expression /${regex.pattern}/: ${problem}`;
    }
  }
  return null;
}
