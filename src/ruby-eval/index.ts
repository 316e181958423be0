import { substituteTokens } from '../tokens/index.js';
import { parseExpression, ExpressionError, type Node } from './parse.js';
import { evaluateNode, truthy, METHODS } from './evaluate.js';

export { ExpressionError, parseExpression, type Node } from './parse.js';

const cache = new Map<string, Node>();

function children(node: Node): Node[] {
  switch (node.kind) {
    case 'array':
      return node.items;
    case 'not':
    case 'neg':
      return [node.operand];
    case 'binary':
      return [node.left, node.right];
    case 'index':
      return [node.target, node.index];
    case 'call':
      return [node.target, ...node.args, ...(node.block ? [node.block.body] : [])];
    default:
      return [];
  }
}

function unknownMethods(node: Node, found: string[] = []): string[] {
  if (node.kind === 'call' && !METHODS.has(node.method)) found.push(node.method);
  for (const child of children(node)) unknownMethods(child, found);
  return found;
}

/** Parses an expression of the subset; throws ExpressionError naming what is outside it. */
function compileExpression(source: string): Node {
  let node = cache.get(source);
  if (node) return node;
  node = parseExpression(source);
  const unknown = unknownMethods(node);
  if (unknown.length > 0) throw new ExpressionError(`unsupported method ${unknown.map((m) => `'${m}'`).join(', ')}`);
  if (cache.size > 10_000) cache.clear();
  cache.set(source, node);
  return node;
}

/** Null when `eval: ...` is inside the subset, else why not. Tokens are left for run time. */
export function expressionProblem(attribute: string): string | null {
  const source = attribute.slice(5).replace(/:::[^:]*:::/g, 'nil');
  try {
    compileExpression(source);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

export type EvalOutcome = { ok: true; matched: boolean } | { ok: false; error: string };

/** Legacy eval_attribute_value: tokens from `object` first (unmatched: no match), then the expression with `value` bound. */
export function evalAttribute(attribute: string, value: unknown, object: Record<string, unknown>): EvalOutcome {
  const { value: source, unmatched } = substituteTokens(attribute.slice(5), object);
  if (unmatched.length > 0) return { ok: false, error: `unmatched tokens in eval expression: ${unmatched.join(', ')}` };
  try {
    return { ok: true, matched: truthy(evaluateNode(compileExpression(source), { value: structuredClone(value ?? null) })) };
  } catch (error) {
    if (error instanceof ExpressionError) return { ok: false, error: error.message };
    throw error;
  }
}
