// Two `checkbridge run` servers on one PostgreSQL: only the elected one schedules subscription checks; kill -9 it and the
// other takes over within seconds, with no moment when both schedule.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startInstance, eventually, getJson, type Instance } from '../helpers/instance.js';
import { tcpExchange } from '../helpers/net.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { postgresFor } from '../servers/postgres.js';

/** A server's conf.d: a check every second whose command appends `<name> <epoch ms>` to the shared file; monitors every second. */
function serverTree(name: string, lines: string) {
  return makeTree({
    'conf.d/client.json': { client: { name, address: '127.0.0.1', subscriptions: ['elect'] } },
    'conf.d/tuning.json': { checkbridge: { monitor_interval: 1 } },
    'conf.d/check.json': { checks: { tick: { command: `echo "${name} $(date +%s%3N)" >> ${lines}`, interval: 1, subscribers: ['elect'], handle: false } } },
  });
}

/** The lines written so far: who ran the scheduled check, and when (epoch ms). */
function runs(file: string): { server: string; at: number }[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [server, at] = line.split(' ');
      return { server: server!, at: Number(at) };
    });
}

/** A v2 backend's door for the bridge: records each PUT's entity and answers 201. */
async function bridgeBackend(t: { after(fn: () => void): void }) {
  const entities: string[] = [];
  const server = createServer((request, response) => {
    entities.push(decodeURIComponent(String(request.url).split('/')[7] ?? ''));
    request.resume().on('end', () => response.writeHead(201).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => void server.close());
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, entities };
}

const elected = (line: Record<string, unknown>) => line.msg === 'became the elected server';

test('two servers on one database: only the elected one schedules, monitors and bridges; kill -9 it and the other takes over within 15 s', async (t) => {
  const pg = await postgresFor(t);
  if (!pg) return;
  const backend = await bridgeBackend(t);
  const shared = makeTree({});
  const file = join(shared, 'runs.log');
  const roots = [serverTree('server-a', file), serverTree('server-b', file)];
  const started: Instance[] = [];
  t.after(async () => {
    for (const instance of started) await instance.daemon.stop('SIGKILL');
    for (const root of [shared, ...roots]) removeTree(root);
  });
  const dsn = ['--store-dsn', pg.url(), '--bridge-url', backend.url, '--bridge-api-key', 'key'];
  const a = await startInstance(roots[0]!, dsn);
  started.push(a);
  const aElected = await a.daemon.waitFor(elected, 15_000);
  assert.equal(aElected.server, 'server-a');
  assert.equal(aElected.pid, a.daemon.proc.pid);
  const b = await startInstance(roots[1]!, dsn);
  started.push(b);
  await b.daemon.waitFor((l) => l.msg === 'checkbridge running');
  // An event on each, with a TTL of 1 s. The store is shared: the elected server monitors both and bridges both.
  assert.equal(await tcpExchange(a.socket, JSON.stringify({ name: 'via-a', output: 'taken by a', status: 1, ttl: 1 })), 'ok');
  assert.equal(await tcpExchange(b.socket, JSON.stringify({ name: 'via-b', output: 'taken by b', status: 1, ttl: 1 })), 'ok');
  const output = async (instance: Instance, client: string, check: string) =>
    String((await getJson(`${instance.api}/results/${client}/${check}`)).body?.check?.output);

  // Both are up for several check intervals: every run is the elected server's.
  await sleep(5000);
  const whileA = runs(file);
  assert.ok(whileA.filter((r) => r.server === 'server-a').length >= 3, `server-a schedules: ${JSON.stringify(whileA)}`);
  assert.deepEqual(
    whileA.filter((r) => r.server !== 'server-a'),
    [],
    'the server not elected never schedules',
  );
  assert.ok(!b.daemon.logs.some(elected));
  assert.match(await output(a, 'server-a', 'via-a'), /^Last check execution was \d+ seconds ago$/, 'the elected server monitors TTLs');
  assert.match(await output(b, 'server-b', 'via-b'), /^Last check execution was \d+ seconds ago$/, 'of results taken by the other too (one shared store)');
  assert.ok(backend.entities.includes('server-a') && backend.entities.includes('server-b'), 'the elected server bridges the shared outbox');
  // /info lists both servers, from either, and which holds the tasks (legacy's server registry).
  const TASKS = ['check_request_publisher', 'client_monitor', 'check_result_monitor'];
  const registry = async (instance: Instance) =>
    ((await getJson(`${instance.api}/info`)).body.servers as { id: string; tasks: string[] }[]).map((s) => [s.id, s.tasks]);
  const both = [
    [`server-a:${a.daemon.proc.pid}`, TASKS],
    [`server-b:${b.daemon.proc.pid}`, []],
  ];
  assert.deepEqual(await registry(a), both);
  assert.deepEqual(await registry(b), both);

  await a.daemon.stop('SIGKILL');
  const killedAt = Date.now();
  const taken = await b.daemon.waitFor(elected, 15_000);
  assert.equal(taken.server, 'server-b');
  assert.equal(taken.pid, b.daemon.proc.pid);
  t.diagnostic(`server-b elected ${Date.parse(String(taken.time)) - killedAt} ms after server-a was killed`);
  const deadline = killedAt + 15_000;
  while (!runs(file).some((r) => r.server === 'server-b') && Date.now() < deadline) await sleep(100);
  const all = runs(file);
  const bRuns = all.filter((r) => r.server === 'server-b');
  assert.ok(bRuns.length > 0, `server-b schedules within 15 s of the kill: ${JSON.stringify(all.slice(-5))}`);
  assert.ok(bRuns[0]!.at - killedAt < 15_000);
  // No interval when both scheduled: every run of b comes after the last run of a, and after a was killed.
  const lastA = Math.max(...all.filter((r) => r.server === 'server-a').map((r) => r.at));
  assert.ok(lastA < bRuns[0]!.at && killedAt <= bRuns[0]!.at + 1000, `a last ran at ${lastA}, b first at ${bRuns[0]!.at}, a killed at ${killedAt}`);
  // b monitors and bridges once elected: a new result with a TTL, taken by b with a dead, is monitored and sent.
  const sentBefore = backend.entities.length;
  assert.equal(await tcpExchange(b.socket, JSON.stringify({ name: 'after-a', output: 'taken by b alone', status: 1, ttl: 1 })), 'ok');
  assert.match(
    await eventually(
      () => output(b, 'server-b', 'after-a'),
      (o) => o.startsWith('Last check'),
      15_000,
    ),
    /^Last check execution was \d+ seconds ago$/,
    'b monitors once elected',
  );
  assert.ok(
    (
      await eventually(
        async () => backend.entities.slice(sentBefore),
        (e) => e.includes('server-b'),
        15_000,
      )
    ).includes('server-b'),
    'b bridges once elected',
  );
  assert.deepEqual(
    await eventually(
      () => registry(b),
      (r) => r.length === 1,
    ),
    [[`server-b:${b.daemon.proc.pid}`, TASKS]],
    'a is gone from the registry',
  );
  assert.ok(all.findIndex((r) => r.server === 'server-b') > all.map((r) => r.server).lastIndexOf('server-a'), 'in the file too');
});
