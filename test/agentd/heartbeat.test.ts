import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Heartbeat } from '../../src/agentd/heartbeat.js';

class Connection {
  pings = 0;
  ended = false;
  ping(): void {
    this.pings++;
  }
  terminate(): void {
    this.ended = true;
  }
}

test('each connection is pinged once an interval, a slice of them a tick, never all in one turn', () => {
  const heartbeat = new Heartbeat<Connection>(30);
  const connections = Array.from({ length: 300 }, () => new Connection());
  for (const connection of connections) heartbeat.add(connection);
  heartbeat.tick();
  assert.equal(connections.filter((c) => c.pings > 0).length, 10, 'one tick pings one slice: 300 connections over 30 slices');
  for (let i = 1; i < 30; i++) {
    for (const connection of connections) if (connection.pings > 0) heartbeat.answer(connection);
    heartbeat.tick();
  }
  assert.deepEqual(new Set(connections.map((c) => c.pings)), new Set([1]), 'after one interval every connection had exactly one ping');
  assert.ok(connections.every((c) => !c.ended));
});

test('a connection silent since its previous ping ends at its next turn; one that answered is pinged again', () => {
  const heartbeat = new Heartbeat<Connection>(2);
  const [silent, alive] = [new Connection(), new Connection()];
  heartbeat.add(silent);
  heartbeat.add(alive);
  for (let i = 0; i < 2; i++) heartbeat.tick();
  heartbeat.answer(alive);
  for (let i = 0; i < 2; i++) heartbeat.tick();
  assert.equal(silent.ended, true);
  assert.equal(silent.pings, 1);
  assert.equal(alive.ended, false);
  assert.equal(alive.pings, 2);
});

test('a removed connection is neither pinged nor ended', () => {
  const heartbeat = new Heartbeat<Connection>(1);
  const gone = new Connection();
  heartbeat.add(gone);
  heartbeat.remove(gone);
  heartbeat.tick();
  heartbeat.tick();
  assert.equal(gone.pings, 0);
  assert.equal(gone.ended, false);
});
