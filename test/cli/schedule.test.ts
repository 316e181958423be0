import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { makeTree, removeTree } from '../helpers/tree.js';

const config = {
  client: { name: 'i-424242', address: '10.0.0.1', subscriptions: ['web'] },
  checks: {
    test: { command: 'x', interval: 60, subscribers: ['web', 'db'] },
    alone: { command: 'x', interval: 3600, standalone: true },
    nightly: { command: 'x', cron: '30 2 * * *', subscribers: ['web'] },
    quiet: { command: 'x', interval: 600, subscribers: ['web'], subdue: { days: { all: [{ begin: '10:00 PM UTC', end: '11:59 PM UTC' }] } } },
    off: { command: 'x', publish: false, subscribers: ['web'] },
    ping: { command: 'ping :::address:::', interval: 60, subscribers: ['proxies'], proxy_requests: { client_attributes: { type: 'switch' }, splay: true } },
  },
};

test('schedule --json plans every check exactly, with splay, cron, subdue and publish false', (t) => {
  const root = makeTree({ 'a.json': config });
  t.after(() => removeTree(root));
  // 1414213569.032 is the legacy splay vector instant: "test" at 17.601 s, "i-424242:test" at 783.321 s per hour.
  const result = runCli(['schedule', root, '--at', '2014-10-25T05:06:09.032Z', '--for', '2m', '--json'], { env: { TZ: 'UTC' } });
  assert.equal(result.code, 0, result.stderr);
  const plan = JSON.parse(result.stdout);
  assert.equal(plan.from, '2014-10-25T05:06:09.032Z');
  assert.equal(plan.to, '2014-10-25T05:08:09.032Z');
  const next = Object.fromEntries(plan.checks.map((c: { check: string; next: string | null }) => [c.check, c.next]));
  assert.equal(next.test, '2014-10-25T05:06:26.633Z');
  assert.equal(next.off, null);
  assert.equal(next.nightly, '2014-10-26T02:30:00.000Z');
  const tests = plan.executions.filter((e: { check: string }) => e.check === 'test');
  assert.deepEqual(tests, [
    { check: 'test', target: 'db', at: '2014-10-25T05:06:26.633Z' },
    { check: 'test', target: 'web', at: '2014-10-25T05:06:26.633Z' },
    { check: 'test', target: 'db', at: '2014-10-25T05:07:26.633Z' },
    { check: 'test', target: 'web', at: '2014-10-25T05:07:26.633Z' },
  ]);
  assert.deepEqual(
    plan.skipped.filter((s: { check: string }) => s.check === 'off'),
    [{ check: 'off', target: 'web', at: null, reason: 'publish false' }],
  );
});

test('the splay vector: a standalone check on client i-424242 named test runs at 783.321 s into the hour phase', (t) => {
  const root = makeTree({ 'a.json': { client: config.client, checks: { test: { command: 'x', interval: 3600, standalone: true } } } });
  t.after(() => removeTree(root));
  const plan = JSON.parse(runCli(['schedule', root, '--at', '2014-10-25T05:06:09.032Z', '--json']).stdout);
  assert.deepEqual(plan.executions, [{ check: 'test', target: 'i-424242', at: '2014-10-25T05:19:12.353Z' }]);
  assert.equal(Date.parse(plan.executions[0].at) - Date.parse(plan.from), 783_321);
});

test('subdued instants are listed as skipped with the reason, and subdued says whether "from" is subdued', (t) => {
  const root = makeTree({ 'a.json': config });
  t.after(() => removeTree(root));
  const plan = JSON.parse(runCli(['schedule', root, '--at', '2014-10-25T22:30:00Z', '--for', '1h', '--json']).stdout);
  const quiet = plan.checks.find((c: { check: string }) => c.check === 'quiet');
  assert.equal(quiet.subdued, true);
  const skipped = plan.skipped.filter((s: { check: string }) => s.check === 'quiet');
  const ran = plan.executions.filter((e: { check: string }) => e.check === 'quiet');
  assert.ok(skipped.length >= 2 && skipped.every((s: { reason: string }) => s.reason === 'subdued'));
  assert.ok(ran.every((e: { at: string }) => e.at >= '2014-10-25T23:59:59.999Z'));
});

test('proxy fan-out against --clients: interval 60, coverage 90, 3 clients spread 0, 18, 36 s', (t) => {
  const root = makeTree({
    'a.json': config,
    'clients.json': JSON.stringify([
      { name: 'sw1', type: 'switch', address: '10.1.0.1' },
      { name: 'srv', type: 'server', address: '10.1.0.9' },
      { name: 'sw2', type: 'switch', address: '10.1.0.2' },
      { name: 'sw3', type: 'switch', address: '10.1.0.3' },
    ]),
  });
  t.after(() => removeTree(root));
  const plan = JSON.parse(
    runCli(['schedule', join(root, 'a.json'), '--clients', join(root, 'clients.json'), '--at', '2014-10-25T05:06:09.032Z', '--for', '60s', '--json']).stdout,
  );
  const pings = plan.executions.filter((e: { check: string }) => e.check === 'ping');
  assert.deepEqual(
    pings.map((p: { target: string }) => p.target),
    ['sw1', 'sw2', 'sw3'],
  );
  const times = pings.map((p: { at: string }) => Date.parse(p.at) - Date.parse(pings[0].at));
  assert.deepEqual(times, [0, 18_000, 36_000]);
});

test('bad --at or --for is a usage error (64)', (t) => {
  const root = makeTree({ 'a.json': config });
  t.after(() => removeTree(root));
  assert.equal(runCli(['schedule', root, '--at', 'yesterday']).code, 64);
  assert.equal(runCli(['schedule', root, '--for', 'forever']).code, 64);
});

test('schedule --for prints a header, then executions and subdued instants together in time order', (t) => {
  const root = makeTree({
    'a.json': { client: config.client, checks: { quiet: config.checks.quiet, busy: { command: 'x', interval: 600, standalone: true } } },
  });
  t.after(() => removeTree(root));
  const result = runCli(['schedule', root, '--at', '2014-10-25T21:30:00Z', '--for', '1h']);
  assert.equal(result.code, 0, result.stderr);
  const lines = result.stdout.trimEnd().split('\n');
  assert.match(lines[0]!, /^executions from 2014-10-25T21:30:00\.000Z to 2014-10-25T22:30:00\.000Z: \d+ planned, \d+ skipped$/);
  assert.equal(lines[1], 'AT  CHECK  TARGET  NOTE');
  const rows = lines.slice(2);
  assert.ok(rows.some((r) => r.includes('  quiet  web  skipped: subdued')) && rows.some((r) => / {2}quiet {2}web$/.test(r)), rows.join('\n'));
  const instants = rows.map((r) => r.split('  ')[0]!);
  assert.deepEqual(instants, [...instants].sort(), 'in time order');
});
