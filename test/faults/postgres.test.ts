// PostgreSQL restarted (`-m fast`) and killed (`-m immediate`) under two servers that keep their whole store in it, while
// results flow through both: nothing acknowledged lost or handled twice, no check request twice, scheduling back within 15 s.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { startInstance, type Instance } from '../helpers/instance.js';
import { tcpCollector } from '../helpers/net.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { postgresFor } from '../servers/postgres.js';
import { answers, assertAckedStoredOnce, assertMemoryReturned, assertNoRequestTwice, firstRequestAfter, flow, issuedOf, rssMb } from './flow.js';

const INTERVAL_S = 3;

test('PostgreSQL restarted and killed under two servers: acknowledged results stored and handled once, no request twice, scheduling resumes', async (t) => {
  const pg = await postgresFor(t);
  if (!pg) return;
  const collector = await tcpCollector();
  t.after(() => collector.close());
  const tree = (name: string) =>
    makeTree({
      'conf.d/config.json': {
        client: { name, address: '127.0.0.1', subscriptions: ['faults'] },
        handlers: { record: { type: 'tcp', socket: { host: '127.0.0.1', port: collector.port } } },
        checks: { tick: { command: 'true', interval: INTERVAL_S, subscribers: ['faults'], handle: false } },
      },
    });
  const roots = [tree('server-a'), tree('server-b')];
  const started: Instance[] = [];
  t.after(async () => {
    for (const instance of started) await instance.daemon.stop('SIGKILL');
    roots.forEach(removeTree);
  });
  const args = ['--store-dsn', pg.url(), '--log-level', 'debug'];
  const a = await startInstance(roots[0]!, args);
  started.push(a);
  await a.daemon.waitFor((l) => l.msg === 'became the elected server', 15_000);
  const b = await startInstance(roots[1]!, args);
  started.push(b);
  const daemons = [a.daemon, b.daemon];
  const clients = ['server-a', 'server-b'];
  const before = daemons.map((d) => rssMb(d.proc.pid!));

  for (const mode of ['fast', 'immediate'] as const) {
    const load = flow([a.socket, b.socket], mode, ['record']);
    await sleep(1500);
    const faultAt = Date.now();
    await pg.restart(mode);
    const faultEnd = Date.now();
    await sleep(3000);
    await load.stop();
    const during = load.sent.filter((s) => s.at >= faultAt && s.at <= faultEnd);
    const firstOkAfter = load.sent.find((s) => s.at > faultEnd && s.answer === 'ok')?.at;
    const request = await firstRequestAfter(daemons, 'tick', faultEnd);
    assert.ok(firstOkAfter, `no result acknowledged after the restart: ${JSON.stringify(answers(load.sent))}`);
    assert.ok(request !== null && request - faultEnd < 15_000, `scheduling did not resume within 15 s of the ${mode} restart`);
    const figures = await assertAckedStoredOnce(a.api, clients, load.sent, collector);
    t.diagnostic(
      `pg_ctl restart -m ${mode}: down ${faultEnd - faultAt} ms; first ok ${firstOkAfter - faultEnd} ms and first check request ${request! - faultEnd} ms ` +
        `after it was back; answered during it ${JSON.stringify(answers(during))}; all answers ${JSON.stringify(answers(load.sent))}; ` +
        `acknowledged ${figures.acked}, stored ${figures.stored}, handled once ${figures.handledOnce}`,
    );
  }
  assertNoRequestTwice(issuedOf(daemons, 'tick'), INTERVAL_S);
  t.diagnostic(`check requests issued (s): ${JSON.stringify(issuedOf(daemons, 'tick'))}`);
  daemons.forEach((d, i) => assertMemoryReturned(t, clients[i]!, before[i]!, rssMb(d.proc.pid!)));
});
