// Mutating an event for a handler: the event JSON handlers see, the built-in mutators, and settings mutators run as real commands.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventJson, mutateEvent } from '../../src/handling/mutate.js';
import { spawnCommand } from '../../src/execute/index.js';
import type { EventDraft, Handler } from '../../src/legacy/index.js';
import { settingsOf } from '../helpers/settings.js';
import { eventDraft } from '../helpers/event-draft.js';

const event = (overrides: Partial<EventDraft> = {}): EventDraft => eventDraft({}, overrides);
const handler = (mutator?: string): Handler => ({ name: 'h', type: 'pipe', command: 'cat', ...(mutator ? { mutator } : {}) });
const settings = settingsOf({
  mutators: {
    upper: { command: "tr 'a-z' 'A-Z'" },
    failing: { command: 'echo broken; exit 3' },
    json: { command: "sed 's/disk/DISK/g'" },
  },
});

test('the event JSON leaves out a null last state change and keeps a set one', () => {
  const absent = JSON.parse(eventJson(event())) as Record<string, unknown>;
  assert.equal('last_state_change' in absent, false);
  assert.equal(absent.last_ok, null, 'other nulls stay');
  assert.equal(absent.id, 'e-1');
  const present = JSON.parse(eventJson(event({ last_state_change: 1_699_999_000 }))) as Record<string, unknown>;
  assert.equal(present.last_state_change, 1_699_999_000);
});

test('without a mutator, and with the built-in json or ruby_hash, the data is the event JSON', async () => {
  const plain = settingsOf({});
  for (const name of [undefined, 'json', 'ruby_hash']) {
    assert.deepEqual(await mutateEvent(handler(name), event(), () => 'THE JSON', plain, spawnCommand), { ok: true, data: 'THE JSON' }, String(name));
  }
});

test('only_check_output gives the check output alone, empty when there is none, without building the JSON', async () => {
  let built = 0;
  const json = () => (built++, '{}');
  const plain = settingsOf({});
  assert.deepEqual(await mutateEvent(handler('only_check_output'), event(), json, plain, spawnCommand), { ok: true, data: 'disk full' });
  const silent = event({ check: { name: 'disk', status: 2 } });
  assert.deepEqual(await mutateEvent(handler('only_check_output'), silent, json, plain, spawnCommand), { ok: true, data: '' });
  assert.equal(built, 0);
});

test('an unknown mutator name is an error', async () => {
  assert.deepEqual(await mutateEvent(handler('nope'), event(), () => '{}', settings, spawnCommand), { ok: false, error: 'unknown mutator' });
});

test('a settings mutator is a command reading the event JSON on stdin; its output is the data', async () => {
  const mutation = await mutateEvent(handler('upper'), event(), () => '{"output":"disk full"}', settings, spawnCommand);
  assert.deepEqual(mutation, { ok: true, data: '{"OUTPUT":"DISK FULL"}' });
});

test('a settings mutator named json replaces the built-in one', async () => {
  const mutation = await mutateEvent(handler('json'), event(), () => '{"output":"disk full"}', settings, spawnCommand);
  assert.deepEqual(mutation, { ok: true, data: '{"output":"DISK full"}' });
});

test('a mutator exiting non-zero is a mutator error with its output and status', async () => {
  const mutation = await mutateEvent(handler('failing'), event(), () => '{}', settings, spawnCommand);
  assert.deepEqual(mutation, { ok: false, error: 'mutator error', output: 'broken\n', status: 3 });
});

test('a mutator without a command (settings validation refuses one) is an error naming it, and nothing runs', async () => {
  let ran = 0;
  const spawn: typeof spawnCommand = (command, options) => (ran++, spawnCommand(command, options));
  const noCommand = { ...settings, mutators: { empty: { timeout: 5 } } };
  assert.deepEqual(await mutateEvent(handler('empty'), event(), () => '{}', noCommand, spawn), { ok: false, error: 'mutator empty has no command' });
  assert.equal(ran, 0);
});
