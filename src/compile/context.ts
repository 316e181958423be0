import type { Settings } from '../config/index.js';
import type { CompileContext, SensuGoVersion } from './model.js';
import { secretKeysOf } from './secrets.js';

/** A fresh emitter context for `settings`: the target, offset and secret keys, every collection empty. */
export function newContext(
  settings: Settings,
  namespace: string,
  warn: CompileContext['warn'],
  target: SensuGoVersion = { major: 6, minor: Infinity },
  // The system zone's offset now, as luxon's local zone gives it, without luxon's locale lookup (a daemon's start).
  localOffsetMinutes: number = -new Date().getTimezoneOffset(),
  differences: readonly string[] = [],
): CompileContext {
  return {
    namespace,
    warn,
    labelsRead: new Map(),
    labelReport: {},
    target,
    localOffsetMinutes,
    secretKeys: secretKeysOf(settings.client as Record<string, unknown>),
    became: new Map(),
    differences: new Set(differences),
    checkFilters: new Map(),
    pipelineFilters: new Map(),
  };
}
