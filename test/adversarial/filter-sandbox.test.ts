// Filter expressions written by an `edit` user run in a sandbox with no path into the
// daemon, cannot stall it, and are reported once; Sensu Go's helper functions work. Through a real daemon: an
// EventFilter, a pipe Handler and a Pipeline made through the v2 API, and events PUT to it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { instanceFor } from '../helpers/instance.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';

const config = { 'conf.d/a.json': { client: { name: 'sandbox', address: '127.0.0.1', subscriptions: [] } } };
// Long enough to tell a hung daemon from a busy machine; not a measure of speed.
const HANG_MS = 20_000;

type Line = Record<string, unknown>;

async function daemonWithApi(t: Parameters<typeof instanceFor>[0]) {
  const { v2, daemon, root } = await instanceFor(t, config);
  const auth = `Bearer ${await adminToken(v2)}`;
  const ns = `${v2}/api/core/v2/namespaces/default`;
  const send = (method: string, path: string, body?: unknown) => call(`${ns}${path}`, method, auth, body);
  /** EventFilter `name`, Handler `h-name` writing each event it gets to `<root>/name.out`, Pipeline `p-name`. */
  const pipeline = async (name: string, expressions: string[], extra: { action?: string; handler?: Record<string, unknown> } = {}) => {
    assert.equal((await send('PUT', `/filters/${name}`, { metadata: { name }, action: extra.action ?? 'allow', expressions })).status, 201);
    const handler = { type: 'pipe', command: `cat >> ${join(root, `${name}.out`)}; echo >> ${join(root, `${name}.out`)}`, timeout: 10, ...extra.handler };
    assert.equal((await send('PUT', `/handlers/h-${name}`, handler)).status, 201);
    const workflow = {
      name: 'w',
      filters: [{ name, type: 'EventFilter', api_version: 'core/v2' }],
      handler: { name: `h-${name}`, type: 'Handler', api_version: 'core/v2' },
    };
    assert.equal((await send('PUT', `/pipelines/p-${name}`, { workflows: [workflow] })).status, 201);
  };
  /** An event of `check` on `entity` (status 2 unless `checkFields` say otherwise), sent through `pipeline`. */
  const put = async (
    entity: string,
    check: string,
    pipeline: string | null,
    checkFields: Record<string, unknown> = {},
    eventFields: Record<string, unknown> = {},
  ) => {
    const body = {
      entity: { entity_class: 'proxy', metadata: { name: entity } },
      check: { metadata: { name: check }, interval: 60, status: 2, output: 'hostile', ...checkFields },
      ...(pipeline ? { pipelines: [{ api_version: 'core/v2', type: 'Pipeline', name: pipeline }] } : {}),
      ...eventFields,
    };
    assert.equal((await send('PUT', `/events/${entity}/${check}`, body)).status, 201);
  };
  const health = async () => (await fetch(`${v2}/health`, { signal: AbortSignal.timeout(HANG_MS) })).status;
  /** The daemon's decision for one handler and event: 'filtered' (with the line) or 'handled'. */
  const decision = (handler: string, entity: string, check: string) =>
    daemon.waitFor(
      (l) =>
        l.handler === handler &&
        String(l.event ?? '').length > 0 &&
        (l.msg === 'event was filtered' || l.msg === 'handler output') &&
        eventOf(l) === `${entity}/${check}`,
      HANG_MS,
    );
  const eventIds = new Map<string, string>();
  const eventOf = (line: Line) => eventIds.get(String(line.event));
  // Event ids are the daemon's: learn them from GET after each PUT.
  const putAndDecide = async (handler: string, entity: string, check: string, pipeline: string, eventFields: Record<string, unknown> = {}) => {
    await put(entity, check, pipeline, {}, eventFields);
    const stored = await send('GET', `/events/${entity}/${check}`);
    eventIds.set(String(stored.body.id), `${entity}/${check}`);
    return decision(handler, entity, check);
  };
  const failures = (filter: string) => daemon.logs.filter((l) => l.filter === filter && l.msg === 'filter expression failed');
  return { daemon, root, send, pipeline, put, putAndDecide, health, failures };
}

const stealing = (holder: string, file: string) =>
  `(function () { var p = ${holder}.constructor.constructor('return process')(); p.getBuiltinModule('fs').writeFileSync(${JSON.stringify(file)}, String(p.env.CHECKBRIDGE_ADMIN_PASSWORD)); return true })()`;

test('filter sandbox: the constructor escape in an EventFilter reads no process and writes no file', async (t) => {
  const { root, pipeline, putAndDecide, failures } = await daemonWithApi(t);
  const stolen = join(root, 'stolen');
  await pipeline('escape', [stealing('event', stolen)]);
  const line = await putAndDecide('h-escape', 'web-1', 'escape', 'p-escape');
  assert.equal(line.msg, 'event was filtered', 'the escaping expression fails: the allow filter drops the event');
  assert.match(String(failures('escape')[0]?.error), /process.* is not defined/);
  assert.equal(existsSync(stolen), false, 'nothing was written');
});

test("filter sandbox: the constructor escape in an Asset's filters writes no file; the asset does not match, the handler runs without it", async (t) => {
  const { root, send, pipeline, putAndDecide, daemon } = await daemonWithApi(t);
  const stolen = join(root, 'stolen');
  const asset = { metadata: { name: 'evil' }, url: 'http://127.0.0.1:9/evil.tar.gz', sha512: 'a'.repeat(128), filters: [stealing('entity', stolen)] };
  assert.equal((await send('PUT', '/assets/evil', asset)).status, 201);
  await pipeline('with-asset', ['event.check.status == 2'], { handler: { runtime_assets: ['evil'] } });
  for (const check of ['first', 'second']) {
    const handled = await putAndDecide('h-with-asset', 'web-1', check, 'p-with-asset');
    assert.deepEqual([handled.msg, handled.status], ['handler output', 0], `${check}: the handler ran without the asset`);
  }
  assert.equal(existsSync(stolen), false, 'nothing was written');
  const reported = daemon.logs.filter((l) => l.msg === 'asset filter expression failed: it does not match');
  assert.equal(reported.length, 1);
  assert.match(String(reported[0]!.error), /process.* is not defined/);
});

test('filter sandbox: a promise job that never ends does not run in the daemon: /health answers, the expression is logged once', async (t) => {
  const { pipeline, putAndDecide, health, failures } = await daemonWithApi(t);
  await pipeline('promise', ['Promise.resolve().then(function loop() { while (true) {} }), true']);
  await pipeline('good', ['event.check.status == 2']);
  for (let round = 0; round < 3; round++) {
    assert.equal((await putAndDecide('h-promise', `web-${round}`, 'promise', 'p-promise')).msg, 'event was filtered');
    assert.equal(await health(), 200, `round ${round}: /health answers`);
    assert.equal((await putAndDecide('h-good', `web-${round}`, 'good', 'p-good')).msg, 'handler output');
  }
  assert.equal(failures('promise').length, 1);
  assert.match(String(failures('promise')[0]!.error), /Promise.* is not defined/);
});

test('filter sandbox: a loop, a runaway built-in and a memory bomb are stopped, logged once and quarantined; good filters still run', async (t) => {
  const { root, pipeline, putAndDecide, health, failures } = await daemonWithApi(t);
  const hostile = ['loop', 'builtin', 'bomb'];
  await pipeline('loop', ['(function () { while (true) {} })()']);
  await pipeline('builtin', ['new Array(4e9).indexOf(1) == -1']);
  await pipeline('bomb', ["'x'.repeat(1 << 26).length > 0"]);
  await pipeline('good', ['event.check.status == 2 && event.is_incident && event.has_check && !event.is_silenced']);
  for (let round = 0; round < 3; round++) {
    for (const name of hostile) {
      const line = await putAndDecide(`h-${name}`, `web-${round}`, name, `p-${name}`);
      assert.equal(line.msg, 'event was filtered', `${name}, round ${round}: the failing expression does not match`);
      assert.equal(await health(), 200, `${name}, round ${round}: /health answers`);
    }
    const good = await putAndDecide('h-good', `web-${round}`, 'good', 'p-good');
    assert.deepEqual([good.msg, good.status], ['handler output', 0], `round ${round}: the well-behaved filter passes its event`);
  }
  for (const name of hostile) assert.equal(failures(name).length, 1, `${name}: logged once for three events`);
  assert.match(String(failures('loop')[0]!.error), /CPU budget/);
  assert.match(String(failures('builtin')[0]!.error), /CPU budget/);
  assert.match(String(failures('bomb')[0]!.error), /memory limit/);
  assert.equal(readFileSync(join(root, 'good.out'), 'utf8').trim().split('\n').length, 3);
  for (const name of hostile) assert.equal(existsSync(join(root, `${name}.out`)), false, `${name}: its handler never ran`);
});

test('filter sandbox: a failing expression is logged once for many events; a deny filter that fails lets events through', async (t) => {
  const { pipeline, putAndDecide, failures } = await daemonWithApi(t);
  await pipeline('broken', ['event.nope.deeper == 1']);
  await pipeline('broken-deny', ['event.nope.deeper == 1'], { action: 'deny' });
  for (let i = 0; i < 6; i++) {
    assert.equal((await putAndDecide('h-broken', `e-${i}`, 'broken', 'p-broken')).msg, 'event was filtered');
    assert.equal((await putAndDecide('h-broken-deny', `e-${i}`, 'broken-deny', 'p-broken-deny')).msg, 'handler output');
  }
  assert.equal(failures('broken').length, 1, 'one line for six events');
  assert.match(String(failures('broken')[0]!.error), /TypeError/);
  assert.equal(failures('broken-deny').length, 0, 'the same expression text was already reported');
});

test("filter sandbox: Sensu Go's hour, weekday, minute, second, seconds_since and sensu.CheckDependencies; no state leaks between evaluations", async (t) => {
  const { root, pipeline, put, putAndDecide } = await daemonWithApi(t);
  // 1520275913 is Monday, March 5, 2018 6:51:53 PM UTC.
  await pipeline('time', [
    'hour(event.timestamp) == 18 && weekday(event.timestamp) == 1 && minute(event.timestamp) == 51 && second(event.timestamp) == 53',
    'seconds_since(event.timestamp) > 200000000 && hour() == 0 && hour("1520275913") == 0',
  ]);
  assert.equal((await putAndDecide('h-time', 'web-1', 'now', 'p-time')).msg, 'event was filtered', 'an event stamped now is not at 18:51:53 on a Monday');
  assert.equal((await putAndDecide('h-time', 'web-1', 'old', 'p-time', { timestamp: 1520275913 })).msg, 'handler output');

  await put('web-1', 'db', null, { status: 2 });
  await put('web-1', 'disk', null, { status: 0 });
  await put('router', 'port1', null, { status: 0 });
  await pipeline('deps', [
    'sensu.CheckDependencies("disk", {entity: "router", check: "port1"}) && sensu.CheckDependencies(["db"]) == false && sensu.CheckDependencies()',
  ]);
  assert.equal((await putAndDecide('h-deps', 'web-1', 'app', 'p-deps')).msg, 'handler output');

  // A global and a prototype changed by one evaluation are gone in the next.
  await pipeline('pollute', ['Object.prototype.polluted = true; this.leaked = 1; String.prototype.trim = null; true']);
  await pipeline('clean', ["typeof leaked == 'undefined' && ({}).polluted === undefined && typeof ''.trim == 'function'"]);
  assert.equal((await putAndDecide('h-pollute', 'web-1', 'pollute', 'p-pollute')).msg, 'handler output');
  assert.equal((await putAndDecide('h-clean', 'web-1', 'clean', 'p-clean')).msg, 'handler output');
  const delivered = JSON.parse(readFileSync(join(root, 'time.out'), 'utf8').trim());
  assert.equal(delivered.check.metadata.name, 'old');
});
