// Typed, frozen settings: what the runtime receives after load, merge, validate and defaults.
import type { JsonObject, JsonValue } from '../json.js';

export interface HookDefinition {
  readonly command: string;
  readonly timeout: number;
  readonly stdin?: boolean;
  readonly [key: string]: JsonValue | undefined;
}

export interface TimeWindow {
  readonly begin: string;
  readonly end: string;
}

export interface Subdue {
  readonly days: Readonly<Record<string, readonly TimeWindow[]>>;
}

export interface ProxyRequests {
  readonly client_attributes: JsonObject;
  readonly splay?: boolean;
  readonly splay_coverage: number;
}

export interface CheckDefinition {
  readonly name: string;
  readonly type: 'standard' | 'metric' | string;
  readonly command?: string;
  readonly extension?: string;
  readonly standalone?: boolean;
  readonly subscribers?: readonly string[];
  readonly publish: boolean;
  readonly interval?: number;
  readonly cron?: string;
  readonly timeout?: number;
  readonly stdin?: boolean;
  readonly ttl?: number;
  readonly ttl_status: number;
  readonly auto_resolve: boolean;
  readonly force_resolve?: boolean;
  readonly handle: boolean;
  readonly handler?: string;
  readonly handlers?: readonly string[];
  readonly source?: string;
  readonly truncate_output: boolean;
  readonly truncate_output_length: number;
  readonly subdue?: Subdue;
  readonly hooks?: Readonly<Record<string, HookDefinition>>;
  readonly proxy_requests?: ProxyRequests;
  readonly occurrences: number;
  readonly refresh: number;
  readonly [key: string]: unknown;
}

export interface ClientDefinition {
  readonly name: string;
  readonly address: string;
  readonly subscriptions: readonly string[];
  readonly safe_mode?: boolean;
  readonly redact?: readonly string[];
  readonly [key: string]: unknown;
}

export type Definition = Readonly<Record<string, unknown>>;

export interface Settings {
  readonly checks: Readonly<Record<string, CheckDefinition>>;
  readonly handlers: Readonly<Record<string, Definition>>;
  readonly filters: Readonly<Record<string, Definition>>;
  readonly mutators: Readonly<Record<string, Definition>>;
  readonly extensions: Readonly<Record<string, Definition>>;
  readonly client: ClientDefinition;
  /** The merged settings as configured (no defaults added), for everything else: sensu, api, transport, custom keys. */
  readonly raw: Readonly<Record<string, unknown>>;
  /** The files loaded, in load order. */
  readonly files: readonly string[];
}

export const CATEGORIES = ['checks', 'filters', 'mutators', 'handlers', 'extensions'] as const;

export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
