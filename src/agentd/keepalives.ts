import type { Logger } from 'pino';
import { legacyNamespace, type Settings } from '../config/index.js';
import type { EventDraft } from '../legacy/index.js';
import { TurnBatch, type StateStore } from '../store/index.js';
import { keepaliveCheck, receiveKeepalive } from '../keepalives/index.js';
import { entityFromKeepalive, clientRecordOf, typedAgentEntity, type AgentEntity } from './entity.js';
import { isObject, type AgentPayload } from './frames.js';
import type { Entity } from '../v2/index.js';
import type { AgentSession } from './sessions.js';
import type { ReadClock } from '../schedule/index.js';

export interface KeepaliveDeps {
  readonly store: StateStore;
  readonly settings: () => Settings;
  readonly onRegistration: (event: EventDraft) => void;
  readonly logger: Logger;
  readonly clock: ReadClock;
}

interface Pending {
  readonly session: AgentSession;
  readonly body: AgentPayload;
  readonly resolve: () => void;
}

/** A keepalive written: what its session learns once the transaction committed. */
interface Written {
  readonly session: AgentSession;
  readonly entity: AgentEntity;
  readonly registration: EventDraft | null;
}

/**
 * Agents' keepalives, each turn's in one transaction (client record and entity together): two commits a keepalive
 * cost more than their writes (10,000 agents). Each keepalive is its own savepoint inside it.
 */
export class KeepaliveWriter {
  private readonly pending = new TurnBatch<Pending>((batch) => this.write(batch));
  /** Sessions whose name another client holds: said once each, not at every keepalive. */
  private readonly refusedOnce = new WeakSet<AgentSession>();
  private readonly illTypedOnce = new WeakSet<AgentSession>();

  constructor(private readonly deps: KeepaliveDeps) {}

  /** Resolves once the keepalive is committed (or refused, and logged why). */
  submit(session: AgentSession, body: AgentPayload): Promise<void> {
    return new Promise((resolve) => this.pending.add({ session, body, resolve }));
  }

  /** Resolves once every keepalive submitted so far has gone to its commit. */
  flushed(): Promise<void> {
    return this.pending.flushed();
  }

  /** One turn's keepalives as one unit of work: resolves once they are committed (the next turn's wait meanwhile). */
  private write(batch: Pending[]): Promise<void> {
    const { store, logger } = this.deps;
    const written: Written[] = [];
    const settings = this.deps.settings();
    const nowMs = this.deps.clock.now();
    // On a shared PostgreSQL store, every client of the batch locked at once, in one order (no deadlock).
    // With each entity, its name in the legacy namespace: the entity limit's gate asks whether a new agent is one there.
    const legacy = legacyNamespace(settings);
    const keys = {
      pairs: [],
      clients: batch.map(({ session }) => session.identity.name),
      v2: {
        events: [],
        entities: batch.flatMap(({ session: { identity } }) => [[identity.namespace, identity.name] as const, [legacy, identity.name] as const]),
      },
    };
    const work = () => {
      for (const pending of batch) {
        const done = this.writeOne(settings, pending, nowMs);
        if (done) written.push(done);
      }
    };
    return store
      .unit(keys, work, () => (written.length = 0))
      .then(
        () => this.applied(batch, written, nowMs),
        (error: unknown) => {
          // A failure that ends the whole transaction (a full database) undid the batch: each again alone.
          if (batch.length > 1) return Promise.all(batch.map((pending) => this.write([pending]))).then(() => undefined);
          logger.error({ err: error, agent: batch[0]?.session.identity.name }, 'agent keepalive not stored');
          this.applied(batch, [], nowMs);
        },
      );
  }

  private applied(batch: Pending[], written: Written[], nowMs: number): void {
    for (const { session, entity, registration } of written) {
      session.entity = entity;
      session.lastKeepaliveMs = nowMs;
      session.subscriptions = new Set(entity.subscriptions ?? []);
      if (registration) this.deps.onRegistration(registration);
    }
    for (const { resolve } of batch) resolve();
  }

  /** Registers or updates one agent's entity and client record, in a savepoint: a throw undoes this keepalive only. */
  private writeOne(settings: Settings, { session, body }: Pending, nowMs: number): Written | null {
    const { store, logger } = this.deps;
    const { name, namespace } = session.identity;
    const nowS = Math.floor(nowMs / 1000);
    try {
      return store.transaction(() => {
        const claim = claimName(settings, store.getClient(name), namespace, nowMs);
        if ('refused' in claim) {
          if (!this.refusedOnce.has(session))
            logger.warn({ agent: name, namespace, reason: claim.refused }, "agent keepalive refused: its name is another client's");
          this.refusedOnce.add(session);
          // Not registered, it runs nothing: a member of no subscription (a round robin would give it turns lost).
          session.subscriptions = new Set();
          return null;
        }
        if (claim.takenOver) logger.warn({ agent: name, namespace, reason: claim.takenOver }, 'agent takes over a stale client record of its name');
        // An entity that is no object (a string, a list) brings nothing: its characters or items are no fields.
        const posted = isObject(body.entity) ? body.entity : {};
        const stored: Entity | null = store.resources.getEntity(namespace, name);
        // An entity sensuctl could not decode would break every listing of the namespace: refused, the old one kept.
        const { value: entity, problem } = typedAgentEntity(entityFromKeepalive(session.identity, posted, stored, nowS));
        if (!entity) {
          if (!this.illTypedOnce.has(session)) logger.warn({ agent: name, namespace, reason: problem }, 'agent keepalive refused: ill-typed entity');
          this.illTypedOnce.add(session);
          return null;
        }
        const check = isObject(body.check) ? body.check : {};
        const outcome = receiveKeepalive(store, settings, clientRecordOf(entity, check, nowS), nowMs);
        if (!outcome.accepted) {
          logger.warn({ agent: name, namespace }, outcome.reason);
          return null;
        }
        store.resources.putEntity(namespace, name, entity);
        return { session, entity, registration: outcome.registration };
      });
    } catch (error) {
      if (!store.db.inTransaction) throw error;
      logger.error({ err: error, agent: name, namespace }, 'agent keepalive not stored');
      return null;
    }
  }
}

/**
 * Whether an agent may write the client record of its name (records are keyed by name alone): its own, a free or
 * deleted name, or a record whose keepalives went critical (a host moved from sensu-client to sensu-agent) — never a
 * live client's, nor a proxy client's, which has no keepalive to go stale.
 */
function claimName(
  settings: Settings,
  existing: Record<string, unknown> | null,
  namespace: string,
  nowMs: number,
): { refused: string } | { takenOver: string | null } {
  if (!existing || existing.invalidated) return { takenOver: null };
  const agent = existing.entity_class === 'agent';
  if (agent && existing.namespace === namespace) return { takenOver: null };
  const holder = agent ? `a Sensu Go agent of namespace "${String(existing.namespace)}"` : 'a legacy client';
  if (existing.keepalives === false) return { refused: `${holder} without keepalives holds the name: delete that client first` };
  if (keepaliveCheck(settings, existing, nowMs).status !== 2) return { refused: `${holder} with live keepalives holds the name` };
  return { takenOver: `${holder}'s keepalive is past its critical threshold` };
}
