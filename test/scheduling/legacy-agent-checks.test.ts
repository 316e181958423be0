// conf.d checks for Sensu Go agents: translated once per configuration load and marked as conf.d's, and the events
// agents send back for them turned into the legacy results their clients would have sent (or refused, with why).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LegacyAgentChecks } from '../../src/scheduling/legacy-agent-checks.js';
import { CheckRequestTargets } from '../../src/scheduling/check-request-targets.js';
import type { Json } from '../../src/json.js';
import { settingsOf } from '../helpers/settings.js';
import { capturedLogger } from '../helpers/log-capture.js';

const CONF_D = 'checkbridge.io/conf.d';

function checksOf(clients: Record<string, Json> = {}) {
  const { logger, lines } = capturedLogger();
  const checks = new LegacyAgentChecks({ targets: new CheckRequestTargets(), logger, client: (name) => clients[name] ?? null });
  checks.apply(
    settingsOf({
      checks: {
        disk: { command: 'check-disk -w 80', interval: 60, subscribers: ['linux'], timeout: 10 },
        ping: { command: 'ping :::address:::', interval: 60, subscribers: ['proxies'], proxy_requests: { client_attributes: { type: 'switch' } } },
        ext: { extension: 'cpu', interval: 60, subscribers: ['linux'] },
      },
    }),
  );
  return { checks, lines };
}

const agentRecord = { name: 'web-1', entity_class: 'agent', namespace: 'default' };
const eventOf = (check: Json, extra: Json = {}): Json => ({
  entity: { metadata: { name: 'web-1' } },
  check: {
    metadata: { name: 'disk', namespace: 'default', annotations: { [CONF_D]: 'true' } },
    status: 1,
    output: 'disk 85%',
    executed: 1000,
    issued: 990,
    ...check,
  },
  ...extra,
});

test('a conf.d check is sent to agents as its translation, marked as conf.d, issued when the legacy request was', () => {
  const { checks } = checksOf();
  const request = checks.requestOf({ name: 'disk', command: 'check-disk -w 80', issued: 1234 });
  assert.ok(request);
  assert.equal(request.issued, 1234);
  assert.deepEqual(
    [request.config.metadata?.name, request.config.command, request.config.metadata?.annotations?.[CONF_D]],
    ['disk', 'check-disk -w 80', 'true'],
  );
  assert.equal(checks.requestOf({ name: 'unknown', issued: 1 }), null);
});

test('a check that runs a legacy client extension is not sent to agents, and that is said', () => {
  const { checks, lines } = checksOf();
  assert.equal(checks.requestOf({ name: 'ext', issued: 1 }), null);
  const said = lines.find((l) => l.msg === 'legacy check not sent to Sensu Go agents' && l.check === 'ext');
  assert.equal(said?.reason, 'it runs a legacy client extension, which a Sensu Go agent does not have');
});

test("a proxy request's substituted command and source reach the agent", () => {
  const { checks } = checksOf();
  const request = checks.requestOf({ name: 'ping', command: 'ping 10.0.0.1', source: 'switch-1', issued: 5 });
  assert.deepEqual([request?.config.command, request?.config.proxy_entity_name], ['ping 10.0.0.1', 'switch-1']);
});

test("an agent's event of a conf.d check is its client's legacy result; other events are not", () => {
  const { checks } = checksOf({ 'web-1': agentRecord });
  const outcome = checks.legacyResultOf('default', 'web-1', eventOf({}, { metrics: { handlers: ['influx'], points: [{ name: 'm', value: 1 }] } }));
  assert.ok(outcome && 'result' in outcome);
  const { result } = outcome;
  assert.equal(result.client, 'web-1');
  assert.deepEqual([result.check.name, result.check.output, result.check.status, result.check.executed], ['disk', 'disk 85%', 1, 1000]);
  assert.deepEqual(result.metrics, { handlers: ['influx'], points: [{ name: 'm', value: 1 }] });
  // Not marked, another namespace, or a check conf.d does not have: not a legacy result.
  assert.equal(checks.legacyResultOf('default', 'web-1', eventOf({ metadata: { name: 'disk' } })), null);
  assert.equal(checks.legacyResultOf('other', 'web-1', eventOf({})), null);
  assert.equal(checks.legacyResultOf('default', 'web-1', eventOf({ metadata: { name: 'gone', annotations: { [CONF_D]: 'true' } } })), null);
});

test("the result is refused when the client record of the agent's name is not the agent's", () => {
  const { checks } = checksOf({ 'web-1': { name: 'web-1', address: 'x', subscriptions: [] } });
  assert.deepEqual(checks.legacyResultOf('default', 'web-1', eventOf({})), {
    refused: 'the client record "web-1" is not this agent\'s (no keepalive of it stored, or another client holds the name)',
  });
});

test('a proxy result is taken only for a proxy client the check could have been requested for', () => {
  const { checks } = checksOf({
    'web-1': agentRecord,
    // Proxy clients send no keepalives.
    'switch-1': { name: 'switch-1', type: 'switch', keepalives: false, address: '10.0.0.1' },
    'router-1': { name: 'router-1', type: 'router', keepalives: false, address: '10.0.0.9' },
    'live-1': { name: 'live-1', address: '10.0.0.5' },
  });
  const proxied = (source: string) =>
    checks.legacyResultOf('default', 'web-1', eventOf({ metadata: { name: 'ping', annotations: { [CONF_D]: 'true' } }, proxy_entity_name: source }));
  assert.deepEqual(proxied('nowhere'), { refused: 'proxy_entity_name "nowhere" names no client' });
  assert.deepEqual(proxied('web-1'), { refused: 'proxy_entity_name "web-1" names a Sensu Go agent, not a proxy client' });
  assert.deepEqual(proxied('live-1'), { refused: 'proxy_entity_name "live-1" names a client with keepalives, not a proxy client' });
  assert.deepEqual(proxied('router-1'), { refused: 'proxy_entity_name "router-1" is not matched by the check\'s proxy_requests client_attributes' });
  const taken = proxied('switch-1');
  assert.ok(taken && 'result' in taken);
  assert.deepEqual([taken.result.client, taken.result.check.source], ['web-1', 'switch-1']);
});

test('an event whose check.hooks is no list of objects is refused, as the v2 door refuses it, not thrown; a null hook is none', () => {
  const { checks } = checksOf({ 'web-1': agentRecord });
  for (const hooks of [{}, 5, 'critical', [null, 'x']])
    assert.deepEqual(
      checks.legacyResultOf('default', 'web-1', eventOf({ hooks })),
      { refused: 'check.hooks must be a list of objects' },
      JSON.stringify(hooks),
    );
  for (const hooks of [null, [null]]) {
    const outcome = checks.legacyResultOf('default', 'web-1', eventOf({ hooks }));
    assert.ok(outcome && 'result' in outcome, JSON.stringify(hooks));
    assert.equal(outcome.result.check.hooks, undefined);
  }
});

test("an agent's hook runs fill only the hooks the definition has, whatever they are named", () => {
  const { checks } = checksOf({ 'web-1': agentRecord });
  for (const severity of ['toString', 'constructor', '__proto__']) {
    const outcome = checks.legacyResultOf('default', 'web-1', eventOf({ hooks: [{ metadata: { name: `disk-${severity}` }, output: 'x', status: 0 }] }));
    assert.ok(outcome && 'result' in outcome, severity);
    assert.equal(outcome.result.check.hooks, undefined, severity);
  }
});
