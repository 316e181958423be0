// A Silenced entry's rules: what it silences, and its times as whole seconds.
import type { Json } from '../json.js';

/** The first reason a Silenced entry's spec is invalid, or null. */
export function silencedProblem(s: Json): string | null {
  if (!s.subscription && !s.check) return 'must provide check or subscription';
  if (s.expire !== undefined && !Number.isInteger(s.expire)) return 'expire must be an integer (seconds; 0 or less: no expiration)';
  if (s.begin !== undefined && !Number.isInteger(s.begin)) return 'begin must be an integer (Unix seconds)';
  return null;
}
