// A real Sensu Go agent given both servers of a cluster (`--backend-url` twice), the server it is connected to killed: it
// reconnects to the other, its keepalive never turns to a failure, and its check runs again within 15 s.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { postgresFor } from '../servers/postgres.js';
import { agentInstanceFor, agentSkipReason, startAgent, agentFlags } from '../helpers/sensu-agent.js';
import { assertMemoryReturned, rssMb } from './flow.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';
import { eventually } from '../helpers/instance.js';

const skip = agentSkipReason();
const host = (name: string) => ({ 'conf.d/config.json': { client: { name, address: '127.0.0.1', subscriptions: [] } } });

test('an agent naming both servers: the one it is on killed, it moves to the other, no keepalive failure, its check runs again', { skip }, async (t) => {
  const pg = await postgresFor(t);
  if (!pg) return;
  const shared = ['--store-dsn', pg.url()];
  const a = await agentInstanceFor(t, host('server-a'), shared);
  await a.daemon.waitFor((l) => l.msg === 'became the elected server', 15_000);
  const b = await agentInstanceFor(t, host('server-b'), shared);
  const auth = `Bearer ${await adminToken(a.v2)}`;
  const ns = (server: { v2: string }) => `${server.v2}/api/core/v2/namespaces/default`;
  const check = { metadata: { name: 'moving' }, command: 'echo moving', interval: 1, publish: true, subscriptions: ['moving'] };
  assert.equal((await call(`${ns(a)}/checks/moving`, 'PUT', auth, check)).status, 201);
  // The server not elected first: killing it tests the agent's move alone, with the scheduler untouched.
  const agent = await startAgent(t, `${b.agentd}`, 'mover', [...agentFlags(), '--backend-url', a.agentd, '--subscriptions', 'moving']);
  const connected = await agent.waitFor((l) => l.msg === 'successfully connected');
  const onB = String(connected['backend-url']).startsWith(b.agentd);
  const [gone, kept] = onB ? [b, a] : [a, b];
  const executed = async () => Number((await call(`${ns(kept)}/events/mover/moving`, 'GET', auth)).body?.check?.executed ?? 0);
  await eventually(executed, (e) => e > 0, 20_000);

  // The keepalive as the surviving server's API shows it, every 250 ms, from before the kill until after the move.
  const statuses: number[] = [];
  let watching = true;
  const watcher = (async () => {
    while (watching) {
      // No keepalive event at all (404) is a passing keepalive: only a failure or a recovery makes one.
      const event = await call(`${ns(kept)}/events/mover/keepalive`, 'GET', auth).catch(() => null);
      if (event?.status === 200) statuses.push(Number(event.body.check.status));
      else if (event?.status === 404) statuses.push(0);
      await sleep(250);
    }
  })();
  await sleep(1000);
  const before = rssMb(kept.daemon.proc.pid!);
  const mark = agent.lines.length;
  await gone.daemon.stop('SIGKILL');
  const killedAt = Date.now();
  const moved = await agent.waitFor((l) => l.msg === 'successfully connected' && agent.lines.indexOf(l) >= mark, 30_000);
  const movedAt = Date.now();
  assert.ok(String(moved['backend-url']).startsWith(kept.agentd), `the agent reconnected to ${String(moved['backend-url'])}`);
  const ranAgain = await eventually(executed, (e) => e * 1000 > killedAt, 15_000);
  assert.ok(ranAgain * 1000 > killedAt, 'the check ran again within 15 s of the kill');
  // Past the agent's own warning timeout (5 s) after its move, and the keepalive is still passing.
  await sleep(7000);
  watching = false;
  await watcher;
  assert.ok(statuses.length > 10, `keepalive read ${statuses.length} times`);
  assert.deepEqual(
    statuses.filter((s) => s !== 0),
    [],
    `a keepalive failure while the agent moved: ${JSON.stringify(statuses)}`,
  );
  assertMemoryReturned(t, 'surviving server', before, rssMb(kept.daemon.proc.pid!));
  t.diagnostic(
    `agent on ${onB ? 'the server not elected' : 'the elected server'}, killed: reconnected to the other ${movedAt - killedAt} ms later, ` +
      `its check executed again ${ranAgain * 1000 - killedAt} ms after the kill (to the second); keepalive read ${statuses.length} times, all passing`,
  );
});
