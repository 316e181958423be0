import { isResolution } from '../v2/index.js';
import type { Json } from '../json.js';

/** A filter's verdict, as the sandbox gives it. */
export interface Verdict {
  readonly allowed: boolean;
  readonly error?: string;
  readonly failed?: true;
}

// The exact expressions compile writes for its own filters: only a filter with this text, this action and no `when`
// is decided in plain code; any other (a user's, or compile's text changed) goes to the sandbox.
const HANDLED =
  'event.check.status != 0 || (event.is_resolution && (event.check.annotations || {})["checkbridge.io/auto-resolve"] != "false") || ' +
  'event.check.state == "flapping" || (event.check.annotations || {})["checkbridge.io/type"] == "metric"';
const FLAPPING = 'event.check.state == "flapping"';

const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A field of the check as the filter reads it: the sandbox sees the check with its metadata's fields lifted over it. */
function lifted(check: Json, key: string): unknown {
  const metadata = check.metadata;
  return isPlain(metadata) && Object.hasOwn(metadata, key) ? metadata[key] : check[key];
}

/** An annotation's value, or null when the annotations are of a shape the plain code does not claim to read as the sandbox would. */
function annotation(check: Json, key: string): string | undefined | null {
  const annotations = lifted(check, 'annotations');
  if (annotations === undefined || annotations === null) return undefined;
  if (!isPlain(annotations)) return null;
  const value = Object.hasOwn(annotations, key) ? annotations[key] : undefined;
  return value === undefined || typeof value === 'string' ? value : null;
}

function handled(event: Json): boolean | null {
  const check = event.check as Json;
  const status = lifted(check, 'status');
  const state = lifted(check, 'state');
  const autoResolve = annotation(check, 'checkbridge.io/auto-resolve');
  const type = annotation(check, 'checkbridge.io/type');
  if (typeof status !== 'number' || !Number.isFinite(status) || typeof state !== 'string' || autoResolve === null || type === null) return null;
  return status !== 0 || (isResolution(event) && autoResolve !== 'false') || state === 'flapping' || type === 'metric';
}

function flapping(event: Json): boolean | null {
  const state = lifted(event.check as Json, 'state');
  return typeof state === 'string' ? state === 'flapping' : null;
}

/**
 * The verdict of one of compile's own filters computed without the sandbox, when the filter is exactly one compile
 * writes and the fields it reads have the types the expression compares (so `!=` and `==` give what they give in the
 * sandbox); null otherwise.
 */
export function nativeVerdict(filter: Json, event: Json): Verdict | null {
  if (filter.when || !isPlain(event.check)) return null;
  const expressions = filter.expressions as unknown;
  if (!Array.isArray(expressions) || expressions.length !== 1) return null;
  const matched =
    filter.action === 'allow' && expressions[0] === HANDLED ? handled(event) : filter.action === 'deny' && expressions[0] === FLAPPING ? flapping(event) : null;
  if (matched === null) return null;
  return { allowed: filter.action === 'deny' ? !matched : matched };
}
