// Migration lint: what a configuration names but never defines, and tokens its clients cannot fill. Warnings only:
// legacy loads all of these and fails at run time ("unknown handler", "Unmatched client token(s)").
import { substituteObject } from '../tokens/index.js';
import type { Settings } from '../config/index.js';
import { EXTENSION_HANDLERS, resolveHandlers } from './handler-sets.js';

export interface LintFinding {
  /** Where, in the merged settings. */
  readonly segments: readonly string[];
  readonly message: string;
}

type Tree = Record<string, unknown>;

const isTree = (value: unknown): value is Tree => value !== null && typeof value === 'object' && !Array.isArray(value);
const categoryOf = (merged: Tree, name: string): Tree => (isTree(merged[name]) ? merged[name] : {});

// Names legacy resolves without a definition: the implicit handler lists, and the built-in extensions.
const BUILT_IN_HANDLERS = new Set(['default', 'keepalive', ...EXTENSION_HANDLERS]);
const BUILT_IN_FILTERS = new Set(['occurrences', 'check_dependencies']);
const BUILT_IN_MUTATORS = new Set(['json', 'ruby_hash', 'only_check_output']);

// What legacy does with an event at an unknown name.
const CONSEQUENCE = { handler: 'skips it', filter: 'does not filter the event', mutator: 'does not run the handler' } as const;

/** `key` (a name) or `key + "s"` (a list) of `owner`: each name that `isKnown` refuses, with its place in `owner`. */
function unknownNamesAt(owner: Tree, key: string, isKnown: (name: string) => boolean): { name: string; within: string[] }[] {
  const out: { name: string; within: string[] }[] = [];
  const list = owner[`${key}s`];
  // Places are built for the refused names only: over 10,000 checks nearly every name is known.
  if (Array.isArray(list)) {
    list.forEach((name, i) => {
      if (typeof name === 'string' && !isKnown(name)) out.push({ name, within: [`${key}s`, String(i)] });
    });
  } else if (typeof owner[key] === 'string' && !isKnown(owner[key])) out.push({ name: owner[key], within: [key] });
  return out;
}

function undefinedReferences(merged: Tree): LintFinding[] {
  const out: LintFinding[] = [];
  const extensions = categoryOf(merged, 'extensions');
  const known = (category: string, builtIn: ReadonlySet<string>) => (name: string) =>
    Object.prototype.hasOwnProperty.call(categoryOf(merged, category), name) || builtIn.has(name) || Object.prototype.hasOwnProperty.call(extensions, name);
  const handlerKnown = known('handlers', BUILT_IN_HANDLERS);
  // `owner` sits at [section, name]; the message says "<label> <name>: <key> ...".
  const refer = (owner: Tree, key: 'handler' | 'filter' | 'mutator', section: string, name: string, isKnown: (name: string) => boolean, label: string) => {
    for (const unknown of unknownNamesAt(owner, key, isKnown))
      out.push({
        segments: [section, name, ...unknown.within],
        message: `${label} ${name}: ${key} ${JSON.stringify(unknown.name)} is not defined (legacy logs "unknown ${key}" and ${CONSEQUENCE[key]})`,
      });
  };
  const checks = categoryOf(merged, 'checks');
  for (const name of Object.keys(checks)) {
    const check = checks[name];
    if (!isTree(check)) continue;
    refer(check, 'handler', 'checks', name, handlerKnown, 'check');
    if (typeof check.extension === 'string' && !Object.prototype.hasOwnProperty.call(extensions, check.extension)) {
      out.push({
        segments: ['checks', name, 'extension'],
        message: `check ${name}: extension ${JSON.stringify(check.extension)} is not defined under extensions (legacy logs "unknown check extension" and publishes no result)`,
      });
    }
  }
  for (const [name, handler] of Object.entries(categoryOf(merged, 'handlers'))) {
    if (!isTree(handler)) continue;
    if (handler.type === 'set') refer(handler, 'handler', 'handlers', name, handlerKnown, 'handler set');
    refer(handler, 'filter', 'handlers', name, known('filters', BUILT_IN_FILTERS), 'handler');
    refer(handler, 'mutator', 'handlers', name, known('mutators', BUILT_IN_MUTATORS), 'handler');
  }
  const client = isTree(merged.client) ? merged.client : {};
  for (const part of ['keepalive', 'registration', 'deregistration']) {
    if (isTree(client[part])) refer(client[part], 'handler', 'client', part, handlerKnown, 'client');
  }
  return out;
}

/** Handler sets that contain themselves, directly or through another set, or nest deeper than legacy expands. */
function handlerSetLoops(merged: Tree): LintFinding[] {
  const handlers = categoryOf(merged, 'handlers');
  const view = { handlers } as unknown as Settings;
  const out: LintFinding[] = [];
  for (const [name, handler] of Object.entries(handlers)) {
    if (!isTree(handler) || handler.type !== 'set') continue;
    const problems = resolveHandlers(view, [name]).errors.filter((e) => e.message !== 'unknown handler');
    for (const problem of problems.slice(0, 1))
      out.push({ segments: ['handlers', name, 'handlers'], message: `${problem.message}, from handler set ${name} (legacy skips ${problem.name})` });
  }
  return out;
}

/** The clients that run `check`: every one for a standalone check, else those subscribed to one of its subscribers. */
function clientsRunning(check: Tree, clients: readonly Tree[]): Tree[] {
  if (check.standalone === true) return [...clients];
  const subscribers = Array.isArray(check.subscribers) ? check.subscribers : [];
  return clients.filter((c) => Array.isArray(c.subscriptions) && c.subscriptions.some((s) => subscribers.includes(s)));
}

/** Tokens without a default that no client running the check can fill (proxy checks take theirs from proxy entities). */
function unfillableTokens(merged: Tree, clients: readonly Tree[]): LintFinding[] {
  const out: LintFinding[] = [];
  for (const [name, check] of Object.entries(categoryOf(merged, 'checks'))) {
    if (!isTree(check) || check.proxy_requests !== undefined) continue;
    const running = clientsRunning(check, clients);
    if (running.length === 0) continue;
    const unmatched = running.map((c) => substituteObject(check, c).unmatched);
    const everywhere = unmatched[0]!.filter((token) => unmatched.every((list) => list.includes(token)));
    if (everywhere.length === 0) continue;
    const names = running.map((c) => String(c.name)).join(', ');
    out.push({
      segments: ['checks', name],
      message: `check ${name}: token(s) ${everywhere.map((t) => `:::${t}:::`).join(', ')} name nothing, or an object, in client ${names} and have no default: there it would not run ("Unmatched client token(s)", status 3)`,
    });
  }
  return out;
}

/** Every finding, in a stable order: undefined references, handler set loops, unfillable tokens. */
export function lintConfiguration(merged: Tree, clients: readonly Tree[] = isTree(merged.client) ? [merged.client] : []): LintFinding[] {
  return [...undefinedReferences(merged), ...handlerSetLoops(merged), ...unfillableTokens(merged, clients)];
}
