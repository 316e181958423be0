import type { Logger } from 'pino';
import type { Settings } from '../config/index.js';
import type { EventDraft } from '../legacy/index.js';
import type { CheckResult, ResultIntake } from '../execute/index.js';
import type { StateStore } from '../store/index.js';
import type { EventIntake } from '../intake/index.js';
import { legacyNamespace } from '../config/index.js';
import { MAX_JSON_DEPTH, DEPTH_MESSAGE } from '../json-depth.js';
import { bytesNestTooDeep, decodeFrame, isObject, MESSAGE, type AgentPayload } from './frames.js';
import { proxyTargetProblem } from './proxy-target.js';
import { decodeProtobuf } from './proto/codec.js';
import { RefusalLog } from './refusals.js';
import { KeepaliveWriter } from './keepalives.js';
import type { AgentSession } from './sessions.js';
import type { ReadClock } from '../schedule/index.js';
import { typedEvent, type Entity } from '../v2/index.js';

/** Who scheduled conf.d checks to agents (the scheduler): the one that reads their events back as legacy results. */
export interface LegacyChecks {
  /** A conf.d check's event as the legacy result it stands for (or why it is refused); null for any other event. */
  legacyResultOf(namespace: string, agent: string, event: AgentPayload): { result: CheckResult } | { refused: string } | null;
}

export interface ReceiveDeps {
  readonly store: StateStore;
  readonly settings: () => Settings;
  readonly intake: EventIntake & ResultIntake;
  /** conf.d checks run by agents: their events are the legacy results they stand for. */
  readonly legacyChecks?: LegacyChecks;
  /** A new agent's registration event (legacy `registration` handler), to be handled. */
  readonly onRegistration: (event: EventDraft) => void;
  readonly logger: Logger;
  readonly clock: ReadClock;
  /** The largest frame taken from an agent, in bytes (`checkbridge.agentd.max_message_bytes`): a larger one closes the connection (1009). */
  readonly maxMessageBytes: number;
}

/** Sensu Go's JSON carries the event id as base64 of its 16 bytes: the v2 API's form is the UUID text. */
function uuidOf(id: unknown): string | undefined {
  if (typeof id !== 'string' || id === '') return undefined;
  const bytes = Buffer.from(id, 'base64');
  if (bytes.length !== 16) return id;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** What a refusal's log line names a payload's check by: its `metadata.name`, whatever that holds. */
const checkNameOf = (check: unknown): unknown => (isObject(check) && isObject(check.metadata) ? check.metadata.name : undefined);

/** The payload as a JSON object, or why it is refused: the depth rule every door applies is read before parsing. */
function parseObject(payload: Buffer): AgentPayload | string {
  if (bytesNestTooDeep(payload, MAX_JSON_DEPTH)) return `the payload is ${DEPTH_MESSAGE}`;
  try {
    const value: unknown = JSON.parse(payload.toString('utf8'));
    return isObject(value) ? value : 'the payload is not a JSON object';
  } catch {
    return 'the payload is not a JSON object';
  }
}

/** What arrives from a connected agent: keepalives register and update its entity; events enter the one intake. */
export class AgentMessages {
  private readonly keepalives: KeepaliveWriter;
  private readonly refusals = new WeakMap<AgentSession, RefusalLog>();

  constructor(private readonly deps: ReceiveDeps) {
    this.keepalives = new KeepaliveWriter(deps);
  }

  /** One frame: resolves once what it carries is stored (or refused, and logged why). */
  async receive(session: AgentSession, data: Buffer): Promise<void> {
    const frame = decodeFrame(data);
    if (!frame) return this.refuse(session, 'agent message refused: no message type (a frame is `type\\npayload`)', {}, true);
    // Keepalives and events are both corev2 Events: a protobuf payload becomes the JSON the agent would have sent.
    // A protobuf frame decodes to no more JSON than a JSON frame carries: its elements are counted before any is built.
    const limits = { maxDepth: MAX_JSON_DEPTH, maxJsonBytes: this.deps.maxMessageBytes };
    const body = session.protobuf ? decodeProtobuf('Event', frame.payload, limits) : parseObject(frame.payload);
    if (typeof body === 'string') return this.refuse(session, `agent message refused: ${body}`, { type: frame.type }, true);
    if (frame.type === MESSAGE.keepalive) return this.keepalive(session, body);
    if (frame.type === MESSAGE.event) return this.event(session, body);
    this.refuse(session, 'agent message refused: unknown message type', { type: frame.type }, true);
  }

  /** The connection ended: what its refusals' log still owes is said. */
  ended(session: AgentSession): void {
    this.refusals.get(session)?.summarize();
  }

  /** Logs (or counts, past the first few) a refusal; a connection sending only malformed frames is closed (1008). */
  private refuse(session: AgentSession, message: string, extra: Record<string, unknown>, malformed = false): void {
    const { name, namespace } = session.identity;
    let log = this.refusals.get(session);
    if (!log) this.refusals.set(session, (log = new RefusalLog(this.deps.logger, this.deps.clock, { agent: name, namespace })));
    if (!log.note(message, extra, malformed)) return;
    session.discarding = true;
    this.deps.logger.warn({ agent: name, namespace }, 'agent connection closed (1008): it sends malformed frames only');
    session.close(1008, 'too many malformed messages');
  }

  /** Registers or updates the entity, and the client record the keepalive monitor watches: with the turn's others. */
  keepalive(session: AgentSession, body: AgentPayload): Promise<void> {
    const written = this.keepalives.submit(session, body);
    session.keepaliveWriting = written;
    void written.then(() => {
      if (session.keepaliveWriting === written) session.keepaliveWriting = null;
    });
    return written;
  }

  /** A check result or metrics from the agent, on its stored entity, into the one intake (as the v2 API's PUT). */
  async event(session: AgentSession, body: AgentPayload): Promise<void> {
    const { store, logger } = this.deps;
    const { name, namespace, user } = session.identity;
    // An event after a keepalive not yet written goes on the entity that keepalive registers, as it did when sent.
    if (session.keepaliveWriting) await session.keepaliveWriting;
    const stored: Entity | null = session.entity ?? store.resources.getEntity(namespace, name);
    const legacy = this.deps.legacyChecks?.legacyResultOf(namespace, name, body) ?? null;
    if (legacy && 'refused' in legacy) return this.refuse(session, `agent result of a legacy check refused: ${legacy.refused}`, {});
    if (legacy) return this.legacyResult(name, namespace, legacy.result);
    const check = isObject(body.check) ? body.check : undefined;
    const proxied = proxyTargetProblem(store, legacyNamespace(this.deps.settings()), namespace, name, check);
    if (proxied) return this.refuse(session, `agent event refused: ${proxied}`, { check: checkNameOf(check) });
    const event: Record<string, unknown> = { ...body, id: uuidOf(body.id), metadata: { namespace } };
    // Stored in the agent's namespace, its check says that namespace, whatever one it was sent with.
    if (check && (check.metadata === undefined || check.metadata === null || isObject(check.metadata)))
      event.check = { ...check, metadata: { ...check.metadata, namespace } };
    if (stored) event.entity = stored;
    // An entity that is no object (a list, a string) is left as sent: the type check below refuses it.
    else if (isObject(body.entity))
      event.entity = { ...body.entity, entity_class: 'agent', metadata: { ...(isObject(body.entity.metadata) ? body.entity.metadata : {}), name, namespace } };
    // Typed at the door, as sent with what the door added: a field Sensu Go's clients cannot decode is refused here.
    const { value: typed, problem } = typedEvent(event);
    if (!typed) return this.refuse(session, `agent event refused: ${problem}`, { check: checkNameOf(event.check) });
    try {
      // Kept until stored: an agent is never told an event was not, so the store's outage must not drop it.
      const answer = await this.deps.intake.submitEvent(namespace, typed, user, true);
      if (!answer.ok) this.refuse(session, `agent event refused: ${answer.message}`, { check: typed.check?.metadata?.name });
    } catch (error) {
      logger.error({ err: error, agent: name, namespace }, 'agent event not stored');
    }
  }

  /** A conf.d check's result enters the intake as its legacy client's would: the legacy handling, one history. */
  private async legacyResult(name: string, namespace: string, result: CheckResult): Promise<void> {
    try {
      await this.deps.intake.submit(result);
    } catch (error) {
      this.deps.logger.error({ err: error, agent: name, namespace, check: result.check.name }, 'agent result of a legacy check not stored');
    }
  }
}
