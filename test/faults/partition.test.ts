// A silent network partition between the elected server and PostgreSQL (its packets to PostgreSQL dropped, no RST) for
// 20 s while results flow to both servers: the other takes over within 15 s, the cut one stops acting as leader and says
// why, its /health answers within a second throughout, nothing acknowledged is lost or handled twice, and after the heal
// it serves again as a follower by itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { getJson, startInstance, type Instance } from '../helpers/instance.js';
import { tcpCollector } from '../helpers/net.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { postgresFor } from '../servers/postgres.js';
import { answers, assertAckedStoredOnce, assertMemoryReturned, assertNoRequestTwice, flow, issuedOf, rssMb } from './flow.js';
import { netnsFor } from './netns.js';

const INTERVAL_S = 3;
const CUT_MS = 20_000;
const elected = (l: Record<string, unknown>) => l.msg === 'became the elected server';

/** A GET that gives up after `ms`: a stalled server answers nothing. */
async function probe(url: string, ms: number): Promise<string> {
  try {
    const r = await getJson(url, { signal: AbortSignal.timeout(ms) });
    return `${r.status} ${JSON.stringify(r.body).slice(0, 600)}`;
  } catch (error) {
    return `no answer: ${(error as Error).message}`;
  }
}

test(
  'a silent partition between the elected server and PostgreSQL: takeover, nothing acknowledged lost, rejoins as follower',
  { timeout: 180_000 },
  async (t) => {
    const pg = await postgresFor(t);
    if (!pg) return;
    const ns = netnsFor(t);
    if (!ns) return;
    // PostgreSQL also on the host side of the pair, trusting the namespace's address.
    appendFileSync(join(pg.dataDir, 'postgresql.conf'), `listen_addresses = '127.0.0.1,${ns.postgresAddress}'\n`);
    appendFileSync(join(pg.dataDir, 'pg_hba.conf'), `host all all ${ns.nsPostgresAddress}/32 trust\n`);
    await pg.restart('fast');
    const collector = await tcpCollector(ns.hostAddress);
    t.after(() => collector.close());
    const tree = (name: string) =>
      makeTree({
        'conf.d/config.json': {
          client: { name, address: '127.0.0.1', subscriptions: ['faults'] },
          handlers: { record: { type: 'tcp', socket: { host: ns.hostAddress, port: collector.port } } },
          checks: { tick: { command: 'true', interval: INTERVAL_S, subscribers: ['faults'], handle: false } },
        },
      });
    const roots = [tree('server-a'), tree('server-b')];
    const started: Instance[] = [];
    t.after(async () => {
      for (const instance of started) await instance.daemon.stop('SIGKILL');
      roots.forEach(removeTree);
    });
    const binds = ['socket', 'api', 'agent', 'v2', 'agentd'].flatMap((name) => [`--${name}-bind`, ns.nsAddress]);
    const dsnA = `postgres://postgres@${ns.postgresAddress}:${pg.port}/postgres`;
    const a = await startInstance(roots[0]!, ['--store-dsn', dsnA, '--log-level', 'debug', ...binds], {}, ns.wrapper);
    started.push(a);
    await a.daemon.waitFor(elected, 15_000);
    const b = await startInstance(roots[1]!, ['--store-dsn', pg.url(), '--log-level', 'debug']);
    started.push(b);
    const daemons = [a.daemon, b.daemon];

    const load = flow([a.socket, b.socket], 'cut', ['record'], { hosts: [ns.nsAddress, '127.0.0.1'] });
    await sleep(2000);
    const before = [rssMb(a.daemon.proc.pid!), rssMb(b.daemon.proc.pid!)];
    const markA = a.daemon.logs.length;
    ns.cut();
    const cutAt = Date.now();
    // What the cut server's /health says while it cannot reach PostgreSQL, from the cut on.
    const health: { at: number; answer: string }[] = [];
    const probing = (async () => {
      while (Date.now() < cutAt + CUT_MS) {
        // Within a second, every time: the cut server's event loop never waits on the cut network.
        const answer = await probe(`${a.v2}/health`, 1000);
        health.push({ at: Date.now() - cutAt, answer });
        await sleep(500);
      }
    })();
    const taken = await b.daemon.waitFor(elected, 15_000).catch(() => null);
    const takeoverMs = taken ? Date.parse(String(taken.time)) - cutAt : null;
    await probing;
    ns.heal();
    const healAt = Date.now();
    const fromA = (s: { name: string }) => s.name.startsWith('cut-0-');
    let firstOkA: number | undefined;
    for (let waited = 0; waited < 30_000 && !firstOkA; waited += 200) {
      firstOkA = load.sent.find((s) => fromA(s) && s.at > healAt && s.answer === 'ok')?.at;
      await sleep(200);
    }
    await sleep(3000);
    await load.stop();
    t.diagnostic(`takeover: server-b elected ${takeoverMs} ms after the cut`);
    t.diagnostic(`cut server's /health during the cut (ms after it: answer): ${health.map((h) => `${h.at}: ${h.answer.slice(0, 240)}`).join(' | ')}`);
    t.diagnostic(`first ok from the cut server ${firstOkA ? firstOkA - healAt : 'never'} ms after the heal`);
    const during = load.sent.filter((s) => s.at >= cutAt && s.at <= healAt);
    t.diagnostic(
      `answers during the cut: cut server ${JSON.stringify(answers(during.filter(fromA)))}, other ${JSON.stringify(answers(during.filter((s) => !fromA(s))))}`,
    );
    t.diagnostic(
      `cut server's log since the cut: ${JSON.stringify(
        a.daemon.logs
          .slice(markA)
          .filter((l) => Number(l.level) >= 40)
          .map((l) => (l.what ? `${String(l.msg)} (${String(l.what).slice(0, 160)})` : l.msg))
          .slice(0, 30),
      )}`,
    );

    assert.equal(a.daemon.proc.exitCode, null, `the cut server exited: ${JSON.stringify(a.daemon.logs.slice(-25).map((l) => l.msg))}`);
    assert.ok(taken && takeoverMs! < 15_000, 'the other server is elected within 15 s of the cut');
    assert.ok(firstOkA, `the cut server acknowledges results again after the heal: ${JSON.stringify(answers(load.sent.filter(fromA)))}`);
    const sinceCut = a.daemon.logs.slice(markA);
    // Fenced: nothing published as leader past a renewal's period and timeout (3 s), and a second more.
    const publishedLate = sinceCut.filter((l) => l.msg === 'publishing check request' && Date.parse(String(l.time)) > cutAt + 4000);
    assert.deepEqual(publishedLate, [], 'the cut server published check requests after its fencing bound');
    assert.deepEqual(
      health.filter((h) => h.answer.startsWith('no answer')),
      [],
      "the cut server's /health answered within a second throughout the cut",
    );
    assert.ok(
      health.some((h) => h.answer.includes('"Healthy":false') && h.answer.includes('PostgreSQL store is unavailable')),
      "the cut server's /health answered during the cut, saying the PostgreSQL store is unavailable",
    );
    assert.ok(
      sinceCut.some((l) => String(l.msg).startsWith('lost the election: ')),
      'the cut server said it lost the election',
    );
    assert.ok(!sinceCut.some(elected), 'the cut server rejoined as a follower');
    const figures = await assertAckedStoredOnce(b.api, ['server-a', 'server-b'], load.sent, collector);
    assertNoRequestTwice(issuedOf(daemons, 'tick'), INTERVAL_S);
    t.diagnostic(
      `acknowledged ${figures.acked}, stored ${figures.stored}, handled once ${figures.handledOnce}; all answers ${JSON.stringify(answers(load.sent))}`,
    );
    await sleep(2000);
    assertMemoryReturned(t, 'cut server', before[0]!, rssMb(a.daemon.proc.pid!));
    assertMemoryReturned(t, 'other server', before[1]!, rssMb(b.daemon.proc.pid!));
  },
);
