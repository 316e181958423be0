// A plain-code check of the common valid check, so the collecting schema validator runs only for checks that may be invalid.
// It answers true only where check.json surely passes; any key or shape it does not know answers false (ajv decides).
import { isValidTime } from '../time/index.js';
import { LEGACY_NAME } from '../rules/index.js';

const HOOK_KEY = /^(ok|warning|critical|unknown|non-zero|[0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])$/;
const KNOWN = new Set(['name', 'command', 'timeout', 'stdin', 'publish', 'interval', 'standalone', 'subscribers', 'handler', 'handlers', 'subdue', 'hooks']);

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function nonEmptyStrings(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (const item of value) if (typeof item !== 'string' || item === '') return false;
  return true;
}

const optional = (value: unknown, type: 'string' | 'boolean') => value === undefined || typeof value === type;
const optionalNumber = (value: unknown) => value === undefined || (typeof value === 'number' && Number.isFinite(value));

// A hook with only a string command, a numeric timeout and a boolean stdin.
function plainHook(hook: unknown): boolean {
  if (!isObject(hook) || typeof hook.command !== 'string') return false;
  for (const key in hook) if (key !== 'command' && key !== 'timeout' && key !== 'stdin') return false;
  return optionalNumber(hook.timeout) && optional(hook.stdin, 'boolean');
}

function plainHooks(hooks: unknown): boolean {
  if (hooks === undefined || hooks === false) return true;
  if (!isObject(hooks)) return false;
  for (const key in hooks) if (!HOOK_KEY.test(key) || !plainHook(hooks[key])) return false;
  return true;
}

const DAYS = new Set(['all', 'sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']);

// Each day a non-empty array of windows, each a hash with a valid begin and end time.
function validDay(windows: unknown): boolean {
  if (!Array.isArray(windows) || windows.length === 0) return false;
  for (const window of windows) if (!isObject(window) || !isValidTime(window.begin) || !isValidTime(window.end)) return false;
  return true;
}

function subdueValid(subdue: unknown): boolean {
  if (subdue === undefined || subdue === false) return true;
  if (!isObject(subdue) || !isObject(subdue.days)) return false;
  let days = 0;
  for (const day in subdue.days) {
    if (!DAYS.has(day) || !validDay(subdue.days[day])) return false;
    days++;
  }
  return days > 0;
}

function scheduled(check: Record<string, unknown>): boolean {
  const { publish, standalone, interval } = check;
  if (!optional(publish, 'boolean') || !optional(standalone, 'boolean')) return false;
  if (publish !== false && !(typeof interval === 'number' && Number.isInteger(interval) && interval > 0)) return false;
  if (publish === false && interval !== undefined) return false;
  // A standalone check's subscribers are not checked at all.
  return standalone === true || nonEmptyStrings(check.subscribers);
}

/** True only when the check schema surely finds no problem in `check` (its nulls already removed). */
export function surelyValidCheck(check: unknown): boolean {
  if (!isObject(check)) return false;
  for (const key in check) if (!KNOWN.has(key)) return false;
  if (typeof check.name !== 'string' || !LEGACY_NAME.test(check.name) || typeof check.command !== 'string') return false;
  if (!optionalNumber(check.timeout) || !optional(check.stdin, 'boolean') || !optional(check.handler, 'string')) return false;
  if (check.handlers !== undefined && !nonEmptyStrings(check.handlers)) return false;
  return scheduled(check) && plainHooks(check.hooks) && subdueValid(check.subdue);
}
