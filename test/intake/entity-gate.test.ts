// The one entity-limit gate: when a new entity is admitted, when refused, and with which message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EntityGate, entityRefusal, warnPastEntityLimit } from '../../src/intake/entity-gate.js';
import { capturedLogger } from '../helpers/log-capture.js';
import { sqliteStore } from '../helpers/sqlite-store.js';
import { entityLimitMessage } from '../../src/legacy/index.js';
import { settingsOf } from '../helpers/settings.js';

/** A store of `count` entities and these v2 entity names (legacy namespace `ns`), recording what it was asked. */
function storeOf(count: number, v2: string[] = []) {
  const asked: string[] = [];
  return {
    asked,
    countEntities: (upTo: number, ns: string) => (asked.push(`count ${upTo} ${ns}`), Math.min(count, upTo)),
    hasV2Entity: (name: string, ns: string) => (asked.push(`has ${name} ${ns}`), v2.includes(name)),
  };
}

const limited = (limit: number) => settingsOf({ checkbridge: { entity_limit: limit, namespace: 'ops' } });

test('below the limit a new entity is admitted; at it, refused with the limit message', () => {
  assert.equal(entityRefusal(storeOf(2), limited(3)), null);
  assert.equal(entityRefusal(storeOf(3), limited(3)), entityLimitMessage(3));
  assert.equal(entityRefusal(storeOf(9), limited(3), 'new'), entityLimitMessage(3));
});

test('a name already a v2 entity of the legacy namespace is no new entity: admitted at the limit', () => {
  const store = storeOf(3, ['known']);
  assert.equal(entityRefusal(store, limited(3), 'known'), null);
  assert.deepEqual(store.asked, ['has known ops'], 'nothing counted for a known name');
});

test('limit 0 is none: nothing counted, no name looked up; the default limit is 100', () => {
  const store = storeOf(1_000_000);
  assert.equal(entityRefusal(store, limited(0)), null);
  assert.equal(entityRefusal(store, limited(0), 'new'), null);
  assert.deepEqual(store.asked, []);
  assert.equal(entityRefusal(storeOf(100), settingsOf({})), entityLimitMessage(100));
});

test('the bound gate reads the settings as they are now', () => {
  let settings = limited(3);
  const gate = new EntityGate(storeOf(3), () => settings);
  assert.equal(gate.refusal(), entityLimitMessage(3));
  settings = limited(5);
  assert.equal(gate.refusal('new'), null);
});

test('at start, a store at or past the limit is said once, with the figures; below it, or with no limit, nothing is said', (t) => {
  const store = sqliteStore(t);
  for (const name of ['web-1', 'web-2']) store.putClient({ name, subscriptions: [] });
  const said = (limit: number) => {
    const { logger, lines } = capturedLogger();
    warnPastEntityLimit(store, limited(limit), logger);
    return lines.map((l) => [l.level, l.entities, l.entity_limit, l.msg]);
  };
  const message = (position: string, limit: number) =>
    `the store already knows 2 clients and entities, ${position} the entity limit of ${limit}: new ones are refused, existing ones keep being monitored; raise or remove the limit with the setting checkbridge.entity_limit (0 for none)`;
  assert.deepEqual(said(2), [[40, 2, 2, message('at', 2)]]);
  assert.deepEqual(said(1), [[40, 2, 1, message('past', 1)]]);
  assert.deepEqual(said(3), []);
  assert.deepEqual(said(0), []);
});
