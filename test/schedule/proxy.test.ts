// Proxy requests: the registry clients a check runs for, substituted per client, spread over the interval.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planProxyRequests } from '../../src/schedule/proxy.js';

const clients = [
  { name: 'router-1', type: 'proxy', site: 'eu', address: '10.0.0.1' },
  { name: 'router-2', type: 'proxy', site: 'eu' },
  { name: 'router-3', type: 'proxy', site: 'us', address: '10.0.0.3' },
  { name: 'web', type: 'agent', site: 'eu', address: '10.0.1.1' },
];

test('matching clients each get the check with their tokens substituted and `source` set to their name', () => {
  const check = { name: 'ping', command: 'ping :::address:::', proxy_requests: { client_attributes: { type: 'proxy', site: 'us' } } };
  const plan = planProxyRequests(check, clients, 60);
  assert.deepEqual(plan.skipped, []);
  assert.deepEqual(plan.targets, [{ client: clients[2], check: { ...check, command: 'ping 10.0.0.3', source: 'router-3' }, delayMs: 0 }]);
  assert.equal(check.command, 'ping :::address:::', 'the definition is not changed');
});

test('a client missing a token is skipped with the tokens it lacks; a source given is kept', () => {
  const check = { name: 'ping', command: 'ping :::address:::', source: 'fixed', proxy_requests: { client_attributes: { site: 'eu', type: 'proxy' } } };
  const plan = planProxyRequests(check, clients, 60);
  assert.deepEqual(
    plan.targets.map((t) => [t.client.name, t.check.command, t.check.source]),
    [['router-1', 'ping 10.0.0.1', 'fixed']],
  );
  assert.deepEqual(plan.skipped, [{ client: 'router-2', unmatched: ['address'] }]);
});

test('with splay, the matched clients spread over coverage (90% by default) of the interval, in registry order', () => {
  const check = (proxy: Record<string, unknown>) => ({ name: 'c', command: 'true', proxy_requests: { client_attributes: { site: 'eu' }, ...proxy } });
  assert.deepEqual(
    planProxyRequests(check({ splay: true }), clients, 60).targets.map((t) => t.delayMs),
    [0, 18_000, 36_000],
  );
  assert.deepEqual(
    planProxyRequests(check({ splay: true, splay_coverage: 50 }), clients, 60).targets.map((t) => t.delayMs),
    [0, 10_000, 20_000],
  );
  assert.deepEqual(
    planProxyRequests(check({}), clients, 60).targets.map((t) => t.delayMs),
    [0, 0, 0],
  );
});

test('empty client_attributes publish nothing at all (legacy); eval: attributes go to the hook', () => {
  assert.deepEqual(planProxyRequests({ name: 'c', proxy_requests: { client_attributes: {} } }, clients, 60), { targets: [], skipped: [] });
  const check = { name: 'c', command: 'true', proxy_requests: { client_attributes: { name: 'eval: value.start_with?("router")' } } };
  const hook = (_attribute: string, value: unknown) => String(value).startsWith('router');
  assert.deepEqual(
    planProxyRequests(check, clients, 60, hook).targets.map((t) => t.client.name),
    ['router-1', 'router-2', 'router-3'],
  );
});
