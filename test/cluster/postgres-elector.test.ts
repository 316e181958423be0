// The task election against a real PostgreSQL: two electors in one process, exactly one leader, and a takeover
// when the leader's connection is closed, with the loser told before the winner is elected.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { postgresFor } from '../servers/postgres.js';
import { capturedLogger } from '../helpers/log-capture.js';
import { until } from '../helpers/wait.js';
import { leadershipFor, type PostgresElector } from '../../src/cluster/index.js';

/** Two electors on one database; `timeline` records every transition as `<name>:<leader>`. */
async function twoElectors(t: TestContext) {
  const server = await postgresFor(t);
  if (!server) return null;
  const { logger, lines } = capturedLogger();
  const timeline: string[] = [];
  const electors = (['one', 'two'] as const).map((name, i) => {
    const elector = leadershipFor(server.url(), { name, pid: 1000 + i }, logger) as PostgresElector;
    elector.start((leader) => timeline.push(`${name}:${leader}`));
    t.after(() => elector.close());
    return { name, elector };
  });
  return { server, electors, timeline, lines };
}

test('two electors on one database: exactly one is elected, and stays the only one', async (t) => {
  const setup = await twoElectors(t);
  if (!setup) return;
  const { electors, timeline, lines } = setup;
  assert.ok(await until(() => electors.some((e) => e.elector.isLeader()), 10_000), 'someone is elected');
  // Both have tried several times by now: the lock stays with the first.
  await sleep(3000);
  assert.equal(electors.filter((e) => e.elector.isLeader()).length, 1);
  assert.equal(timeline.length, 1, timeline.join(' '));
  const leader = electors.find((e) => e.elector.isLeader())!;
  assert.deepEqual(
    lines.filter((l) => l.msg === 'became the elected server').map((l) => [l.server, l.pid]),
    [[leader.name, leader.name === 'one' ? 1000 : 1001]],
  );
});

test("the leader's connection closed: it stops being leader at once, and the other takes over", async (t) => {
  const setup = await twoElectors(t);
  if (!setup) return;
  const { server, electors, timeline, lines } = setup;
  assert.ok(await until(() => electors.some((e) => e.elector.isLeader()), 10_000));
  const leader = electors.find((e) => e.elector.isLeader())!;
  const other = electors.find((e) => e !== leader)!;
  const backend = leader.elector.backendPid();
  assert.ok(backend, 'the leader has a connection');
  await server.query(`SELECT pg_terminate_backend(${backend})`);
  assert.ok(await until(() => other.elector.isLeader(), 15_000), `the other takes over; timeline ${timeline.join(' ')}`);
  // The old leader was told it lost before the new one was elected, and was never leader again alongside it.
  assert.deepEqual(timeline.slice(0, 3), [`${leader.name}:true`, `${leader.name}:false`, `${other.name}:true`]);
  assert.ok(!leader.elector.isLeader());
  assert.ok(
    lines.some((l) => l.server === leader.name && String(l.msg).startsWith('lost the election: ')),
    'the loss is logged with its reason',
  );
  assert.ok(lines.some((l) => l.server === other.name && l.msg === 'became the elected server'));
});

test('a leader that leaves releases the lock: the other is elected within seconds', async (t) => {
  const setup = await twoElectors(t);
  if (!setup) return;
  const { electors } = setup;
  assert.ok(await until(() => electors.some((e) => e.elector.isLeader()), 10_000));
  const leader = electors.find((e) => e.elector.isLeader())!;
  const other = electors.find((e) => e !== leader)!;
  await leader.elector.close();
  assert.ok(await until(() => other.elector.isLeader(), 5000));
});

test('an unreachable PostgreSQL: never elected, the failure logged once, not every retry', async (t) => {
  const { logger, lines } = capturedLogger();
  const elector = leadershipFor('postgres://postgres@127.0.0.1:1/postgres', { name: 'lonely', pid: 1 }, logger);
  const changes: boolean[] = [];
  elector.start((leader) => changes.push(leader));
  t.after(() => elector.close());
  await sleep(3500);
  assert.deepEqual(changes, []);
  assert.equal(lines.filter((l) => l.msg === 'election: cannot reach PostgreSQL; retrying').length, 1);
});

/** Blocks this thread as a synchronous store call does. */
const stall = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

test('a flood of registry questions (legacy /info) and a stalled event loop do not cost the leader its election', async (t) => {
  const setup = await twoElectors(t);
  if (!setup) return;
  const { electors, timeline } = setup;
  assert.ok(await until(() => electors.some((e) => e.elector.isLeader()), 10_000));
  const leader = electors.find((e) => e.elector.isLeader())!;
  // The other elector may still be connecting when the first is elected (a loaded machine): wait until both are listed.
  const deadline = Date.now() + 10_000;
  while ((await leader.elector.servers()).length < 2 && Date.now() < deadline) await sleep(250);
  // 80,000 /info requests at once are one question to PostgreSQL, not 20,000 queued before the ping.
  const answers = await Promise.all(Array.from({ length: 80_000 }, () => leader.elector.servers()));
  assert.equal(answers[0]!.length, 2);
  // A stall longer than the ping timeout, several times: answers waiting in the socket are not a lost connection.
  for (let i = 0; i < 3; i++) {
    await sleep(300 + i * 350);
    stall(2500);
  }
  await sleep(3000);
  assert.deepEqual(timeline, [`${leader.name}:true`], 'leadership never changed hands');
});

test('an elected server whose event loop stalled is not leader for its overdue timers until PostgreSQL confirms it again', async (t) => {
  const setup = await twoElectors(t);
  if (!setup) return;
  const { electors } = setup;
  assert.ok(await until(() => electors.some((e) => e.elector.isLeader()), 10_000));
  const leader = electors.find((e) => e.elector.isLeader())!;
  stall(3500);
  // What runs first after the stall (an overdue check request, a monitor pass) sees no confirmed leadership.
  assert.equal(leader.elector.isLeader(), false);
  assert.ok(await until(() => leader.elector.isLeader(), 5000), 'confirmed again by the next ping');
});

test('a lease left to expire (a frozen leader) goes to the other with a higher term; the old holder learns it lost at its next renewal', async (t) => {
  const setup = await twoElectors(t);
  if (!setup) return;
  const { server, electors, timeline } = setup;
  assert.ok(await until(() => electors.some((e) => e.elector.isLeader()), 10_000));
  const leader = electors.find((e) => e.elector.isLeader())!;
  const other = electors.find((e) => e !== leader)!;
  assert.equal(leader.elector.currentTerm(), '1');
  // What the database sees of a leader frozen past its lease: the row expired, its session still open.
  await server.query(`UPDATE checkbridge_leadership SET expires_at = now() - interval '1 second'`);
  assert.ok(await until(() => other.elector.isLeader(), 10_000), `the other takes over; timeline ${timeline.join(' ')}`);
  assert.equal(other.elector.currentTerm(), '2');
  assert.ok(await until(() => !leader.elector.isLeader(), 5000), 'the old holder stops at its next renewal');
  // Whichever comes first, the takeover or the failed renewal, each happens once.
  assert.deepEqual([...timeline].sort(), [`${leader.name}:false`, `${leader.name}:true`, `${other.name}:true`].sort());
  await sleep(3000);
  assert.equal(electors.filter((e) => e.elector.isLeader()).length, 1, 'and does not win it back while the new holder renews');
});
