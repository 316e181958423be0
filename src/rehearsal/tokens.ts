import { TOKEN, substituteTokens, renderGoTemplate } from '../tokens/index.js';
import { agentTemplateOf } from '../compile/index.js';

/** A token of a check's command that the agent would render differently from legacy: the token and the label it reads (never the values). */
export interface TokenDifference {
  readonly token: string;
  readonly label: string | null;
}

/**
 * Each `:::token:::` of `command` rendered as legacy did (from the client's attributes) and as the agent would (the
 * compiled template over an entity with `labels`): the tokens whose results differ, or where one side fails.
 */
export function tokenDifferences(command: string, client: Record<string, unknown>, labels: Record<string, string>): TokenDifference[] {
  const out: TokenDifference[] = [];
  const entity = { name: String(client.name), labels, annotations: {} };
  for (const match of command.matchAll(new RegExp(TOKEN.source, 'g'))) {
    const token = match[0];
    const legacy = substituteTokens(token, client);
    const read = new Map<string, string>();
    const v2 = renderGoTemplate(agentTemplateOf(token, read), entity);
    const legacyValue = legacy.unmatched.length > 0 ? null : legacy.value;
    const v2Value = v2.ok ? v2.value : null;
    if (legacyValue !== v2Value && !out.some((d) => d.token === token)) out.push({ token, label: [...read.keys()][0] ?? null });
  }
  return out;
}
