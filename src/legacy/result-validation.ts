import { schemaProblems } from '../config/index.js';
import { nestedTooDeep, DEPTH_MESSAGE } from '../json-depth.js';

export type Prepared =
  { ok: true; check: Record<string, unknown> & { name: string; output: string; status: number; executed: number } } | { ok: false; message: string };

/** Legacy result intake: `status ||= 0`, `executed ||= now`, then the result rules; the first failure is the reason. */
export function prepareResult(value: unknown, nowSeconds: number): Prepared {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: false, message: 'check result must be a JSON object' };
  if (nestedTooDeep(value)) return { ok: false, message: DEPTH_MESSAGE };
  const check = { ...(value as Record<string, unknown>) };
  if (check.status === undefined || check.status === null) check.status = 0;
  if (check.executed === undefined || check.executed === null) check.executed = nowSeconds;
  const problems = schemaProblems('result', check);
  if (problems.length > 0) return { ok: false, message: problems[0]!.message };
  return { ok: true, check: check as Extract<Prepared, { ok: true }>['check'] };
}
