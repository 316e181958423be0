// Event.Validate, in order, with the messages the API returns.
import { MAX_NAME_LENGTH } from '../name-limits.js';
import type { Json } from '../json.js';

const NAME = /^[\w.\-:]+$/;
const ENTITY_CLASSES = ['agent', 'proxy', 'service', 'backend'];
const UINT32_MAX = 4294967295;
const TOO_LONG = `name must be at most ${MAX_NAME_LENGTH} characters`;
const tooLong = (name: unknown) => String(name).length > MAX_NAME_LENGTH;
// `.` and `..` cannot be named in a URL: an entity or check of that name could be listed but never read or deleted.
const DOT_NAME = 'name must not be . or ..';
const dotName = (name: unknown) => name === '.' || name === '..';

function entityProblem(entity: Json): string | null {
  const name = entity.metadata?.name;
  if (!name) return 'entity name must not be empty';
  if (!NAME.test(String(name))) return `name must match ${NAME.source.replace('^', '\\A').replace('$', '\\z')}`;
  if (tooLong(name)) return TOO_LONG;
  if (dotName(name)) return DOT_NAME;
  if (!entity.metadata?.namespace) return 'namespace must be set';
  // Sensu Go's classes: its agents, proxies, and the service and backend entities it makes itself.
  if (entity.entity_class !== undefined && !ENTITY_CLASSES.includes(String(entity.entity_class)))
    return `entity_class must be one of ${ENTITY_CLASSES.join(', ')} (got ${JSON.stringify(entity.entity_class)})`;
  return null;
}

function checkProblem(check: Json): string | null {
  const name = check.metadata?.name;
  if (!name) return 'check name must not be empty';
  if (!NAME.test(String(name))) return `name must match ${NAME.source}`;
  if (tooLong(name)) return TOO_LONG;
  if (dotName(name)) return DOT_NAME;
  // uint32 as in the backend: no negatives, no float, nothing JSON.parse rounded (2^53 + 1) or made Infinity (1e400).
  if (check.status !== undefined && (!Number.isInteger(check.status) || check.status < 0 || check.status > UINT32_MAX))
    return 'status must be an unsigned 32-bit integer';
  if (check.publish === true && !check.cron && !(Number(check.interval) >= 1)) return 'check interval must be greater than or equal to 1';
  if (Number(check.ttl) > 0 && (Number(check.ttl) <= Number(check.interval ?? 0) || Number(check.ttl) < 5))
    return 'ttl must be greater than the check interval and at least 5';
  const low = Number(check.low_flap_threshold ?? 0);
  const high = Number(check.high_flap_threshold ?? 0);
  if (low !== 0 && high !== 0 && low >= high) return 'invalid flap thresholds';
  if (check.proxy_entity_name && (!NAME.test(String(check.proxy_entity_name)) || tooLong(check.proxy_entity_name)))
    return 'proxy entity name must match name rules';
  return null;
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
    if (ref?.api_version !== 'core/v2' || ref?.type !== 'Pipeline') {
      return `pipeline reference is invalid: resource type not capable of acting as a pipeline: ${ref?.api_version}.${ref?.type}`;
    }
  }
  if (event.metadata?.name) return 'events cannot be named';
  if (
    event.id !== undefined &&
    event.id !== null &&
    event.id !== '' &&
    !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(String(event.id))
  ) {
    return `event ID is invalid: invalid UUID ${JSON.stringify(event.id)}`;
  }
  return null;
}
