import type { Diagnostic, RedactKeys } from '../config/index.js';
import type { Json } from '../json.js';

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
  /** The Sensu Go version the output is for. */
  readonly target: SensuGoVersion;
  /** The backend's UTC offset assumed for legacy times without a zone (minutes). */
  readonly localOffsetMinutes: number;
  /** Keys whose values are secrets (legacy redact list plus the client's own), lower case. */
  readonly secretKeys: RedactKeys;
  /** Per legacy definition (`checks/NAME`, …), the resources it became. */
  readonly became: Map<string, string[]>;
  /** What will behave differently from legacy, once each. */
  readonly differences: Set<string>;
  /** Filters that checks need (quiet hours before `subdues`), by name. */
  readonly checkFilters: Map<string, Resource>;
  /** Per pipeline, the names of check filters to add to its workflow. */
  readonly pipelineFilters: Map<string, string[]>;
}

/** A Sensu Go version, `6.x` being the latest 6 (minor Infinity). */
export interface SensuGoVersion {
  readonly major: number;
  readonly minor: number;
}

export interface CompileResult {
  readonly resources: Resource[];
  readonly warnings: Diagnostic[];
  /** Documents Sensu Go would refuse, left out, each named with why. */
  readonly refused: { resource: string; reason: string }[];
  readonly became: Map<string, string[]>;
  readonly differences: string[];
  /** Per check, the entity labels its templates read. */
  readonly labelReport: Record<string, string[]>;
  /** Every label the checks' templates and the filters read, with the legacy attribute path it comes from. */
  readonly labelsRead: ReadonlyMap<string, string>;
}

export const KIND_ORDER = ['Namespace', 'Asset', 'Entity', 'HookConfig', 'Mutator', 'EventFilter', 'Handler', 'Pipeline', 'CheckConfig', 'Silenced'];

export function resource(
  type: string,
  name: string,
  namespace: string | null,
  spec: Json,
  annotations: Record<string, string> = {},
  labels: Record<string, string> = {},
): Resource {
  return {
    type,
    api_version: 'core/v2',
    metadata: {
      name,
      ...(namespace ? { namespace } : {}),
      ...(Object.keys(labels).length ? { labels } : {}),
      ...(Object.keys(annotations).length ? { annotations } : {}),
    },
    spec,
  };
}

/** Legacy attributes with no v2 home, kept as one annotation so nothing is silently dropped. */
export const LEGACY_ANNOTATION = 'checkbridge.io/legacy-attributes';
