// What the client, event and result routes share: one namespace rule, and one view over Sensu Go agents' v2 events.
import type { LegacyApiDeps } from './deps.js';
import { AgentEventView } from './agent-events.js';
import { EmbeddedEventStore } from '../../store/index.js';
import { legacyScope, type LegacyScope } from './scope.js';

export interface LegacyViews {
  /** Which clients (agents of other namespaces) this caller sees, under the settings of now. */
  scope(): LegacyScope;
  /** Agents' open check events and results, read from their v2 events. */
  readonly agents: AgentEventView;
  /** The client record when the caller sees it (not invalidated, in scope), else null. */
  visible(client: Record<string, unknown> | null): Record<string, unknown> | null;
  /** Whether a client name is hidden from the caller. */
  hidden(client: string): boolean;
  /** A Sensu Go agent's client record of that name (any namespace), or null: only its agent writes it. */
  agentRecord(name: unknown): Record<string, unknown> | null;
}

export function legacyViews(deps: LegacyApiDeps): LegacyViews {
  // One rule for every view: which clients (agents of other namespaces) this caller sees.
  const scope = () => legacyScope(deps.store, deps.settings());
  const agents = new AgentEventView(deps.store, deps.events ?? new EmbeddedEventStore(deps.store.resources), (client) => scope().shows(client));
  const visible = (client: Record<string, unknown> | null) => (client && !client.invalidated && scope().shows(client) ? client : null);
  const hidden = (client: string) => scope().hides(client);
  const agentRecord = (name: unknown) => {
    const client = typeof name === 'string' ? deps.store.getClient(name) : null;
    return client?.entity_class === 'agent' ? client : null;
  };
  return { scope, agents, visible, hidden, agentRecord };
}
