import type { Settings } from '../config/index.js';
import { configuredChecks } from '../config/index.js';
import type { Json } from '../json.js';
import { newContext } from './context.js';
import { emitChecks } from './checks.js';
import { emitAssets } from './assets.js';
import { sensuProblem } from './sensu-rules.js';
import type { Resource } from './model.js';

/** What compile says about one attribute of a check: `attribute` is the key under the check (`hooks`, `extension`, …). */
export interface CheckWarning {
  readonly attribute: string;
  readonly message: string;
}

/** One legacy check as Sensu Go would run it: its CheckConfig and HookConfigs (metadata and spec in one object, as a request carries them). */
export interface TranslatedCheck {
  readonly config: Json;
  readonly hooks: readonly Json[];
  readonly warnings: readonly CheckWarning[];
}

export interface TranslatedChecks {
  readonly checks: ReadonlyMap<string, TranslatedCheck>;
  /** Checks with no translation, with why (compile's warnings, or Sensu Go's refusal). */
  readonly untranslated: ReadonlyMap<string, string>;
  /** The Asset resources of the legacy `assets` category, by name. */
  readonly assets: ReadonlyMap<string, Json>;
}

const flat = (r: Resource): Json => ({ ...r.spec, metadata: r.metadata });

/**
 * The subscription checks of `settings` (not standalone ones) translated as `compile` translates them, for a Sensu
 * Go agent to run: tokens as templates over its entity, hooks as HookConfigs, `roundrobin:` as round_robin.
 */
export function translateChecks(settings: Settings, namespace: string): TranslatedChecks {
  const warned = new Map<string, CheckWarning[]>();
  const ctx = newContext(settings, namespace, (segments, message) => {
    if (segments[0] !== 'checks' || segments.length < 2) return;
    const list = warned.get(segments[1]!) ?? [];
    list.push({ attribute: segments[2] ?? '', message });
    warned.set(segments[1]!, list);
  });
  const raw = configuredChecks(settings) as Record<string, Json>;
  const emitted = emitChecks(settings, ctx, String(settings.client.name));
  const hooks = new Map(emitted.filter((r) => r.type === 'HookConfig').map((r) => [r.metadata.name, r]));
  const checks = new Map<string, TranslatedCheck>();
  const untranslated = new Map<string, string>();
  for (const r of emitted) {
    const name = r.metadata.name;
    if (r.type !== 'CheckConfig' || raw[name]?.standalone === true) continue;
    const own = ((r.spec.check_hooks ?? []) as Record<string, string[]>[]).flatMap((entry) => Object.values(entry).flat()).map((n) => hooks.get(n)!);
    const refusal = [r, ...own].map((doc) => sensuProblem(doc, ctx.target)).find((why) => why !== null);
    if (refusal) untranslated.set(name, `Sensu Go would refuse it: ${refusal}`);
    else checks.set(name, { config: flat(r), hooks: own.map(flat), warnings: warned.get(name) ?? [] });
  }
  for (const [name, check] of Object.entries(raw)) {
    if (check.standalone === true || checks.has(name) || untranslated.has(name)) continue;
    untranslated.set(name, (warned.get(name) ?? []).map((w) => w.message).join('; ') || 'compile emits no CheckConfig for it');
  }
  const assets = new Map(emitAssets(settings, ctx).map((r) => [r.metadata.name, flat(r)]));
  return { checks, untranslated, assets };
}
