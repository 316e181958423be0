// An Event's rules (Sensu Go's Event.Validate, in order): its entity's and its check's, each message saying which.
import { EVENT_ENTITY_CLASSES, isOneOf } from './enumerations.js';
import { flapThresholdsProblem, proxyEntityNameProblem, ttlProblem } from './check.js';
import { sensuNameProblem } from './names.js';
import type { Json } from '../json.js';

const UINT32_MAX = 4294967295;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function entityProblem(entity: Json): string | null {
  const badName = sensuNameProblem(entity.metadata?.name, 'entity name');
  if (badName) return badName;
  if (!entity.metadata?.namespace) return 'namespace must be set';
  if (entity.entity_class !== undefined && !isOneOf(EVENT_ENTITY_CLASSES, entity.entity_class))
    return `entity_class must be one of ${EVENT_ENTITY_CLASSES.join(', ')} (got ${JSON.stringify(entity.entity_class)})`;
  return null;
}

function checkProblem(check: Json): string | null {
  const badName = sensuNameProblem(check.metadata?.name, 'check name');
  if (badName) return badName;
  // uint32 as in the backend: no negatives, no float, nothing JSON.parse rounded (2^53 + 1) or made Infinity (1e400).
  if (check.status !== undefined && (!Number.isInteger(check.status) || check.status < 0 || check.status > UINT32_MAX))
    return 'status must be an unsigned 32-bit integer';
  if (check.publish === true && !check.cron && !(Number(check.interval) >= 1)) return 'check interval must be greater than or equal to 1';
  return ttlProblem(check.ttl, check.interval) ?? flapThresholdsProblem(check) ?? proxyEntityNameProblem(check);
}

/** The first reason an event is invalid, or null. */
export function eventProblem(event: Json): string | null {
  if (!event.entity || typeof event.entity !== 'object') return 'event must contain an entity';
  if (!event.check && !event.metrics) return 'event must contain a check or metrics';
  const entity = entityProblem(event.entity);
  if (entity) return `entity is invalid: ${entity}`;
  if (event.check) {
    const check = checkProblem(event.check);
    if (check) return `check is invalid: ${check}`;
  }
  for (const ref of (event.pipelines ?? []) as Json[]) {
    if (ref?.api_version !== 'core/v2' || ref?.type !== 'Pipeline')
      return `pipeline reference is invalid: resource type not capable of acting as a pipeline: ${ref?.api_version}.${ref?.type}`;
  }
  if (event.metadata?.name) return 'events cannot be named';
  if (event.id !== undefined && event.id !== null && event.id !== '' && !UUID.test(String(event.id)))
    return `event ID is invalid: invalid UUID ${JSON.stringify(event.id)}`;
  return null;
}
