import type { Logger } from 'pino';
import type { ResultIntake } from '../execute/index.js';
import type { Settings } from '../config/index.js';
import type { StateStore } from '../store/index.js';
import type { WireDelivery, WireTransport } from '../transport/index.js';
import { prepareResult, EntityLimitError, isClientResultId, type EventDraft } from '../legacy/index.js';
import { storeKeepalive } from '../keepalives/index.js';
import { nestedTooDeep } from '../json-depth.js';
import { clientNameProblem } from '../rules/index.js';
import { serverSettingsOf } from '../config/index.js';
import type { ReadClock } from '../schedule/index.js';

// processResult's refusal of a result whose signature does not match its client's.
const SIGNATURE_REFUSED = 'invalid check result signature';

export interface FleetConsumerDeps {
  readonly transport: WireTransport;
  readonly store: StateStore;
  readonly settings: () => Settings;
  /** Results go in here; a keepalive that registered a new client wanting a registration event hands it here too. */
  readonly intake: ResultIntake & { submitRegistration(event: EventDraft): void };
  readonly logger: Logger;
  readonly clock: ReadClock;
}

type Parsed = { ok: true; value: Record<string, unknown> } | { ok: false; reason: string };

/** Size, JSON, then a JSON object: what every keepalive and result must be before anything reads it. */
function parse(body: Buffer, maxBytes: unknown): Parsed {
  if (typeof maxBytes === 'number' && body.length > maxBytes) return { ok: false, reason: `message size ${body.length} exceeds max_message_size ${maxBytes}` };
  let value: unknown;
  try {
    // Invalid UTF-8 in check output arrives raw from legacy clients: decoded leniently.
    value = JSON.parse(body.toString('utf8'));
  } catch (error) {
    return { ok: false, reason: `not JSON: ${(error as Error).message}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: false, reason: 'not a JSON object' };
  if (nestedTooDeep(value)) return { ok: false, reason: 'nested too deeply' };
  return { ok: true, value: value as Record<string, unknown> };
}

/**
 * A result's id as a checkbridge client sends it: only where the broker confirms (RabbitMQ, where the client adds one)
 * and only a random UUID. Any other is ignored, the result handled without it; logged the first time and every 1,000th.
 */
function resultIdTaker(transport: WireTransport['name'], log: Logger): (client: string, sentId: unknown) => string | undefined {
  const takes = transport === 'rabbitmq';
  let ignored = 0;
  return (client, sentId) => {
    if (takes && isClientResultId(sentId)) return sentId;
    if (sentId !== undefined && ignored++ % 1000 === 0) {
      const why = takes ? 'not a checkbridge client result id (a random UUID)' : `checkbridge clients send none over ${transport}`;
      log.warn(
        { client, ignored, result_id: typeof sentId === 'string' ? sentId.slice(0, 64) : typeof sentId },
        `result_id ignored, the result handled without it: ${why}`,
      );
    }
    return undefined;
  };
}

/**
 * The server's side of the wire: `keepalives` and `results` consumed with acknowledgement.
 * A result is acknowledged once intake committed it; a crash before that redelivers it. Anything malformed is
 * logged once, acknowledged and dropped — legacy dies on it — and a failed store requeues it once, not forever.
 */
export function consumeFleet(deps: FleetConsumerDeps): void {
  const log = deps.logger.child({ component: 'fleet-consumer' });
  const server = serverSettingsOf(deps.settings());
  const pipe = (value: unknown, fallback: string) => (typeof value === 'string' && value !== '' ? value : fallback);
  const drop = (delivery: WireDelivery, kind: string, reason: string) => {
    log.warn({ kind, reason, bytes: delivery.body.length, payload: delivery.body.subarray(0, 200).toString('utf8') }, `discarding invalid ${kind}`);
    delivery.ack();
  };

  deps.transport.consume(pipe(server.keepalives_pipe, 'keepalives'), 'keepalives', (delivery) => {
    const settings = deps.settings();
    const parsed = parse(delivery.body, serverSettingsOf(settings).max_message_size);
    if (!parsed.ok) return drop(delivery, 'keepalive', parsed.reason);
    const client = parsed.value;
    // The name rules of every other door, before anything is stored or counted toward the entity limit.
    const badName = clientNameProblem(client.name);
    if (badName) return drop(delivery, 'keepalive', badName);
    if (!Array.isArray(client.subscriptions) || !client.subscriptions.every((s) => typeof s === 'string'))
      return drop(delivery, 'keepalive', 'subscriptions must be an array of strings');
    if (client.signature !== undefined && typeof client.signature !== 'string') return drop(delivery, 'keepalive', 'signature must be a string');
    if (typeof client.timestamp !== 'number' || !Number.isFinite(client.timestamp)) return drop(delivery, 'keepalive', 'timestamp must be a number');
    // An agent's record names the namespace its events are read from: only the agent WebSocket may write one.
    if (client.entity_class === 'agent')
      return drop(delivery, 'keepalive', 'entity_class "agent" is for Sensu Go agents, which connect over the agent WebSocket');
    storeKeepalive(deps.store, settings, client, deps.clock.now()).then(
      (outcome) => {
        if (!outcome.accepted) log.warn({ client: client.name }, outcome.reason);
        else if (outcome.registration) {
          log.info({ client: client.name, event: outcome.registration.id }, 'new client registration');
          deps.intake.submitRegistration(outcome.registration);
        }
        delivery.ack();
      },
      (error: Error) => failed(delivery, 'keepalive', error),
    );
  });

  const failed = (delivery: WireDelivery, kind: string, error: Error) => {
    if (delivery.redelivered) {
      log.error({ kind, err: error }, `failed to store ${kind} twice: discarding it`);
      delivery.ack();
    } else {
      log.warn({ kind, err: error }, `failed to store ${kind}: requeued once`);
      delivery.requeue();
    }
  };

  const resultId = resultIdTaker(deps.transport.name, log);
  deps.transport.consume(pipe(server.results_pipe, 'results'), 'results', (delivery) => {
    const parsed = parse(delivery.body, serverSettingsOf(deps.settings()).max_message_size);
    if (!parsed.ok) return drop(delivery, 'result', parsed.reason);
    const { client, check, signature, result_id: sentId } = parsed.value;
    // The name rules of every other door, before intake stores it or counts it toward the entity limit.
    const badName = clientNameProblem(client);
    if (badName !== null || typeof client !== 'string') return drop(delivery, 'result', badName ?? 'client must be a string');
    if (signature !== undefined && typeof signature !== 'string') return drop(delivery, 'result', 'signature must be a string');
    const id = resultId(client, sentId);
    const prepared = prepareResult(check, Math.floor(deps.clock.now() / 1000));
    if (!prepared.ok) return drop(delivery, 'result', prepared.message);
    deps.intake.submit({ client, check: prepared.check, ...(typeof signature === 'string' ? { signature } : {}), ...(id !== undefined ? { id } : {}) }).then(
      () => {
        delivery.ack();
        log.trace({ client, check: prepared.check.name }, 'result acknowledged');
      },
      (error: Error) => {
        // Refused by the rules (signature, entity limit): intake logged why; it will not pass next time either.
        if (error instanceof EntityLimitError || error.message === SIGNATURE_REFUSED) return delivery.ack();
        failed(delivery, 'result', error);
      },
    );
  });
}
