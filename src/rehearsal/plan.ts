import { createHash } from 'node:crypto';
import type { Settings } from '../config/index.js';
import { legacyNamespace } from '../config/index.js';
import { compileSettings } from '../compile/index.js';
import type { Json } from '../json.js';

/** The compiled form of one configuration, as the rehearsal reads it: made once per configuration change. */
export interface RehearsalPlan {
  /** The configuration's digest: the history is about this one. */
  readonly digest: string;
  readonly namespace: string;
  readonly settings: Settings;
  /** `Kind/name` → the resource as Sensu Go stores it (spec and metadata in one object). */
  readonly resources: ReadonlyMap<string, Json>;
  /** Per legacy definition (`checks/x`, `handlers/y`, `filters/z`), compile's warnings about it, each with the attribute it is about. */
  readonly warnings: ReadonlyMap<string, readonly { attribute: string; message: string }[]>;
  readonly labelsRead: ReadonlyMap<string, string>;
}

// A warning's pointer `/checks/disk/subdue` is about `checks/disk`, attribute `subdue`.
function ownerOf(path: string): { owner: string; attribute: string } {
  const [kind, name, attribute] = path
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  return { owner: name === undefined ? String(kind) : `${kind}/${name}`, attribute: attribute ?? '' };
}

/** The configuration's digest: what the history is reset on. */
export function configurationDigest(settings: Settings): string {
  const { checks, handlers, filters, mutators, client } = settings;
  return createHash('sha256')
    .update(JSON.stringify({ checks, handlers, filters, mutators, client, checkbridge: settings.raw.checkbridge ?? null }))
    .digest('hex')
    .slice(0, 16);
}

/** Compiles `settings` as `checkbridge compile` does, for the rehearsal to evaluate each event against. */
export function planOf(settings: Settings): RehearsalPlan {
  const namespace = legacyNamespace(settings);
  const compiled = compileSettings(settings, [], namespace);
  const resources = new Map<string, Json>();
  for (const r of compiled.resources) resources.set(`${r.type}/${r.metadata.name}`, { ...(r.spec as Json), metadata: r.metadata });
  const warnings = new Map<string, { attribute: string; message: string }[]>();
  for (const w of compiled.warnings) {
    const { owner, attribute } = ownerOf(w.path);
    const list = warnings.get(owner) ?? [];
    list.push({ attribute, message: w.message });
    warnings.set(owner, list);
  }
  return { digest: configurationDigest(settings), namespace, settings, resources, warnings, labelsRead: compiled.labelsRead };
}
