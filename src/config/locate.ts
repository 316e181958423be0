import { createRequire } from 'node:module';
import type { Node } from 'jsonc-parser';

// Loaded at the first diagnostic to locate: a valid configuration never needs it.
const require = createRequire(import.meta.url);
let jsonc: typeof import('jsonc-parser') | undefined;
function parseTree(...args: Parameters<typeof import('jsonc-parser').parseTree>): Node | undefined {
  return (jsonc ??= require('jsonc-parser') as typeof import('jsonc-parser')).parseTree(...args);
}

export interface Location {
  readonly line: number;
  readonly column: number;
}

// Parse trees are built lazily, only for files that a diagnostic points into.
const trees = new WeakMap<object, { tree: Node | undefined; lineStarts: number[] }>();

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

function positionOf(lineStarts: number[], offset: number): Location {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (lineStarts[mid]! <= offset) low = mid;
    else high = mid - 1;
  }
  return { line: low + 1, column: offset - lineStarts[low]! + 1 };
}

// Walks objects by key and arrays by index; a numeric key of an object stays a key.
function childOf(node: Node, segment: string): Node | undefined {
  if (node.type === 'object') {
    let found: Node | undefined;
    for (const property of node.children ?? []) {
      if (property.children?.[0]?.value === segment) found = property.children[1];
    }
    return found;
  }
  if (node.type === 'array' && /^\d+$/.test(segment)) return node.children?.[Number(segment)];
  return undefined;
}

/** Where the value at `segments` (or its nearest existing ancestor) starts in the file. */
export function locate(file: { text: string }, segments: readonly string[]): Location {
  let cached = trees.get(file);
  if (!cached) {
    const text = file.text.startsWith('\uFEFF') ? ' ' + file.text.slice(1) : file.text;
    cached = { tree: parseTree(text, [], { allowTrailingComma: true, disallowComments: false }), lineStarts: lineStartsOf(text) };
    trees.set(file, cached);
  }
  const { tree, lineStarts } = cached;
  if (!tree) return { line: 1, column: 1 };
  let node: Node = tree;
  for (const segment of segments) {
    const next = childOf(node, segment);
    if (!next) break;
    node = next;
  }
  // Point at the key of a property, which is what an editor user looks for.
  const keyNode = node.parent?.type === 'property' ? node.parent.children?.[0] : undefined;
  return positionOf(lineStarts, (keyNode ?? node).offset);
}
