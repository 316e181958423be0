// CheckConfigs the real Sensu Go agent refuses to run ("given check is invalid: …", status 3), or whose every result
// the event door refuses, are refused when written, with Sensu Go's CheckConfig.Validate messages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, eventually } from '../../helpers/instance.js';
import { agentFlags, agentInstanceFor, agentSkipReason, startAgent } from '../../helpers/sensu-agent.js';
import { adminToken, call } from './v2-helpers.js';

const HOST = { 'conf.d/client.json': { client: { name: 'validation-host', address: '127.0.0.1', subscriptions: [] } } };

test('a CheckConfig with both cron and interval, with neither (even publish:false), an invalid cron or a ttl under 5 s is refused, naming why', async (t) => {
  const { v2 } = await instanceFor(t, HOST);
  const auth = `Bearer ${await adminToken(v2)}`;
  const put = (body: Record<string, unknown>) =>
    call(`${v2}/api/core/v2/namespaces/default/checks/c`, 'PUT', auth, { command: 'true', subscriptions: ['linux'], ...body });
  const refused: [Record<string, unknown>, string][] = [
    [{ cron: '* * * * *', interval: 60, publish: true }, 'must only specify either an interval or a cron schedule'],
    [{ cron: '* * * * *', interval: 60, publish: false }, 'must only specify either an interval or a cron schedule'],
    [{ publish: false }, 'check interval must be greater than 0 or a valid cron schedule must be provided'],
    [{ interval: 0, publish: true }, 'check interval must be greater than 0 or a valid cron schedule must be provided'],
    [{ interval: 1.5, publish: true }, 'json: cannot unmarshal number 1.5 into Go struct field CheckConfig.interval of type uint32'],
    [{ cron: '61 * * * *', publish: true }, 'check cron string is invalid: end of range (61) above maximum (59): 61'],
    [{ cron: '0 0 30 2 *', publish: true }, 'check cron string is invalid: never runs: Invalid explicit day of month definition'],
    [{ cron: '@every ' + '9'.repeat(400) + 'h', publish: true }, `check cron string is invalid: time: invalid duration "${'9'.repeat(400)}h"`],
    [{ interval: 1, ttl: 3, publish: true }, 'minimum ttl is 5 seconds'],
    [{ interval: 10, ttl: 10, publish: true }, 'ttl must be greater than check interval'],
  ];
  for (const [body, message] of refused) {
    const reply = await put(body);
    assert.equal(reply.status, 400, JSON.stringify(body));
    assert.equal(reply.body.message, message, JSON.stringify(body));
  }
  for (const body of [
    { cron: '@every 30s', publish: true },
    { interval: 60, publish: false },
    { interval: 1, ttl: 5, publish: true },
    { cron: 'CRON_TZ=Asia/Kathmandu 0 9 * * mon-fri', interval: 0, publish: true },
  ]) {
    const reply = await put(body);
    assert.ok(reply.status === 200 || reply.status === 201, `${JSON.stringify(body)}: ${reply.status} ${JSON.stringify(reply.body)}`);
  }
});

test('a proxy check whose template names what is no function fails that request, logged; the daemon keeps scheduling', async (t) => {
  const { v2, daemon } = await instanceFor(t, HOST);
  const auth = `Bearer ${await adminToken(v2)}`;
  const ns = `${v2}/api/core/v2/namespaces/default`;
  assert.ok((await call(`${ns}/entities/router-1`, 'PUT', auth, { metadata: { name: 'router-1', namespace: 'default' }, entity_class: 'proxy' })).status < 300);
  const check = { command: 'echo {{ __proto__ }}', subscriptions: ['linux'], interval: 1, publish: true, proxy_requests: { entity_attributes: [] } };
  assert.ok((await call(`${ns}/checks/hostile`, 'PUT', auth, { metadata: { name: 'hostile', namespace: 'default' }, ...check })).status < 300);
  const failed = await daemon.waitFor((l) => l.check === 'hostile' && Number(l.level) >= 50, 20_000);
  assert.match(JSON.stringify(failed), /__proto__/);
  // Still running and scheduling: the next interval fails the same way.
  await daemon.waitFor((l) => l.check === 'hostile' && Number(l.level) >= 50 && l !== failed, 20_000);
  assert.equal(daemon.proc.exitCode, null);
});

test(
  'a CheckConfig without a command, or with "", is stored and served as Sensu Go serves it, and the real agent runs it every interval',
  { skip: agentSkipReason(), timeout: 90_000 },
  async (t) => {
    const { v2, daemon, agentd } = await agentInstanceFor(t, HOST);
    const auth = `Bearer ${await adminToken(v2)}`;
    const ns = `${v2}/api/core/v2/namespaces/default`;
    for (const [name, command] of [
      ['no-command', undefined],
      ['empty-command', ''],
    ] as const) {
      const body = {
        metadata: { name, namespace: 'default' },
        ...(command === undefined ? {} : { command }),
        interval: 1,
        publish: true,
        subscriptions: ['linux'],
      };
      const written = await call(`${ns}/checks/${name}`, 'PUT', auth, body);
      assert.equal(written.status, 201, JSON.stringify(written.body));
      const served = await call(`${ns}/checks/${name}`, 'GET', auth);
      assert.equal(served.status, 200);
      assert.ok(!('command' in served.body), `Sensu Go leaves an empty command out: ${JSON.stringify(served.body)}`);
    }
    await startAgent(t, agentd, 'no-command-agent', [...agentFlags(), '--subscriptions', 'linux']);
    // Every interval, results for both: the scheduler keeps sending them and the intake keeps storing what the agent reports.
    for (const name of ['no-command', 'empty-command']) {
      const first = await eventually(
        () => call(`${ns}/events/no-command-agent/${name}`, 'GET', auth),
        (r) => r.status === 200,
        30_000,
      );
      assert.equal(first.status, 200, `an event for ${name}`);
      const later = await eventually(
        () => call(`${ns}/events/no-command-agent/${name}`, 'GET', auth),
        (r) => r.status === 200 && r.body.check.executed > first.body.check.executed,
        30_000,
      );
      assert.ok(later.body.check.executed > first.body.check.executed, `${name} ran again`);
    }
    assert.equal(daemon.proc.exitCode, null);
  },
);
