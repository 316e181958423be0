import type { Logger } from 'pino';
import { secretRefsOf, type SecretRef } from '../config/index.js';
import type { SecretsDelivery } from './remote.js';
import type { Resolution } from './resolver.js';

import type { Json } from '../json.js';

// Members said once to run a check without its secrets; past this many, further ones are not said.
const WARNED_MAX = 10_000;

/** Resolves references in a namespace: the SecretsResolver's `resolve`. */
export type ResolveSecrets = (namespace: string, refs: readonly SecretRef[]) => Promise<Resolution>;

/** One remote member a check request goes to: whether it may have the values, and how to send it its request. */
export interface RemoteMember<R> {
  /** `agent` or `client` (a legacy one): the log line's field naming the member. */
  readonly kind: string;
  readonly name: string;
  readonly delivery: SecretsDelivery;
  send(request: R): void;
}

/**
 * The remote rule at send time: a member over mutual TLS gets the check's values as Sensu Go's
 * `CheckRequest.secrets` (`NAME=value`, what the agent adds to the check's environment); any other gets the request
 * without them, and the daemon says why once per check and member.
 */
export class RemoteSecrets {
  private readonly log: Logger;
  private readonly warned = new Set<string>();
  /** When the latest request with values was issued, per check (and proxy entity): a slower, older one is dropped. */
  private readonly sent = new Map<string, number>();

  constructor(
    private readonly resolve: ResolveSecrets,
    logger: Logger,
  ) {
    this.log = logger.child({ component: 'secrets' });
  }

  /** Says once per check and member that it runs the check without its secrets, and why (never a value). */
  noteWithheld(namespace: string, check: string, member: { kind: string; name: string }, reason: string): void {
    const key = JSON.stringify([namespace, check, member.kind, member.name]);
    // Bounded like the intake's refused senders: names are the senders' choice.
    if (this.warned.has(key) || this.warned.size >= WARNED_MAX) return;
    this.warned.add(key);
    this.log.warn({ check, namespace, [member.kind]: member.name, reason }, `secrets withheld: the ${member.kind} runs the check without them`);
  }

  /**
   * Sends `request` to each member, with the values to those over mutual TLS: resolved once for all of them, at send
   * time. When they cannot be resolved the request does not go to those members (Sensu Go's schedulerd sends no
   * request then), logged with the reason; members without mutual TLS get theirs either way.
   */
  deliver<R extends { readonly config: Json; readonly issued: number }>(namespace: string, request: R, members: readonly RemoteMember<R>[]): void {
    const refs = secretRefsOf(request.config);
    const check = String(request.config.metadata?.name ?? '');
    const trusted: RemoteMember<R>[] = [];
    for (const member of members) {
      if (refs.length > 0 && member.delivery.send) trusted.push(member);
      else {
        if (refs.length > 0 && !member.delivery.send) this.noteWithheld(namespace, check, member, member.delivery.reason);
        member.send(request);
      }
    }
    if (trusted.length === 0) return;
    const key = JSON.stringify([namespace, check, request.config.proxy_entity_name ?? '']);
    void this.resolve(namespace, refs)
      .then((resolution) => {
        // Never an older request after a newer one: a resolution that took longer than the next one's is dropped.
        if (request.issued < (this.sent.get(key) ?? 0)) return;
        if (!resolution.ok) {
          this.log.error(
            { check, namespace, members: trusted.map((m) => m.name), reason: resolution.output },
            'check request not sent: its secrets could not be resolved',
          );
          return;
        }
        // As Sensu Go's SubSecrets: an empty value adds no variable.
        const secrets = Object.entries(resolution.env)
          .filter(([, value]) => value !== '')
          .map(([name, value]) => `${name}=${value}`);
        this.sent.set(key, request.issued);
        for (const member of trusted) member.send({ ...request, secrets });
      })
      .catch((error: Error) => this.log.error({ check, namespace, err: error }, 'check request with secrets not sent'));
  }
}
