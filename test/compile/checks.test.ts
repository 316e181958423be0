// emitChecks: legacy check definitions as CheckConfigs and HookConfigs, with the context (filters, labels, became) and warnings they leave.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emitChecks } from '../../src/compile/checks.js';
import { newContext } from '../../src/compile/context.js';
import type { Resource, SensuGoVersion } from '../../src/compile/model.js';
import { settingsOf } from '../helpers/settings.js';

const client = { name: 'web-1', address: '10.0.0.1', subscriptions: ['web'], rack: 'r7', password: 'hunter2' };

function emit(checks: Record<string, unknown>, extra: Record<string, unknown> = {}, target: SensuGoVersion = { major: 6, minor: Infinity }) {
  const warnings: string[] = [];
  const settings = settingsOf({ client, checks, ...extra });
  const ctx = newContext(settings, 'ops', (segments, message) => warnings.push(`${segments.join('/')}: ${message}`), target, 0);
  const resources = emitChecks(settings, ctx, 'web-1');
  const check = (name: string) => resources.find((r) => r.type === 'CheckConfig' && r.metadata.name === name) as Resource;
  const warned = (path: string) => warnings.filter((w) => w.startsWith(`${path}: `)).map((w) => w.slice(path.length + 2));
  return { resources, warnings, ctx, check, warned };
}

test('a cron Sensu Go cannot parse drops the check with a warning; the others are emitted sorted by name, in the namespace', () => {
  const { resources, warned, ctx } = emit({
    zeta: { command: 'true', subscribers: ['a'], interval: 10 },
    bad: { command: 'true', subscribers: ['a'], cron: '0 0 L * *' },
    alpha: { command: 'true', subscribers: ['a'], interval: 10 },
  });
  assert.deepEqual(
    resources.map((r) => `${r.type}/${r.metadata.namespace}/${r.metadata.name}`),
    ['CheckConfig/ops/alpha', 'CheckConfig/ops/zeta'],
  );
  assert.match(warned('checks/bad/cron')[0]!, /has no Sensu Go equivalent.*check not emitted/);
  assert.equal(ctx.became.has('checks/bad'), false);
});

test('a cron wins over an interval, which is left out with a warning', () => {
  const { check, warned } = emit({ both: { command: 'true', subscribers: ['a'], cron: '0 9 * * *', interval: 10 } });
  assert.deepEqual([check('both').spec.cron, check('both').spec.interval], ['0 9 * * *', 0]);
  assert.match(warned('checks/both/interval')[0]!, /^cron and interval together/);
});

test('an unpublished check without an interval gets a placeholder interval, never scheduled', () => {
  const { check, warned } = emit({
    unpub: { command: 'true', subscribers: ['a'], publish: false },
  });
  assert.deepEqual([check('unpub').spec.publish, check('unpub').spec.interval], [false, 60]);
  assert.match(warned('checks/unpub/publish')[0]!, /^publish false without an interval/);
});

test('a ttl at or under the interval is raised above it; fractional timeouts round up, each with a warning', () => {
  const { check, warned } = emit({
    short: { command: 'true', subscribers: ['a'], interval: 60, ttl: 30, timeout: 2.5 },
    tiny: { command: 'true', subscribers: ['a'], cron: '* * * * *', ttl: 2 },
    fine: { command: 'true', subscribers: ['a'], interval: 60, ttl: 90, timeout: 5 },
  });
  assert.deepEqual([check('short').spec.ttl, check('short').spec.timeout], [61, 3]);
  assert.match(warned('checks/short/ttl')[0]!, /^ttl 30: .*emitted as 61, so a stale result is reported up to 31 s later/);
  assert.match(warned('checks/short/timeout')[0]!, /^timeout 2\.5 is not a whole number of seconds.*emitted as 3$/);
  assert.equal(check('tiny').spec.ttl, 5, 'a cron check has interval 0: the floor is 5 s');
  assert.deepEqual([check('fine').spec.ttl, check('fine').spec.timeout], [90, 5]);
  assert.deepEqual([...warned('checks/fine/ttl'), ...warned('checks/fine/timeout')], []);
});

test('round-robin subscriptions lose their prefix and set round_robin; mixing them with plain ones is warned about', () => {
  const { check, warned } = emit({
    rr: { command: 'true', subscribers: ['roundrobin:lb', 'roundrobin:db'], interval: 10 },
    mixed: { command: 'true', subscribers: ['roundrobin:lb', 'web', 'web'], interval: 10 },
    plain: { command: 'true', subscribers: ['web'], interval: 10 },
  });
  assert.deepEqual([check('rr').spec.subscriptions, check('rr').spec.round_robin], [['db', 'lb'], true]);
  assert.deepEqual(warned('checks/rr/subscribers'), []);
  assert.deepEqual([check('mixed').spec.subscriptions, check('mixed').spec.round_robin], [['lb', 'web'], true]);
  assert.match(warned('checks/mixed/subscribers')[0]!, /^round_robin applies to every subscription/);
  assert.equal(check('plain').spec.round_robin, false);
});

test('handlers route to one pipeline per real handler, sets expanded; unknown names stay handlers; handle false routes nothing', () => {
  const { check, warned } = emit(
    {
      routed: { command: 'true', subscribers: ['a'], interval: 10, handler: 'all' },
      unhandled: { command: 'true', subscribers: ['a'], interval: 10, handlers: ['mail'], handle: false },
    },
    {
      handlers: {
        mail: { type: 'pipe', command: 'm' },
        tcp: { type: 'tcp', socket: { host: 'h', port: 1 } },
        all: { type: 'set', handlers: ['tcp', 'mail', 'nope'] },
      },
    },
  );
  assert.deepEqual(
    check('routed').spec.pipelines.map((p: { name: string }) => p.name),
    ['mail', 'tcp'],
  );
  assert.deepEqual(check('routed').spec.handlers, ['nope']);
  assert.deepEqual([check('unhandled').spec.pipelines, check('unhandled').spec.handlers], [[], []]);
  assert.match(warned('checks/unhandled/handle')[0]!, /^handle false/);
});

test('a source token is resolved for a standalone check, and dropped with a warning for a subscription check', () => {
  const { check, warned } = emit({
    local: { command: 'true', standalone: true, interval: 10, source: 'switch-:::rack:::' },
    shared: { command: 'true', subscribers: ['a'], interval: 10, source: 'switch-:::rack:::' },
    fixed: { command: 'true', subscribers: ['a'], interval: 10, source: 'switch-1' },
  });
  assert.equal(check('local').spec.proxy_entity_name, 'switch-r7');
  assert.deepEqual(check('local').spec.subscriptions, ['entity:web-1']);
  assert.equal(check('shared').spec.proxy_entity_name, undefined);
  assert.match(warned('checks/shared/source')[0]!, /a token cannot be kept/);
  assert.equal(check('fixed').spec.proxy_entity_name, 'switch-1');
});

test('before 6.7 a subdue becomes a deny filter added to each pipeline of the check; from 6.7 it becomes subdues', () => {
  const checks = {
    quiet: { command: 'true', subscribers: ['a'], interval: 10, handlers: ['mail'], subdue: { days: { all: [{ begin: '5:00 PM', end: '8:00 AM' }] } } },
  };
  const handlers = { handlers: { mail: { type: 'pipe', command: 'm' } } };
  const old = emit(checks, handlers, { major: 6, minor: 6 });
  assert.equal(old.check('quiet').spec.subdues, undefined);
  const filter = old.ctx.checkFilters.get('checkbridge-subdue-quiet')!;
  assert.equal(filter.spec.action, 'deny');
  assert.match(filter.spec.expressions[0], /^event\.check\.name == "quiet" && /);
  assert.deepEqual(old.ctx.pipelineFilters.get('mail'), ['checkbridge-subdue-quiet']);
  assert.deepEqual(old.ctx.became.get('checks/quiet'), ['CheckConfig/quiet', 'EventFilter/checkbridge-subdue-quiet']);
  const current = emit(checks, handlers, { major: 6, minor: 7 });
  assert.equal(current.check('quiet').spec.subdues.length, 2);
  assert.equal(current.ctx.checkFilters.size, 0);
  assert.equal(current.ctx.differences.size, 1);
});

test('hooks become HookConfigs named check-status, with whole-second timeouts and no secrets', () => {
  const { resources, check, warned, ctx } = emit({
    hk: {
      command: 'true',
      subscribers: ['a'],
      interval: 10,
      hooks: { critical: { command: 'ps :::rack:::', timeout: 1.2, secrets: [{ name: 'a', secret: 'b' }] } },
    },
  });
  const hook = resources.find((r) => r.type === 'HookConfig')!;
  assert.equal(hook.metadata.name, 'hk-critical');
  assert.deepEqual(hook.spec, { command: 'ps {{ .labels.rack }}', timeout: 2, stdin: false, runtime_assets: null });
  assert.deepEqual(check('hk').spec.check_hooks, [{ critical: ['hk-critical'] }]);
  assert.match(warned('checks/hk/hooks/critical/secrets')[0]!, /hooks take no secrets/);
  assert.deepEqual(ctx.became.get('checks/hk'), ['CheckConfig/hk', 'HookConfig/hk-critical']);
  assert.deepEqual(ctx.labelReport.hk, ['rack'], 'labels a hook reads count for its check');
});

test('annotations: fatigue defaults, the labels read, a warning for a secret label, and template braces escaped', () => {
  const { check, warned, ctx } = emit({
    fat: { command: 'true', subscribers: ['a'], interval: 10, refresh: 600 },
    secretive: { command: 'login :::password::: {{x}}', subscribers: ['a'], interval: 10, team: '{{ t }}' },
  });
  assert.deepEqual(check('fat').metadata.annotations, { 'fatigue_check/occurrences': '1', 'fatigue_check/interval': '600' });
  const secretive = check('secretive');
  assert.equal(secretive.spec.command, 'login {{ .labels.password }} {{"{{"}}x}}');
  assert.equal(secretive.metadata.annotations!['checkbridge.io/entity-labels'], 'password');
  assert.equal(secretive.metadata.annotations!['checkbridge.io/legacy-attributes'], '{"team":"{{"{{"}} t }}"}');
  assert.match(warned('checks/secretive/command')[0]!, /reads the secret attribute password/);
  assert.equal(ctx.labelsRead.get('password'), 'password');
});
