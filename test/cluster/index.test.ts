// Which election and cluster channel a server gets: none to hold without a shared store, PostgreSQL's with one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AlwaysLeader, PostgresElector, clusterChannelFor, leadershipFor } from '../../src/cluster/index.js';
import { PgChannel } from '../../src/cluster/pg-channel.js';
import { capturedLogger } from '../helpers/log-capture.js';
import { until } from '../helpers/wait.js';

test('without a shared store a server is always the leader and has no cluster channel', () => {
  const { logger } = capturedLogger();
  assert.ok(leadershipFor(null, { name: 'alone', pid: 1 }, logger) instanceof AlwaysLeader);
  assert.equal(
    clusterChannelFor(null, 'checks', logger, () => 'key'),
    null,
  );
});

test("with a shared store's DSN the election connects to that PostgreSQL (its host and port)", async (t) => {
  const { logger, lines } = capturedLogger();
  // Nothing listens there: the election says it cannot reach that very address.
  const port = 1; // nothing listens on port 1
  const leadership = leadershipFor(`postgres://checkbridge@127.0.0.1:${port}/checkbridge?connect_timeout=1`, { name: 'one', pid: 7 }, logger);
  t.after(() => leadership.close());
  assert.ok(leadership instanceof PostgresElector);
  leadership.start(() => undefined);
  const refused = () => lines.find((l) => l.msg === 'election: cannot reach PostgreSQL; retrying');
  assert.ok(await until(() => refused() !== undefined, 15_000), 'the election tried the DSN');
  assert.match(String(refused()!.reason), new RegExp(`127\\.0\\.0\\.1:${port}`));
  assert.equal(leadership.isLeader(), false);
});

test("with a shared store's DSN the cluster channel is PostgreSQL's LISTEN/NOTIFY", () => {
  const { logger } = capturedLogger();
  assert.ok(clusterChannelFor('host=127.0.0.1 port=1 dbname=x', 'checks', logger, () => 'key') instanceof PgChannel);
});
