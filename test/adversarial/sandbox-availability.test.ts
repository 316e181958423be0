// Expressions never hold the daemon's thread: evaluations are answered asynchronously, taken in turns by namespace,
// bounded per event and per check request, and an expression that keeps using most of its budget is quarantined.
// Before, the daemon waited (Atomics.wait) up to 25 ms per expression: a role-less team's CheckConfig with busy
// proxy entity_attributes kept /health from answering for seconds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadExpressionSandbox, evaluateInSandbox, SandboxAllowance, type Outcome } from '../../src/js-sandbox/expressions.js';
import { instanceFor, getJson } from '../helpers/instance.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';

// Busy for 20 ms of wall clock (as much CPU on an idle machine): under the 25 ms budget, so never stopped by it.
// `tag` makes each text its own.
const busy = (tag: string, ms = 20) => `(function () { var t = Date.now(); while (Date.now() - t < ${ms}) {} return true })() /* ${tag} */`;
const scope = { event: { check: { status: 2 } } };
const evaluate = (expression: string, options: { namespace?: string; allowance?: SandboxAllowance } = {}): Promise<Outcome> | Outcome =>
  evaluateInSandbox(expression, scope, { nowMs: Date.now(), ...options });

test('an evaluation is a Promise: the event loop keeps turning while busy expressions run', async () => {
  await loadExpressionSandbox();
  let ticks = 0;
  const ticker = setInterval(() => ticks++, 1);
  try {
    const pending = Array.from({ length: 10 }, (_, i) => evaluate(busy(`loop ${i}`)));
    assert.ok(
      pending.every((p) => p instanceof Promise),
      'evaluateInSandbox answers with a Promise',
    );
    const before = ticks;
    const outcomes = await Promise.all(pending);
    assert.deepEqual(
      outcomes,
      outcomes.map(() => ({ ok: true, matched: true })),
    );
    // Ten evaluations of about 20 ms each: the interval ran between them, so the thread was never held.
    assert.ok(ticks - before >= 5, `the interval fired ${ticks - before} times during ten busy evaluations`);
  } finally {
    clearInterval(ticker);
  }
});

test('an expression that keeps using most of its budget is quarantined', async () => {
  await loadExpressionSandbox();
  const text = busy('repeated', 24);
  const outcomes: Outcome[] = [];
  // Three runs over half the budget in the sandbox thread's CPU (fewer of them count on a loaded machine).
  // Up to 150 tries: on a machine loaded past its cores a 24 ms busy loop can get under half of that as CPU for a while.
  for (let i = 0; i < 150 && outcomes.at(-1)?.ok !== false; i++) outcomes.push(await evaluate(text));
  assert.deepEqual(outcomes.at(-1), { ok: false, error: 'quarantined after exceeding its budget', report: false }, `after ${outcomes.length} runs`);
  assert.ok(outcomes.length >= 4, 'the first three ran');
  assert.ok(
    outcomes.slice(0, -1).every((o) => o.ok && o.matched),
    'it ran, was never stopped, until quarantined',
  );
  assert.deepEqual(await evaluate('event.check.status == 2'), { ok: true, matched: true }, 'other expressions still run');
});

test("one event's or check request's expressions share an allowance: past it the rest do not match, reported once", async () => {
  await loadExpressionSandbox();
  const allowance = new SandboxAllowance(100, 'event');
  const outcomes: Outcome[] = [];
  for (let i = 0; i < 30; i++) outcomes.push(await evaluate(busy(`allowance ${i}`), { allowance }));
  const ran = outcomes.filter((o) => o.ok).length;
  assert.ok(ran >= 3 && ran < 30, `100 ms of CPU: some 20 ms expressions ran, the rest were refused: ${ran} ran`);
  assert.ok(
    outcomes.slice(0, ran).every((o) => o.ok),
    'the first ones ran, then none',
  );
  const refused = outcomes.filter((o): o is Extract<Outcome, { ok: false }> => !o.ok);
  assert.ok(refused.every((o) => o.error === 'not evaluated: this event spent its sandbox time'));
  assert.equal(refused.filter((o) => o.report).length, refused.length, 'each text reported once: these are all different texts');
  const again = await evaluate(busy('allowance 29'), { allowance });
  assert.equal(again.ok === false && again.report, false, 'the same text refused again: not reported');
});

test("a busy namespace's queue does not delay another namespace's evaluation by more than one turn", async () => {
  await loadExpressionSandbox();
  const order: string[] = [];
  const greedy = Array.from({ length: 30 }, (_, i) =>
    (evaluate(busy(`greedy ${i}`), { namespace: 'greedy' }) as Promise<Outcome>).then(() => order.push('greedy')),
  );
  await sleep(5);
  await (evaluate('event.check.status == 2', { namespace: 'polite' }) as Promise<Outcome>).then(() => order.push('polite'));
  const ahead = order.indexOf('polite');
  assert.ok(ahead >= 0 && ahead <= 2, `greedy evaluations answered before the polite one: ${ahead}`);
  await Promise.all(greedy);
});

// The role for other teams of docs/security.md: no handlers, no mutators.
const OTHER_TEAM = { rules: [{ verbs: ['*'], resources: ['checks', 'entities', 'events', 'filters', 'hooks', 'pipelines', 'silenced'] }] };
const basic = (user: string, password: string) => ({ authorization: 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64') });

async function otherTeam(v2: string, admin: string, namespace: string): Promise<string> {
  const ns = `${v2}/api/core/v2/namespaces/${namespace}`;
  assert.equal((await call(ns, 'PUT', admin, {})).status, 201);
  assert.equal((await call(`${v2}/api/core/v2/users`, 'POST', admin, { username: 'mallory', password: 'mallory-pass-1' })).status, 201);
  assert.equal((await call(`${ns}/roles/other-team`, 'PUT', admin, OTHER_TEAM)).status, 201);
  assert.equal(
    (await call(`${ns}/rolebindings/mallory`, 'PUT', admin, { subjects: [{ type: 'User', name: 'mallory' }], role_ref: { type: 'Role', name: 'other-team' } }))
      .status,
    201,
  );
  return `Bearer ${(await getJson(`${v2}/auth`, { headers: basic('mallory', 'mallory-pass-1') })).body.access_token}`;
}

/** The longest time between two /health answers while `during` runs, polling one after another. */
async function longestHealthGap(v2: string, during: Promise<unknown>): Promise<number> {
  let done = false;
  void during.finally(() => (done = true));
  let last = performance.now();
  let longest = 0;
  while (!done) {
    assert.equal((await fetch(`${v2}/health`, { signal: AbortSignal.timeout(60_000) })).status, 200);
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }
  return longest;
}

test("a team without handlers cannot stall the daemon with busy proxy entity_attributes; another namespace's events are still handled", async (t) => {
  const config = { 'conf.d/a.json': { client: { name: 'sandbox-host', address: '127.0.0.1', subscriptions: [] }, checkbridge: { entity_limit: 0 } } };
  const { v2, daemon, root } = await instanceFor(t, config);
  const admin = `Bearer ${await adminToken(v2)}`;
  const mallory = await otherTeam(v2, admin, 'team-b');
  const teamB = `${v2}/api/core/v2/namespaces/team-b`;
  for (let i = 0; i < 30; i++)
    assert.equal(
      (await call(`${teamB}/entities/proxy-${i}`, 'PUT', mallory, { metadata: { name: `proxy-${i}` }, entity_class: 'proxy', subscriptions: [] })).status,
      200,
    );
  // The well-behaved namespace: a cheap filter before a handler that records each event.
  const def = `${v2}/api/core/v2/namespaces/default`;
  const out = join(root, 'good.out');
  assert.equal(
    (await call(`${def}/filters/incident`, 'PUT', admin, { metadata: { name: 'incident' }, action: 'allow', expressions: ['event.check.status == 2'] })).status,
    201,
  );
  assert.equal((await call(`${def}/handlers/record`, 'PUT', admin, { type: 'pipe', command: `cat >> ${out}; echo >> ${out}`, timeout: 10 })).status, 201);
  const workflow = {
    name: 'w',
    filters: [{ name: 'incident', type: 'EventFilter', api_version: 'core/v2' }],
    handler: { name: 'record', type: 'Handler', api_version: 'core/v2' },
  };
  assert.equal((await call(`${def}/pipelines/good`, 'PUT', admin, { workflows: [workflow] })).status, 201);

  const attributes = Array.from({ length: 8 }, (_, i) => busy(`attribute ${i}`).replace('return true', 'return entity.entity_class == "proxy"'));
  const check = {
    metadata: { name: 'stall' },
    command: 'true',
    interval: 1,
    publish: true,
    subscriptions: ['nobody'],
    handlers: [],
    proxy_requests: { entity_attributes: attributes },
  };
  assert.equal((await call(`${teamB}/checks/stall`, 'PUT', mallory, check)).status, 201);

  // While it runs: the good namespace's events, one after another, each handled.
  const events = (async () => {
    for (let i = 0; i < 5; i++) {
      const body = {
        entity: { entity_class: 'proxy', metadata: { name: `good-${i}` } },
        check: { metadata: { name: 'disk' }, interval: 60, status: 2, output: 'full' },
        pipelines: [{ api_version: 'core/v2', type: 'Pipeline', name: 'good' }],
      };
      assert.equal((await call(`${def}/events/good-${i}/disk`, 'PUT', admin, body)).status, 201);
      const handled = daemon.logs.filter((l) => l.msg === 'handler output' && l.handler === 'record').length;
      assert.equal(handled, i);
      await daemon.waitFor((l) => l.msg === 'handler output' && l.handler === 'record', 30_000, daemon.logs.length);
      await sleep(1000);
    }
  })();
  const gap = await longestHealthGap(v2, events);
  await events;
  t.diagnostic(`longest /health gap under the attack: ${Math.round(gap)} ms`);
  assert.ok(gap < 1000, `the longest wait between /health answers was ${Math.round(gap)} ms`);
  assert.equal(
    daemon.logs.filter((l) => l.msg === 'handler output' && l.handler === 'record').length,
    5,
    'every event of the well-behaved namespace was handled',
  );
  // Bounded: quarantined, or refused once the check request's allowance was spent.
  const bounded = daemon.logs.filter(
    (l) => l.namespace === 'team-b' && (/used more than half its CPU budget/.test(String(l.msg)) || /spent its sandbox time/.test(String(l.error))),
  );
  assert.ok(bounded.length >= 1, "the busy expressions were quarantined or refused past the check request's allowance");
});
