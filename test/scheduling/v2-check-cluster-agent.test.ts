// Two servers sharing one real PostgreSQL, a real Sensu Go agent connected to the one not elected: the elected server's
// requests travel to it over the store's LISTEN/NOTIFY, each once, and resume from the other server after kill -9.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresFor } from '../servers/postgres.js';
import { eventually } from '../helpers/instance.js';
import { agentInstanceFor, agentSkipReason, startAgent, agentFlags } from '../helpers/sensu-agent.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';

const skip = agentSkipReason();
const host = (name: string) => ({ 'conf.d/config.json': { client: { name, address: '127.0.0.1', subscriptions: [] } } });

/** The `issued` of every event the handler recorded, in the order recorded. */
function issuedOf(file: string): number[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line).check.issued as number);
}

/**
 * Two servers on one PostgreSQL, A elected, and a pipe handler `record` writing one line per event it runs (on the
 * server that took the event) to `recorded`; null when PostgreSQL is missing (skipped, or failed under CI).
 */
async function twoServers(t: TestContext) {
  const pg = await postgresFor(t);
  if (!pg) return null;
  const dir = mkdtempSync(join(tmpdir(), 'cb-cluster-agent-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const recorded = join(dir, 'events.jsonl');
  const shared = ['--store-dsn', pg.url()];
  const a = await agentInstanceFor(t, host('server-a'), shared);
  await a.daemon.waitFor((l) => l.msg === 'became the elected server', 15_000);
  const b = await agentInstanceFor(t, host('server-b'), shared);
  const auth = `Bearer ${await adminToken(a.v2)}`;
  const ns = `${a.v2}/api/core/v2/namespaces/default`;
  assert.equal((await call(`${ns}/handlers/record`, 'PUT', auth, { type: 'pipe', command: `x=$(cat); printf '%s\\n' "$x" >> ${recorded}` })).status, 201);
  return { a, b, auth, ns, recorded };
}

test(
  'an agent connected to the server not elected gets each request once, and after kill -9 of the elected one from the other within 15 s',
  { skip, timeout: 180_000 },
  async (t) => {
    const servers = await twoServers(t);
    if (!servers) return;
    const { a, b, auth, ns, recorded } = servers;
    const agent = await startAgent(t, b.agentd, 'far-agent', [...agentFlags(), '--subscriptions', 'linux']);
    await agent.waitFor((l) => l.msg === 'successfully received the initial entity config');
    const check = { metadata: { name: 'cluster-tick' }, command: 'echo tick', interval: 1, publish: true, subscriptions: ['linux'], handlers: ['record'] };
    assert.equal((await call(`${ns}/checks/cluster-tick`, 'PUT', auth, check)).status, 201);

    const before = await eventually(
      async () => issuedOf(recorded),
      (issued) => issued.length >= 5,
      30_000,
    );
    assert.ok(before.length >= 5, `the agent on the other server ran ${before.length} requests`);
    assert.equal(b.daemon.logs.filter((l) => l.msg === 'became the elected server').length, 0, 'B was elected');
    assert.equal(new Set(before).size, before.length, `a request delivered twice: ${before}`);

    await a.daemon.stop('SIGKILL');
    const killedAt = Date.now();
    await b.daemon.waitFor((l) => l.msg === 'became the elected server', 15_000);
    const after = await eventually(
      async () => issuedOf(recorded).filter((s) => s * 1000 > killedAt),
      (issued) => issued.length >= 3,
      30_000,
    );
    assert.ok(after.length >= 3, `requests after the takeover: ${after}`);
    assert.ok(Math.min(...after) * 1000 - killedAt <= 15_000, `the first request after kill -9 was issued ${Math.min(...after) * 1000 - killedAt} ms later`);
    const all = issuedOf(recorded);
    assert.equal(new Set(all).size, all.length, `a request delivered twice across the takeover: ${all}`);
    // The agent refused nothing as a duplicate or as stale.
    const refused = agent.lines.filter((l) => /still in progress|older than/.test(String(l.msg ?? '') + String(l.error ?? '')));
    assert.deepEqual(refused, []);
  },
);

test('a round-robin check turns over the agents of both servers, one of them per request', { skip, timeout: 180_000 }, async (t) => {
  const servers = await twoServers(t);
  if (!servers) return;
  const { a, b, auth, ns, recorded } = servers;
  const near = await startAgent(t, a.agentd, 'near-agent', [...agentFlags(), '--subscriptions', 'turns']);
  const far = await startAgent(t, b.agentd, 'far-agent', [...agentFlags(), '--subscriptions', 'turns']);
  await near.waitFor((l) => l.msg === 'successfully received the initial entity config');
  await far.waitFor((l) => l.msg === 'successfully received the initial entity config');
  const check = {
    metadata: { name: 'one-at-a-time' },
    command: 'echo turn',
    interval: 1,
    publish: true,
    round_robin: true,
    subscriptions: ['turns'],
    handlers: ['record'],
  };
  assert.equal((await call(`${ns}/checks/one-at-a-time`, 'PUT', auth, check)).status, 201);

  const runs = () =>
    existsSync(recorded)
      ? readFileSync(recorded, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l))
      : [];
  const seen = await eventually(
    async () => runs(),
    (r) => new Set(r.map((e) => e.entity.metadata.name)).size === 2 && r.length >= 6,
    40_000,
  );
  assert.deepEqual([...new Set(seen.map((e) => e.entity.metadata.name))].sort(), ['far-agent', 'near-agent'], "both servers' agents take turns");
  const issued = seen.map((e) => e.check.issued);
  assert.equal(
    new Set(issued).size,
    issued.length,
    `a request ran on two agents: ${JSON.stringify(seen.map((e) => [e.entity.metadata.name, e.check.issued]))}`,
  );
});
