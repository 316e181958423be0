import type { Diagnostic } from './diagnostic.js';
import { pointerOf } from './diagnostic.js';
import type { LoadedFile } from './load.js';
import { locate } from './locate.js';
import { deepMergeInto, isPlainObject, uniqueDeep } from './merge.js';
import { settingsFromEnv } from './env.js';
import { baseSettings, withCheckDefaults } from './defaults.js';
import { validateSettings, type Violation } from './validate.js';
import { legacyMeaningNotes } from './legacy-meaning.js';
import { deepFreeze, type Settings, type CheckDefinition, type ClientDefinition, type Definition } from './settings.js';
import { daemonEnvironment } from './start-environment.js';

/** What validation found, without the typed settings (which `validate` never uses). */
export interface BuildReport {
  readonly diagnostics: readonly Diagnostic[];
  readonly warnings: readonly string[];
  /** Located warnings (code CB_CONFIG_LEGACY_MEANING): what loads as legacy loaded it but means other than it says. */
  readonly notices: readonly Diagnostic[];
  /** The merged settings as configured, defaults of the loader included, valid or not. */
  readonly merged: Record<string, unknown>;
}

export interface BuildOutcome extends BuildReport {
  /** Null when any diagnostic is an error: the caller keeps its last good settings. */
  readonly settings: Settings | null;
}

function has(data: unknown, segments: readonly string[]): boolean {
  let node = data;
  for (const segment of segments) {
    if (Array.isArray(node) && /^\d+$/.test(segment)) node = node[Number(segment)];
    else if (isPlainObject(node) && Object.prototype.hasOwnProperty.call(node, segment)) node = node[segment];
    else return false;
  }
  return true;
}

/** Where a setting came from: the file that set it last (or its parent), with line and column. */
export function locateSetting(
  files: readonly LoadedFile[],
  segments: readonly string[],
  message: string,
  code: Diagnostic['code'] = 'CB_CONFIG_RULE',
): Diagnostic {
  const diagnostic = traceViolation({ segments: [...segments], message } as Violation, files);
  return { ...diagnostic, code };
}

// The file that set the offending value last; for a missing attribute, the one that set its parent last.
function traceViolation(violation: Violation, files: readonly LoadedFile[]): Diagnostic {
  const { segments, message } = violation;
  for (let depth = segments.length; depth > 0; depth--) {
    const prefix = segments.slice(0, depth);
    for (let i = files.length - 1; i >= 0; i--) {
      const file = files[i]!;
      if (file.data && has(file.data, prefix)) {
        const { line, column } = locate(file, segments);
        return { code: 'CB_CONFIG_RULE', file: file.path, line, column, path: pointerOf(segments), message };
      }
    }
  }
  return { code: 'CB_CONFIG_RULE', file: null, line: null, column: null, path: pointerOf(segments), message };
}

// Legacy client override: subscriptions gain client:<name>.
function applyClientOverrides(merged: Record<string, unknown>, warnings: string[]): void {
  const client = merged.client;
  if (!isPlainObject(client)) return;
  const subscriptions = client.subscriptions ?? [];
  if (!Array.isArray(subscriptions)) {
    warnings.push('unable to apply sensu client overrides');
    return;
  }
  merged.client = { ...client, subscriptions: uniqueDeep([...subscriptions, `client:${String(client.name)}`]) };
}

// Frozen in place, not copied: values shared with the files' parses are never mutated after load.
function typedSettings(merged: Record<string, unknown>, files: readonly LoadedFile[]): Settings {
  // Null-prototype maps: a name such as `constructor` looked up in them is data, never an Object member.
  const category = (name: string) => Object.assign(Object.create(null), merged[name] ?? {}) as Record<string, Definition>;
  const checks: Record<string, CheckDefinition> = Object.create(null);
  for (const [name, definition] of Object.entries(category('checks'))) {
    checks[name] = withCheckDefaults(name, definition as Record<string, unknown>);
  }
  return deepFreeze({
    checks,
    handlers: category('handlers'),
    filters: category('filters'),
    mutators: category('mutators'),
    extensions: category('extensions'),
    client: merged.client as ClientDefinition,
    raw: merged,
    files: files.map((f) => f.path),
  });
}

/** Merge (loader defaults, environment, files in order), override, validate. */
export function checkSettings(files: readonly LoadedFile[], env: NodeJS.ProcessEnv = daemonEnvironment()): BuildReport {
  const diagnostics: Diagnostic[] = files.flatMap((f) => f.diagnostics);
  const warnings: string[] = [];
  const merged = baseSettings();
  const owned = new WeakSet<object>([merged]);
  deepMergeInto(merged, settingsFromEnv(env), owned);
  for (const file of files) if (file.data) deepMergeInto(merged, file.data, owned);
  applyClientOverrides(merged, warnings);
  // The definitions come from the files alone: none holds a null when no file's text does.
  const definitionsNullFree = files.every((file) => file.data === null || file.nullFree === true);
  diagnostics.push(...validateSettings(merged, definitionsNullFree).map((v) => traceViolation(v, files)));
  const notices = legacyMeaningNotes(merged).map((v) => locateSetting(files, v.segments, v.message, 'CB_CONFIG_LEGACY_MEANING'));
  return { diagnostics, warnings, notices, merged };
}

/** checkSettings, then the defaults applied and the settings frozen when valid. */
export function buildSettings(files: readonly LoadedFile[], env: NodeJS.ProcessEnv = daemonEnvironment()): BuildOutcome {
  const report = checkSettings(files, env);
  return { ...report, settings: report.diagnostics.length === 0 ? typedSettings(report.merged, files) : null };
}
