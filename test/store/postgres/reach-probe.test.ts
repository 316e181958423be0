// PostgreSQL going silent is seen off the main thread: a statement blocking the thread is given up once the reach probe
// has had no answer for half a second, later ones are refused at once, and the store is in reach again once it answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { postgresForFile } from '../../servers/postgres.js';
import { capturedLogger } from '../../helpers/log-capture.js';
import { storeBehindProxy } from '../../helpers/proxied-store.js';

const { server, missing } = await postgresForFile();

async function until(what: string, ms: number, check: () => boolean): Promise<void> {
  for (const deadline = Date.now() + ms; !check(); await sleep(50)) if (Date.now() > deadline) assert.fail(`not within ${ms} ms: ${what}`);
}

test('postgres: a silent network gives up the statement blocking the thread and refuses the next at once, until PostgreSQL answers', async (t) => {
  if (!server) return void t.skip(missing!);
  await server.query('CREATE DATABASE silent');
  const { store, proxy } = await storeBehindProxy(t, server.url('postgres', 'silent'), 0);
  await store.listenForChanges(capturedLogger().logger);
  await until('in reach', 5_000, () => store.problem() === '');
  assert.equal(store.getClient('anyone'), null);
  // Nothing answers for 30 s from now on (each connection's packets held that long).
  await proxy.setDelay(30_000);
  const started = Date.now();
  assert.throws(() => store.getClient('anyone'), /has not answered a probe/);
  const blocked = Date.now() - started;
  // A liveness bound, not a speed: given up long before the 15 s query timeout.
  assert.ok(blocked < 5_000, `blocked ${blocked} ms`);
  assert.match(store.problem(), /has not answered a probe/);
  const again = Date.now();
  assert.throws(() => store.getClient('anyone'), /has not answered a probe/);
  assert.ok(Date.now() - again < 1_000, 'refused at once');
  await proxy.setDelay(0);
  await until('in reach again', 20_000, () => store.problem() === '');
  assert.equal(store.getClient('anyone'), null);
});
