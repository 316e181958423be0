import type { Asset, CheckConfig, HookConfig } from '../v2/index.js';

/** A v2 check request as Sensu Go's schedulerd builds it: the CheckConfig, its HookConfigs and Assets, when issued. */
export interface V2CheckRequest {
  readonly config: CheckConfig;
  readonly hooks: readonly HookConfig[];
  readonly assets: readonly Asset[];
  /** The Assets each hook's own `runtime_assets` name, by hook (Sensu Go's `hook_assets`). */
  readonly hook_assets?: Readonly<Record<string, { readonly assets: readonly Asset[] }>>;
  /** Epoch seconds. */
  readonly issued: number;
}

/** The check of a request as its agent tells runs apart: its name, and the proxy entity it runs for. */
export function checkRunOf(request: V2CheckRequest): string {
  const config = request.config;
  // A flat config (no metadata) names itself at the top.
  const name = String(config.metadata?.name ?? (config as { name?: unknown }).name);
  return config.proxy_entity_name ? `${name}/${config.proxy_entity_name}` : name;
}

/** One member of a subscription: its kind (`legacy`, `agent`) and its entity name. */
export interface RequestTarget {
  readonly kind: string;
  readonly name: string;
}

/** The one order of a round-robin ring: by name, then kind. */
export const byNameThenKind = (a: RequestTarget, b: RequestTarget): number =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0;

/**
 * One kind of subscriber, each with its own wire format: legacy clients over the legacy transport, and Sensu Go
 * agent sessions (the agent service registers its kind here when it starts).
 */
export interface TargetKind {
  readonly kind: string;
  /** The names of the members subscribed to `subscription` in `namespace` now: round robin chooses among them. */
  members(namespace: string, subscription: string): readonly string[];
  /** Sends to every member of the subscription (one publish where the transport fans out itself). */
  broadcast(namespace: string, subscription: string, request: V2CheckRequest): void;
  /** Sends to the one member `name` (round robin). */
  send(namespace: string, name: string, request: V2CheckRequest): void;
}

/** Who is subscribed to what, over every kind of subscriber: where v2 check requests go. */
export class CheckRequestTargets {
  private readonly kinds = new Map<string, TargetKind>();

  /** Adds a kind of subscriber; the returned function takes it away (its service stopping). */
  register(kind: TargetKind): () => void {
    if (this.kinds.has(kind.kind)) throw new Error(`a target kind named ${kind.kind} is already registered`);
    this.kinds.set(kind.kind, kind);
    return () => void (this.kinds.get(kind.kind) === kind && this.kinds.delete(kind.kind));
  }

  /** Every member of the subscription, of every kind (or of the kinds `wanted` says), in one stable order (the round-robin ring). */
  members(namespace: string, subscription: string, wanted: (kind: string) => boolean = () => true): RequestTarget[] {
    const out: RequestTarget[] = [];
    for (const kind of this.kinds.values())
      if (wanted(kind.kind)) for (const name of kind.members(namespace, subscription)) out.push({ kind: kind.kind, name });
    return out.sort(byNameThenKind);
  }

  broadcast(namespace: string, subscription: string, request: V2CheckRequest): void {
    for (const kind of this.kinds.values()) kind.broadcast(namespace, subscription, request);
  }

  send(namespace: string, target: RequestTarget, request: V2CheckRequest): void {
    this.kinds.get(target.kind)?.send(namespace, target.name, request);
  }
}
