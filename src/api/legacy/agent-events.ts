// A Sensu Go agent's check events, stored once as v2 events, read as the legacy API shows events, results and history.
import type { StateStore, V2EventStore } from '../../store/index.js';
import type { EventIntake } from '../../intake/index.js';
import { legacyCheckOf, legacyEventOf, typedEvent, type Event } from '../../v2/index.js';
import { isPlainObject } from '../../config/index.js';

/** A legacy record (a client, an event, a result, a check) as the store holds it: its fields read where they matter. */
type LegacyRecord = Record<string, unknown>;

/** One check of an agent: its legacy client record, the namespace its entity lives in, and its stored v2 event. */
export interface AgentCheck {
  readonly client: LegacyRecord;
  readonly namespace: string;
  readonly event: Event;
}

const isAgent = (client: LegacyRecord | null): client is LegacyRecord =>
  client !== null && !client.invalidated && client.entity_class === 'agent' && typeof client.namespace === 'string';
const checkName = (event: Event) => String(event.check?.metadata?.name ?? '');
// Open as the legacy registry keeps an event: while its status is not OK.
const isOpen = (event: Event) => Number(event.check?.status ?? 0) !== 0;
const nameIn = (part: unknown) => String(isPlainObject(part) ? part.name : undefined);
// The legacy list order: client, then check (the store's ORDER BY client, check_name).
const byClientAndCheck = (a: LegacyRecord, b: LegacyRecord) => compare(nameIn(a.client), nameIn(b.client)) || compare(nameIn(a.check), nameIn(b.check));
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The view over the one store: an agent's checks are v2 events of its entity, read here in the legacy shape, never
 * copied. Checks the legacy side holds itself for the agent (its keepalive, a legacy result naming it) are the legacy
 * records' mirrors in the v2 store, and are left to them.
 */
export class AgentEventView {
  constructor(
    private readonly store: StateStore,
    private readonly events: V2EventStore,
    // The legacy API's rule for which agents a caller sees (checkbridge.namespace's unless configured otherwise).
    private readonly shows: (client: LegacyRecord) => boolean,
  ) {}

  /** The checks of one agent, or of every agent without a name. */
  checks(name?: string): Promise<AgentCheck[]> {
    return this.collect(name, false);
  }

  /** One check of an agent, or null (a legacy client, or a check the legacy side holds). */
  async check(name: string, check: string): Promise<AgentCheck | null> {
    const client = this.store.getClient(name);
    if (!isAgent(client) || !this.shows(client) || this.store.getResult(name, check)) return null;
    const event = await this.events.get(String(client.namespace), name, check);
    return event ? { client, namespace: String(client.namespace), event } : null;
  }

  /** The checks of one agent, or of all, whose event is open. */
  open(name?: string): Promise<AgentCheck[]> {
    return this.collect(name, true);
  }

  /** The open events of one agent or of all, as legacy events. */
  async openEvents(name?: string): Promise<LegacyRecord[]> {
    return (await this.open(name)).map(({ event, client }) => legacyEventOf(event, client));
  }

  /** One open event, or null. */
  async openEvent(name: string, check: string): Promise<AgentCheck | null> {
    const found = await this.check(name, check);
    return found && isOpen(found.event) ? found : null;
  }

  /** Legacy events first (the store's own), then the agents', in the legacy list order. */
  async withLegacy(legacy: LegacyRecord[], name?: string): Promise<LegacyRecord[]> {
    const agents = await this.openEvents(name);
    return agents.length === 0 ? legacy : [...legacy, ...agents].sort(byClientAndCheck);
  }

  // A check with a legacy result for the agent (its keepalive, a result naming it) is the legacy side's own: left to it.
  // (A legacy event always has its result: the processor stores the result first.)
  private async collect(name: string | undefined, onlyOpen: boolean): Promise<AgentCheck[]> {
    const clients = (name === undefined ? this.store.listClients().filter(isAgent) : [this.store.getClient(name)].filter(isAgent)).filter(this.shows);
    const found: AgentCheck[] = [];
    for (const client of clients) {
      const [agent, namespace] = [String(client.name), String(client.namespace)];
      for (const event of await this.events.list({ namespace, entity: agent })) {
        if ((!onlyOpen || isOpen(event)) && !this.store.getResult(agent, checkName(event))) found.push({ client, namespace, event });
      }
    }
    return found;
  }
}

/** A legacy result of an agent's check: the client's name and the check with its statuses as `history`. */
export const agentResultOf = ({ client, event }: AgentCheck): { client: string; check: LegacyRecord } => ({
  client: String(client.name),
  check: legacyCheckOf(event.check ?? {}),
});

/** An agent's check as `/clients/NAME/history` lists a check: its one history, the v2 event's. */
export function agentHistoryOf(found: AgentCheck): LegacyRecord {
  const { history, ...result } = agentResultOf(found).check;
  const statuses = (history as string[]).map(Number);
  return { check: result.name, history: statuses, last_execution: result.executed, last_status: statuses.at(-1) ?? result.status, last_result: result };
}

/** Legacy and agent results together, in the legacy list order (client, then check). */
export const sortResults = <T extends { client: string; check: LegacyRecord }>(results: T[]): T[] =>
  results.sort((a, b) => compare(a.client, b.client) || compare(String(a.check.name), String(b.check.name)));
/** Legacy and agent history entries together, in check order. */
export const sortHistory = (entries: LegacyRecord[]): LegacyRecord[] => entries.sort((a, b) => compare(String(a.check), String(b.check)));

/**
 * Legacy resolve of an agent's event: an OK of the same check, submitted to the one intake as a v2 event (as
 * `sensuctl event resolve` does), so its pipelines handle the resolution and the history keeps its statuses.
 */
export async function resolveAgentEvent(intake: EventIntake, store: StateStore, found: AgentCheck, nowMs: number): Promise<string | null> {
  const now = Math.floor(nowMs / 1000);
  const name = String(found.client.name);
  // An agent's stored event has its check: the store keys it by the check's name.
  const { history: _history, ...check } = found.event.check ?? {};
  const entity = store.resources.getEntity(found.namespace, name) ?? found.event.entity;
  const { value: event, problem } = typedEvent({
    entity,
    check: { ...check, status: 0, output: 'Resolving on request of the API', issued: now, executed: now },
  });
  if (!event) return problem;
  const answer = await intake.submitEvent(found.namespace, event);
  return answer.ok ? null : answer.message;
}
