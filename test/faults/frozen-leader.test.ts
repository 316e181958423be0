// A frozen elected server (SIGSTOP for 20 s) among two servers on PostgreSQL and RabbitMQ with two checkbridge
// clients: the other takes over within 15 s, the frozen one publishes nothing as leader once resumed, no result is lost.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { rabbitFor } from '../servers/rabbitmq.js';
import { postgresFor } from '../servers/postgres.js';
import { fleetServer, fleetClient, type FleetServer } from '../helpers/fleet.js';
import { getJson, eventually } from '../helpers/instance.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { requestTap } from './lease-helpers.js';
import { assertMemoryReturned, rssMb } from './flow.js';

const FROZEN_MS = 20_000;
const clientConf = (name: string) => ({ client: { name, address: '127.0.0.1', subscriptions: ['linux'] }, checkbridge: { keepalive_interval: 1 } });
const elected = (l: Record<string, unknown>) => l.msg === 'became the elected server';

function lines(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

/** What `server` logged from `from` on. */
const since = (server: FleetServer, from: number) => server.daemon.logs.slice(from);

test(
  'a frozen elected server: the other takes over within 15 s; resumed, it publishes nothing as leader; no result lost or handled twice',
  { timeout: 180_000 },
  async (t) => {
    const began = Date.now();
    const rabbit = await rabbitFor(t);
    if (!rabbit) return;
    const pg = await postgresFor(t);
    if (!pg) return;
    const dir = makeTree({});
    t.after(async () => removeTree(dir));
    const handled = join(dir, 'handled.log');
    // One line per result handled: which server handled it, the client, and the request's `issued`.
    const recorder = join(dir, 'record.js');
    writeFileSync(
      recorder,
      `let d='';process.stdin.on('data',c=>d+=c).on('end',()=>{const e=JSON.parse(d);require('fs').appendFileSync(${JSON.stringify(handled)},[process.env.CB_TEST_SERVER,e.client.name,e.check.issued].join(' ')+'\\n')})`,
    );
    const conf = {
      rabbitmq: rabbit.url,
      checkbridge: { monitor_interval: 1 },
      // refresh equal to the interval: every failing result is handled, so each one can be counted.
      checks: { fan: { command: 'echo fan; exit 1', subscribers: ['linux'], interval: 1, refresh: 1, handlers: ['record'] } },
      handlers: { record: { type: 'pipe', command: `${process.execPath} ${recorder}` } },
    };
    const tap = await requestTap(rabbit.url, 'linux');
    t.after(() => tap.close());
    // Debug logs name each check request a server publishes, and each one its fencing holds back.
    const extra = ['--store-dsn', pg.url(), '--log-level', 'debug'];
    const s1 = await fleetServer(t, 'rabbitmq', { 'conf.d/server.json': conf }, { CB_TEST_SERVER: 's1' }, extra);
    await s1.daemon.waitFor(elected, 15_000);
    const s2 = await fleetServer(t, 'rabbitmq', { 'conf.d/server.json': conf }, { CB_TEST_SERVER: 's2' }, extra);
    const clients = [
      await fleetClient(t, 'rabbitmq', { 'conf.d/client.json': clientConf('c1') }, { RABBITMQ_URL: rabbit.url }),
      await fleetClient(t, 'rabbitmq', { 'conf.d/client.json': clientConf('c2') }, { RABBITMQ_URL: rabbit.url }),
    ];
    t.after(() => void s1.daemon.proc.kill('SIGCONT'));
    await eventually(
      () => getJson(`${s2.api}/clients`),
      (r) => r.body.length === 2,
      20_000,
    );
    await eventually(
      async () => lines(handled),
      (l) => ['s1 ', 's2 '].every((p) => l.some((x) => x.startsWith(p))) && [' c1 ', ' c2 '].every((c) => l.some((x) => x.includes(c))),
      30_000,
    );

    t.diagnostic(`set up in ${Date.now() - began} ms`);
    // Frozen: its TCP connections stay open (the kernel answers for it), its event loop does not run.
    const before = [rssMb(s1.daemon.proc.pid!), rssMb(s2.daemon.proc.pid!)];
    s1.daemon.proc.kill('SIGSTOP');
    const frozenAt = Date.now();
    const taken = await s2.daemon.waitFor(elected, 15_000).catch(() => null);
    const takeoverMs = taken ? Date.parse(String(taken.time)) - frozenAt : null;
    const firstAfter = await eventually(
      async () => tap.got.find((r) => r.at > frozenAt + 1000) ?? null,
      (r) => r !== null,
      15_000,
    );
    t.diagnostic(`takeover: s2 elected ${takeoverMs} ms after s1 froze; first check request then ${firstAfter ? firstAfter.at - frozenAt : 'none'} ms after`);
    if (!taken) {
      // Why not: a session of the frozen server left idle inside a transaction holds locks the other waits on.
      const sessions = await pg.query(
        `SELECT application_name, state, wait_event_type, left(query, 90) AS query FROM pg_stat_activity WHERE datname = current_database()`,
      );
      t.diagnostic(JSON.stringify(sessions.rows));
    }
    assert.ok(taken, 'the other server is elected within 15 s of the freeze');
    assert.ok(
      firstAfter && firstAfter.at - frozenAt < 15_000,
      `check requests are published again within 15 s of the freeze: ${JSON.stringify(tap.got.slice(-3))}`,
    );
    await sleep(Math.max(0, frozenAt + FROZEN_MS - Date.now()));

    // Resumed: its overdue timers run before PostgreSQL has answered its renewal, and must publish nothing.
    const mark = s1.daemon.logs.length;
    s1.daemon.proc.kill('SIGCONT');
    const resumedAt = Date.now();
    const lost = await s1.daemon.waitFor((l) => String(l.msg).startsWith('lost the election: '), 10_000, mark);
    t.diagnostic(`s1 learnt it lost ${Date.parse(String(lost.time)) - resumedAt} ms after SIGCONT: ${String(lost.msg)}`);
    await sleep(4000);
    const published = since(s1, mark).filter((l) => l.msg === 'publishing check request' || l.msg === 'publishing round-robin check request');
    assert.deepEqual(published, [], 'the resumed server published no check request');
    assert.ok(
      since(s1, mark).some((l) => l.msg === 'check request skipped: leadership not confirmed'),
      'its overdue check request was held back by the fence',
    );
    assert.ok(!since(s1, mark).some(elected), 'and it was not elected again');
    // No check request twice in one interval, across the whole run.
    const fan = tap.got.filter((r) => r.name === 'fan');
    assert.equal(new Set(fan.map((r) => r.issued)).size, fan.length, `a request published twice: ${JSON.stringify(fan)}`);

    // No result lost, none handled twice: the clients stopped, every result each one published is handled once.
    for (const client of clients) client.daemon.proc.kill('SIGSTOP');
    // What a client logged before it stopped may still be in its pipe: counted once the count holds still.
    const executedNow = () => clients.map((c) => c.daemon.logs.filter((l) => l.msg === 'check executed' && l.check === 'fan').length);
    let executed = executedNow();
    for (let previous = ''; previous !== JSON.stringify(executed); executed = executedNow()) {
      previous = JSON.stringify(executed);
      await sleep(300);
    }
    const handledOf = () => ['c1', 'c2'].map((c) => lines(handled).filter((x) => x.split(' ')[1] === c).length);
    const counts = await eventually(
      async () => handledOf(),
      (h) => h.every((n, i) => n >= executed[i]!),
      15_000,
    );
    assert.deepEqual(counts, executed, 'results handled per client, as many as each client executed');
    const keys = lines(handled).map((l) => l.split(' ').slice(1).join(' '));
    assert.equal(new Set(keys).size, keys.length, `a result handled twice: ${keys.join(', ')}`);
    assertMemoryReturned(t, 'resumed server', before[0]!, rssMb(s1.daemon.proc.pid!));
    assertMemoryReturned(t, 'server that took over', before[1]!, rssMb(s2.daemon.proc.pid!));
    t.diagnostic(`${fan.length} requests published, results executed per client ${executed.join('/')}, handled ${counts.join('/')}`);
  },
);
