import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventProblem } from '../../src/rules/event.js';

const entity = (name: unknown, extra: Record<string, unknown> = {}) => ({ entity_class: 'proxy', metadata: { name, namespace: 'default' }, ...extra });
const check = (name: unknown, extra: Record<string, unknown> = {}) => ({ metadata: { name, namespace: 'default' }, interval: 60, ...extra });
const RULE = 'must be 1 to 255 letters, digits, _ . - : (not . or ..)';

test("an event's rules, in Sensu Go's order, each message saying whose", () => {
  assert.equal(eventProblem({ entity: entity('web-1'), check: check('disk') }), null);
  assert.equal(eventProblem({ entity: entity('web-1'), metrics: { points: [] } }), null);
  assert.equal(eventProblem({ check: check('disk') }), 'event must contain an entity');
  assert.equal(eventProblem({ entity: entity('web-1') }), 'event must contain a check or metrics');
  assert.equal(eventProblem({ entity: entity(''), check: check('disk') }), 'entity is invalid: entity name must not be empty');
  for (const bad of ['a b', '..', 'x'.repeat(256)]) {
    assert.equal(eventProblem({ entity: entity(bad), check: check('disk') }), `entity is invalid: entity name ${RULE}`, bad);
    assert.equal(eventProblem({ entity: entity('web-1'), check: check(bad) }), `check is invalid: check name ${RULE}`, bad);
  }
  assert.equal(
    eventProblem({ entity: entity('web-1', { entity_class: 'router' }), check: check('disk') }),
    'entity is invalid: entity_class must be one of agent, proxy, service, backend (got "router")',
  );
  assert.equal(eventProblem({ entity: entity('web-1'), check: check('disk', { status: -1 }) }), 'check is invalid: status must be an unsigned 32-bit integer');
  assert.equal(
    eventProblem({ entity: entity('web-1'), check: check('disk', { publish: true, interval: 0 }) }),
    'check is invalid: check interval must be greater than or equal to 1',
  );
  assert.equal(eventProblem({ entity: entity('web-1'), check: check('disk', { ttl: 30 }) }), 'check is invalid: ttl must be greater than check interval');
  assert.equal(eventProblem({ entity: entity('web-1'), check: check('disk', { interval: 1, ttl: 3 }) }), 'check is invalid: minimum ttl is 5 seconds');
  assert.equal(eventProblem({ entity: entity('web-1'), check: check('disk', { proxy_entity_name: 'a b' }) }), `check is invalid: proxy entity name ${RULE}`);
  assert.equal(
    eventProblem({ entity: entity('web-1'), check: check('disk'), pipelines: [{ api_version: 'core/v2', type: 'Handler', name: 'x' }] }),
    'pipeline reference is invalid: resource type not capable of acting as a pipeline: core/v2.Handler',
  );
  assert.equal(eventProblem({ entity: entity('web-1'), check: check('disk'), metadata: { name: 'e' } }), 'events cannot be named');
  assert.equal(eventProblem({ entity: entity('web-1'), check: check('disk'), id: 'nope' }), 'event ID is invalid: invalid UUID "nope"');
});
