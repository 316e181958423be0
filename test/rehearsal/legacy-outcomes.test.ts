// Legacy's handling decision as one outcome per handler: filtered (by what), failing for want of its mutator, or handled.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { legacyOutcomes } from '../../src/rehearsal/legacy-outcomes.js';
import { settingsOf } from '../helpers/settings.js';
import type { LegacyDecision } from '../../src/handling/index.js';

const settings = settingsOf({ mutators: { tag: { command: 'tag' } } });
const decision = (handlers: { name: string; type?: string; mutator?: string; filtered?: { filter?: string; message: string; reason?: string } }[]) =>
  ({
    handlers: handlers.map(({ filtered, ...handler }) => ({ handler: { type: 'pipe', ...handler }, filtered: filtered ?? null })),
    errors: [],
  }) as unknown as LegacyDecision;

test('a filtered handler says what filtered it: the named filter, or the rule its message stands for', () => {
  assert.deepEqual(
    legacyOutcomes(
      settings,
      decision([
        { name: 'a', filtered: { filter: 'production', message: 'event filtered', reason: 'attributes differ' } },
        { name: 'b', filtered: { message: 'handler does not handle event severity' } },
        { name: 'c', filtered: { message: 'event handling disabled for event' } },
        { name: 'd', filtered: { message: 'handler does not handle action' } },
        { name: 'e', filtered: { message: 'handler is silenced', reason: 'web-1:*' } },
        { name: 'f', filtered: { message: 'something else' } },
      ]),
    ),
    [
      { handler: 'a', handled: false, by: 'production', detail: 'filtered by production (attributes differ)' },
      { handler: 'b', handled: false, by: 'severities', detail: 'handler does not handle event severity' },
      { handler: 'c', handled: false, by: 'handle', detail: 'event handling disabled for event' },
      { handler: 'd', handled: false, by: 'flapping', detail: 'handler does not handle action' },
      { handler: 'e', handled: false, by: 'silenced', detail: 'handler is silenced (web-1:*)' },
      { handler: 'f', handled: false, by: 'filter', detail: 'something else' },
    ],
  );
});

test('a handler whose mutator is not defined fails; built-in, defined and extension mutators are handled', () => {
  assert.deepEqual(
    legacyOutcomes(
      settings,
      decision([
        { name: 'missing', mutator: 'nope' },
        { name: 'builtin', mutator: 'only_check_output' },
        { name: 'defined', mutator: 'tag' },
        { name: 'ext', type: 'extension', mutator: 'nope' },
        { name: 'plain' },
        { name: 'proto', mutator: 'toString' },
      ]),
    ),
    [
      { handler: 'missing', handled: false, by: 'mutator', detail: 'fails: mutator nope is not defined (unknown mutator)' },
      { handler: 'builtin', handled: true, detail: 'handled (mutator only_check_output)' },
      { handler: 'defined', handled: true, detail: 'handled (mutator tag)' },
      { handler: 'ext', handled: true, detail: 'handled (mutator nope)' },
      { handler: 'plain', handled: true, detail: 'handled' },
      { handler: 'proto', handled: false, by: 'mutator', detail: 'fails: mutator toString is not defined (unknown mutator)' },
    ],
  );
});
