// Which proxy entities a v2 check request goes to: its entity_attributes evaluated in the sandbox, off the event loop.
import type { Logger } from 'pino';
import { evaluateInSandbox, SandboxAllowance, DISPATCH_ALLOWANCE_MS } from '../js-sandbox/index.js';
import type { Entity } from '../v2/index.js';

/** An entity as expressions and templates see it: metadata fields lifted to the top, labels and annotations always maps (Sensu Go's dynamic.Synthesize). */
export function synthesizedEntity(entity: Entity): Record<string, unknown> {
  const metadata = entity.metadata ?? {};
  return { ...entity, ...metadata, labels: metadata.labels ?? {}, annotations: metadata.annotations ?? {} };
}

/**
 * The entities for which every `entity_attributes` expression holds (Sensu Go: all of them), one evaluation after
 * another in the namespace's sandbox turn, all sharing one check request's allowance.
 */
export async function matchingEntities(
  entities: Entity[],
  expressions: string[],
  at: { namespace: string; check: string; nowMs: number; log: Logger },
): Promise<Entity[]> {
  const allowance = new SandboxAllowance(DISPATCH_ALLOWANCE_MS, 'check request');
  const matched: Entity[] = [];
  for (const entity of entities) {
    const subject = synthesizedEntity(entity);
    let all = true;
    for (const expression of expressions) {
      const outcome = await evaluateInSandbox(
        expression,
        { entity: subject },
        { nowMs: at.nowMs, entity: String(entity.metadata?.name ?? ''), namespace: at.namespace, allowance },
      );
      if (!outcome.ok && outcome.report)
        at.log.error({ namespace: at.namespace, check: at.check, expression, error: outcome.error }, 'proxy entity_attributes expression failed');
      if (!outcome.ok || !outcome.matched) {
        all = false;
        break;
      }
    }
    if (all) matched.push(entity);
  }
  return matched;
}
