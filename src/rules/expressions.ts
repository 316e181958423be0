// The syntax check of JavaScript expressions (filter `expressions`, `proxy_requests.entity_attributes`).
import { Script } from 'node:vm';

/** Why a list of JavaScript expressions does not parse as programs (compiled, never run), or null; `field` names the list. */
export function expressionsProblem(field: string, expressions: unknown): string | null {
  const list = (expressions ?? []) as unknown[];
  for (let index = 0; index < list.length; index++) {
    try {
      new Script(String(list[index]), { filename: `${field}[${index}]` });
    } catch (error) {
      return `${field}[${index}] is not a valid JavaScript expression: ${(error as Error).message}`;
    }
  }
  return null;
}
