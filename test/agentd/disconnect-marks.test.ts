// Agents marked disconnected as their sessions end: one commit for a turn's closes, and an agent that came back
// before the commit stays connected.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StateStore } from '../../src/store/index.js';
import { DisconnectMarks } from '../../src/agentd/disconnect-marks.js';
import { capturedLogger } from '../helpers/log-capture.js';

const agent = (name: string) => ({ name, entity_class: 'agent', connected: true, subscriptions: [], timestamp: 1 });

test('disconnect marks: a turn of closes is committed together; a returned agent stays connected', async (t) => {
  const store = StateStore.open(':memory:');
  t.after(() => store.close());
  for (const name of ['a', 'b', 'c']) store.putClient(agent(name));
  const marks = new DisconnectMarks(store, capturedLogger().logger);
  marks.mark('a', () => true);
  marks.mark('b', () => true);
  // Came back before its mark was written.
  marks.mark('c', () => false);
  assert.equal(store.getClient('a')?.connected, true, 'written in a later turn, not during the close');
  await marks.flushed();
  assert.deepEqual(
    ['a', 'b', 'c'].map((name) => store.getClient(name)?.connected),
    [false, false, true],
  );
});

test('disconnect marks: a store that cannot commit is logged, not thrown', async (t) => {
  const store = StateStore.open(':memory:');
  store.putClient(agent('a'));
  const { logger, messages } = capturedLogger();
  const marks = new DisconnectMarks(store, logger);
  store.close();
  marks.mark('a', () => true);
  await marks.flushed();
  assert.ok(messages().includes('agents not marked disconnected'), messages().join('\n'));
  t.diagnostic('closed store refused the unit');
});
