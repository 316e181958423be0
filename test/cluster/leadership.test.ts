// A server alone is always the elected one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AlwaysLeader, TASKS } from '../../src/cluster/leadership.js';

test('a server alone is told it leads as it starts, lists no other servers, and closes without a word', async () => {
  const leadership = new AlwaysLeader();
  const heard: boolean[] = [];
  leadership.start((leader) => heard.push(leader));
  assert.deepEqual(heard, [true]);
  assert.equal(leadership.isLeader(), true);
  assert.deepEqual(await leadership.servers(), []);
  await leadership.close();
  assert.deepEqual(heard, [true]);
});

test('the elected server holds the three legacy tasks', () => {
  assert.deepEqual([...TASKS], ['check_request_publisher', 'client_monitor', 'check_result_monitor']);
});
