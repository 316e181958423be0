import type { Diagnostic } from '../config/index.js';

type Json = Record<string, any>;

export interface Resource {
  readonly type: string;
  readonly api_version: 'core/v2';
  readonly metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  readonly spec: Json;
}

/** What an emitter needs: the namespace, a way to warn about a setting (located later), and the labels tokens read. */
export interface CompileContext {
  readonly namespace: string;
  warn(segments: readonly string[], message: string): void;
  /** Labels the checks' templates read (label → legacy attribute path), so the emitted entity can carry them. */
  readonly labelsRead: Map<string, string>;
  /** Per check, the labels its templates read. */
  readonly labelReport: Record<string, string[]>;
}

export interface CompileResult {
  readonly resources: Resource[];
  readonly warnings: Diagnostic[];
  /** Per check, the entity labels its templates read. */
  readonly labelReport: Record<string, string[]>;
}

export const KIND_ORDER = ['Namespace', 'Entity', 'HookConfig', 'Mutator', 'EventFilter', 'Handler', 'Pipeline', 'CheckConfig', 'Silenced'];

export function resource(type: string, name: string, namespace: string | null, spec: Json, annotations: Record<string, string> = {}, labels: Record<string, string> = {}): Resource {
  return {
    type,
    api_version: 'core/v2',
    metadata: { name, ...(namespace ? { namespace } : {}), ...(Object.keys(labels).length ? { labels } : {}), ...(Object.keys(annotations).length ? { annotations } : {}) },
    spec,
  };
}

/** Legacy attributes with no v2 home, kept as one annotation so nothing is silently dropped. */
export const LEGACY_ANNOTATION = 'checkbridge.io/legacy-attributes';
