// The names an agent gives at the handshake: its name becomes a v2 entity and a legacy client record, so it must
// satisfy both doors' rules (a name either API refuses could never be read back or deleted); its namespace the v2 one.
import type { IncomingMessage } from 'node:http';
import { clientNameProblem, sensuNameProblem } from '../rules/index.js';

const shown = (value: string) => JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}…` : value);

/** Why a header's value is refused: given more than once (Node joins repeats with ", "), or null. */
function repeated(request: IncomingMessage, header: string, label: string): string | null {
  const values = request.headersDistinct?.[header] ?? [];
  return values.length > 1 ? `the ${label} header must be given once (got ${values.length})` : null;
}

/** Why the agent name is not one both APIs accept (letters, digits, _ . - and at most 255 characters), or null. */
export function agentNameProblem(name: string): string | null {
  // A URL resolves the path segments `.` and `..` away: no API could read back or delete an entity of either name.
  const problem = name === '.' || name === '..' ? 'client name cannot be . or .. (no URL can name it)' : clientNameProblem(name);
  return problem ? `agent name ${shown(name)} refused: ${problem.replace(/^client name/, 'an agent name (its entity and client name)')}` : null;
}

/** Why the namespace is not a name the v2 API could have created (the name rule), or null; none given is the default one. */
export function namespaceNameProblem(namespace: string): string | null {
  const problem = namespace === '' ? null : sensuNameProblem(namespace, 'a namespace name');
  return problem ? `namespace ${shown(namespace)} refused: ${problem}` : null;
}

/** The first reason the handshake's name headers are refused (400), or null: each given once, each by its rule. */
export function agentHeadersProblem(request: IncomingMessage, name: string, namespace: string): string | null {
  return (
    repeated(request, 'sensu-agentname', 'Sensu-AgentName') ??
    repeated(request, 'sensu-namespace', 'Sensu-Namespace') ??
    agentNameProblem(name) ??
    namespaceNameProblem(namespace)
  );
}
