import { test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { buildSettings } from '../../src/config/build.js';
import { compileSettings, type Resource } from '../../src/compile/index.js';
import { goCronProblem } from '../../src/time/index.js';
import { goTemplateProblem } from '../../src/compile/go-template.js';
import { es5ExpressionProblem } from '../../src/compile/js-dialect.js';
import { sensuProblem, parseTarget } from '../../src/compile/sensu-rules.js';
import { filterEvent } from '../../src/handling/filter.js';
import { registryUpdate, type EventDraft } from '../../src/legacy/event-model.js';
import { attributesMatch } from '../../src/schedule/attributes.js';
import { isSubdued } from '../../src/schedule/subdue.js';
import { substituteTokens } from '../../src/tokens/index.js';
import { CRAFTED } from './crafted.js';
import { entityMatches, pipelinePasses, renderTemplate, sensuFilterPasses } from './sensu-go-model.js';

import type { Json } from '../../src/json.js';

function compile(config: Json, target = '6.x') {
  const text = JSON.stringify(config, null, 2);
  const files = [{ path: 'conf.d/crafted.json', text, data: config, diagnostics: [] }];
  const outcome = buildSettings(files, {});
  assert.ok(outcome.settings, JSON.stringify(outcome.diagnostics));
  return { ...compileSettings(outcome.settings, files, 'default', { target: parseTarget(target)!, localOffsetMinutes: 0 }), settings: outcome.settings };
}
const find = (resources: Resource[], type: string, name: string) => resources.find((r) => r.type === type && r.metadata.name === name);
const crafted = compile(CRAFTED);
const warningAt = (path: string) =>
  crafted.warnings
    .filter((w) => w.path === path)
    .map((w) => w.message)
    .join('\n');
const log = pino({ level: 'silent' });

test('the crafted configuration compiles with no document Sensu Go would refuse, for every 6.x target', () => {
  for (const target of ['6.0', '6.6', '6.7', '6.x']) {
    const { resources, refused } = compile(CRAFTED, target);
    assert.deepEqual(refused, [], target);
    for (const r of resources) assert.equal(sensuProblem(r, parseTarget(target)!), null, `${target} ${r.type}/${r.metadata.name}`);
    // Every expression is ECMAScript 5 (acorn) with regular expressions otto can compile; every check string a Go template.
    for (const r of resources.filter((x) => x.type === 'EventFilter')) for (const e of r.spec.expressions) assert.equal(es5ExpressionProblem(e), null, e);
    for (const r of resources.filter((x) => x.type === 'CheckConfig')) {
      for (const e of r.spec.proxy_requests?.entity_attributes ?? []) assert.equal(es5ExpressionProblem(e), null, e);
      assert.equal(goTemplateProblem(r.spec.command), null, r.spec.command);
      if (r.spec.cron) assert.equal(goCronProblem(r.spec.cron), null, r.spec.cron);
    }
  }
});

test('refused by Sensu Go: unpublished, source tokens, cron, cron with interval, ttl, fractional timeouts', () => {
  const check = (name: string) => find(crafted.resources, 'CheckConfig', name)?.spec;
  assert.deepEqual([check('unpublished')!.publish, check('unpublished')!.interval], [false, 60]);
  assert.match(warningAt('/checks/unpublished/publish'), /requires an interval/);
  assert.equal(check('proxied')!.proxy_entity_name, undefined, 'a token cannot be a proxy_entity_name');
  assert.match(warningAt('/checks/proxied/source'), /validates proxy_entity_name as a name/);
  assert.equal(check('local-proxy')!.proxy_entity_name, 'switch-r7', 'a standalone check resolves its token from the client');
  assert.equal(find(crafted.resources, 'Entity', 'switch-r7')?.spec.entity_class, 'proxy');
  assert.equal(check('six')!.cron, '0 0 * * *');
  assert.equal(check('sunday')!.cron, '0 0 * * 5-6,0');
  assert.equal(check('last-day'), undefined);
  assert.equal(check('second-monday'), undefined);
  assert.match(warningAt('/checks/last-day/cron'), /no Sensu Go equivalent.*not emitted/);
  assert.match(warningAt('/checks/second-monday/cron'), /no Sensu Go equivalent.*not emitted/);
  assert.deepEqual([check('both')!.cron, check('both')!.interval], ['*/5 * * * *', 0]);
  assert.deepEqual([check('short-ttl')!.ttl, check('short-ttl')!.timeout], [61, 3]);
  assert.equal(check('tiny-ttl')!.ttl, 5);
  assert.equal(find(crafted.resources, 'Mutator', 'tag')!.spec.timeout, 2);
  assert.equal(find(crafted.resources, 'Handler', 'mail')!.spec.timeout, 1);
  for (const w of crafted.warnings) assert.ok(w.file && w.line && w.column, JSON.stringify(w));
});

test("Sensu Go's rules: the validators refuse what Sensu Go refuses", () => {
  for (const bad of ['0 0 * * * *', '0 0 L * *', '0 9 * * 1#2', '0 0 * * 7', '0 0 * * MON-SUN', '*/0 * * * *', '@reboot', '60 * * * *'])
    assert.notEqual(goCronProblem(bad), null, bad);
  for (const good of ['*/5 * * * *', '0 9 * * mon-fri', '@daily', '@every 1h30m', 'CRON_TZ=Europe/Paris 0 9 * * *', '0 0 1,15 * ?'])
    assert.equal(goCronProblem(good), null, good);
  for (const bad of ['let x = 1', '(x) => x', '/(?<=a)b/.test(s)', '/(?=a)/.test(s)', '/(?<n>a)/.test(s)', '/(a)\\1/.test(s)', '`t`'])
    assert.notEqual(es5ExpressionProblem(bad), null, bad);
  for (const bad of ['{{ .a', '{{ nope .x }}', '{{ if .a }}x', '{{ end }}', '{{ .labels.1x }}', '{{ }}']) assert.notEqual(goTemplateProblem(bad), null, bad);
  for (const good of ['{{"{{"}}.State}}', '{{ .labels.a | default "x" }}', '{{ index .labels "1x" }}', '{{ if .a }}x{{ else }}y{{ end }}', 'no template'])
    assert.equal(goTemplateProblem(good), null, good);
  const base = {
    type: 'CheckConfig',
    api_version: 'core/v2' as const,
    metadata: { name: 'c', namespace: 'default' },
    spec: { command: 'x', publish: true, interval: 60, ttl: 0, timeout: 0, low_flap_threshold: 0, high_flap_threshold: 0, subscriptions: ['a'] },
  };
  const problem = (spec: Json, target = '6.x') => sensuProblem({ ...base, spec: { ...base.spec, ...spec } }, parseTarget(target)!);
  assert.equal(problem({}), null);
  assert.match(problem({ interval: 0, publish: false })!, /interval/);
  assert.match(problem({ cron: '* * * * *' })!, /either an interval or a cron/);
  assert.match(problem({ ttl: 60 })!, /ttl must be greater than check interval/);
  assert.match(problem({ interval: 0, cron: '* * * * *', ttl: 3 })!, /minimum ttl is 5 seconds/);
  assert.match(problem({ timeout: 2.5 })!, /whole number/);
  assert.match(problem({ proxy_entity_name: '{{ .name }}-db' })!, /proxy entity name/);
  assert.match(problem({ subdue: { days: {} } })!, /subdue/);
  assert.match(problem({ subdues: [] }, '6.6')!, /6\.7/);
  assert.match(problem({ command: "docker inspect -f '{{.State.Running' x" })!, /template/);
  assert.match(
    sensuProblem(
      { type: 'EventFilter', api_version: 'core/v2', metadata: { name: 'f', namespace: 'default' }, spec: { action: 'allow', expressions: [] } },
      parseTarget('6.x')!,
    )!,
    /one or more expressions/,
  );
});

// The legacy decision (registry update, then per-handler filtering, run by checkbridge's own
// legacy server code) against the compiled pipeline's decision in the Sensu Go model.
interface Vector {
  readonly check: string;
  readonly status: number;
  readonly previous?: number;
  readonly flapping?: boolean;
  readonly occurrences?: number;
  readonly watermark?: number;
  readonly at?: number;
  readonly client?: Json;
}

function legacyHandles(settings: Json, handler: string, v: Vector): boolean {
  const definition = settings.checks[v.check];
  const action = v.flapping ? 'flapping' : v.status !== 0 ? 'create' : v.previous ? 'resolve' : 'create';
  const history = [...(v.previous !== undefined ? [String(v.previous)] : []), String(v.status)];
  const event: EventDraft = {
    id: 'x',
    client: { ...settings.client, ...v.client },
    check: { ...definition, name: v.check, status: v.status, history },
    occurrences: v.occurrences ?? 1,
    occurrences_watermark: v.watermark ?? v.occurrences ?? 1,
    last_ok: null,
    last_state_change: null,
    action,
    timestamp: v.at ?? 0,
    silenced: false,
    silenced_by: [],
  };
  if (!registryUpdate(event).process) return false;
  const definitionOf = settings.handlers[handler];
  return (
    filterEvent({ ...definitionOf, name: handler }, event, { settings: settings as never, store: undefined as never, now: (v.at ?? 0) * 1000, log }) === null
  );
}

function v2Handles(resources: Resource[], handler: string, v: Vector): boolean {
  const check = find(resources, 'CheckConfig', v.check)!;
  const entity = find(resources, 'Entity', 'web-1')!;
  const labels = { ...entity.metadata.labels, ...Object.fromEntries(Object.entries(v.client ?? {}).map(([k, x]) => [k, String(x)])) };
  const history = [...(v.previous !== undefined ? [{ status: v.previous }] : [{ status: v.status }]), { status: v.status }];
  const event = {
    timestamp: v.at ?? 0,
    entity: { name: 'web-1', labels, subscriptions: entity.spec.subscriptions },
    check: {
      name: v.check,
      status: v.status,
      history,
      interval: check.spec.interval,
      state: v.flapping ? 'flapping' : v.status === 0 ? 'passing' : 'failing',
      occurrences: v.occurrences ?? 1,
      occurrences_watermark: v.watermark ?? v.occurrences ?? 1,
      annotations: check.metadata.annotations ?? {},
      is_silenced: false,
    },
  };
  const routed = (check.spec.pipelines as Json[]).some((p) => p.name === handler);
  return routed && pipelinePasses(resources, handler, event);
}

function sameDecisions(config: Json, handler: string, vectors: Vector[], target = '6.x'): void {
  const { resources, settings } = compile(config, target);
  for (const v of vectors) assert.equal(v2Handles(resources, handler, v), legacyHandles(settings, handler, v), `${handler} ${JSON.stringify(v)}`);
}

// Local times of a Monday and a Tuesday (windows are in the process's, the backend's, local time).
const monday = (h: number, m = 0) => new Date(2026, 10, 23, h, m).getTime() / 1000;
const tuesday = (h: number, m = 0) => new Date(2026, 10, 24, h, m).getTime() / 1000;

test('incidents vs OK: only non-OK results, resolutions, flapping (if wanted) and metrics are handled, as legacy', () => {
  const config = {
    client: { name: 'web-1', address: '10.0.0.1', subscriptions: ['web'] },
    checks: {
      plain: { command: 'true', subscribers: ['web'], interval: 60, handlers: ['mail', 'flappy'] },
      metrics: { command: 'true', subscribers: ['web'], interval: 60, type: 'metric', handlers: ['mail', 'flappy'] },
      sticky: { command: 'true', subscribers: ['web'], interval: 60, auto_resolve: false, handlers: ['mail', 'flappy'] },
    },
    handlers: { mail: { type: 'pipe', command: 'mail' }, flappy: { type: 'pipe', command: 'x', handle_flapping: true } },
  };
  const vectors: Vector[] = [];
  for (const check of ['plain', 'metrics', 'sticky']) {
    vectors.push(
      { check, status: 2 },
      { check, status: 1, previous: 2 },
      { check, status: 0 },
      { check, status: 0, previous: 0 },
      { check, status: 0, previous: 2 },
      { check, status: 2, previous: 0, flapping: true },
      { check, status: 0, previous: 1, flapping: true },
    );
  }
  sameDecisions(config, 'mail', vectors);
  sameDecisions(config, 'flappy', vectors);
  // Before the fix, an OK result of a plain check was handled: check that the model sees the difference.
  const { resources } = compile(config);
  assert.equal(v2Handles(resources, 'mail', { check: 'plain', status: 0, previous: 0 }), false);
});

test('filter when windows, negated multi-attribute filters and boolean attributes decide as legacy', () => {
  const vectors: Vector[] = [];
  for (const at of [monday(10), monday(8, 59), monday(17), monday(17, 1), tuesday(10)]) {
    for (const status of [1, 2]) {
      for (const environment of ['dev', 'prod'])
        for (const production of [true, false]) vectors.push({ check: 'sticky', status, at, client: { environment, production } });
    }
  }
  const config = { ...CRAFTED, filters: { ...CRAFTED.filters } } as Json;
  // mail: office-hours (when), not-dev-web (negated, two attributes), prod (boolean); lookahead is left out, so test without it.
  config.handlers = { ...CRAFTED.handlers, mail: { ...CRAFTED.handlers.mail, filters: ['office-hours', 'not-dev-web', 'prod'] } };
  config.checks = {
    ...CRAFTED.checks,
    sticky: { ...CRAFTED.checks.sticky, team: 'web' },
    other: { command: 'true', subscribers: ['web'], interval: 60, handler: 'mail', team: 'db' },
  };
  sameDecisions(config, 'mail', vectors);
  sameDecisions(
    config,
    'mail',
    vectors.map((v) => ({ ...v, check: 'other' })),
  );
  // The negated filter denies only when both attributes match (Sensu Go ORs a deny filter's expressions).
  const negated = find(compile(config).resources, 'EventFilter', 'not-dev-web')!.spec;
  assert.equal(negated.expressions.length, 1);
});

test('boolean client attributes select proxy entities as legacy client_attributes did', () => {
  const fleet = find(crafted.resources, 'CheckConfig', 'fleet')!.spec.proxy_requests.entity_attributes as string[];
  const attributes = CRAFTED.checks.fleet.proxy_requests.client_attributes;
  for (const keepalives of [true, false, undefined]) {
    for (const production of [true, false, 'true', undefined]) {
      const client: Json = { name: 'sw', ...(keepalives === undefined ? {} : { keepalives }), ...(production === undefined ? {} : { production }) };
      const labels = Object.fromEntries(
        Object.entries(client)
          .filter(([k]) => k !== 'name')
          .map(([k, x]) => [k, String(x)]),
      );
      assert.equal(entityMatches(fleet, { name: 'sw', labels }), attributesMatch(client, attributes), JSON.stringify(client));
    }
  }
});

test('occurrences: the compiled filter hands the same occurrences to the handler as legacy', () => {
  const vectors: Vector[] = [1, 2, 3, 4, 32, 33, 63].map((occurrences) => ({ check: 'disk', status: 2, occurrences }));
  vectors.push(
    { check: 'disk', status: 0, previous: 2, occurrences: 1, watermark: 5 },
    { check: 'disk', status: 0, previous: 2, occurrences: 1, watermark: 2 },
  );
  sameDecisions(CRAFTED, 'pager', vectors);
});

test('subdue: quiet hours as legacy, by subdues (6.7+) or a deny filter (earlier 6.x)', () => {
  const times = [
    monday(16, 59),
    monday(17),
    monday(23, 59),
    tuesday(0),
    tuesday(7, 59),
    tuesday(8, 1),
    tuesday(12),
    new Date(2026, 10, 28, 12).getTime() / 1000,
  ];
  // Before 6.7: a deny filter in the pipelines of the check, same decision as legacy's subdue.
  const early = compile(CRAFTED, '6.6');
  assert.equal(find(early.resources, 'CheckConfig', 'quiet')!.spec.subdues, undefined);
  for (const at of times) {
    const handled = v2Handles(early.resources, 'mail', { check: 'quiet', status: 2, at, client: { environment: 'prod' } });
    // The handler's other filters pass a critical production event, so it is handled exactly when not subdued.
    assert.equal(handled, !isSubdued(CRAFTED.checks.quiet, at * 1000), new Date(at * 1000).toString());
  }
  // 6.7+: subdues, the overnight window as its two same-day pieces, Saturday all day.
  const subdues = find(crafted.resources, 'CheckConfig', 'quiet')!.spec.subdues;
  assert.deepEqual(subdues, [
    { begin: '2000-01-01T00:00:00+00:00', end: '2000-01-01T08:00:00+00:00', repeat: ['daily'] },
    { begin: '2000-01-01T17:00:00+00:00', end: '2000-01-02T00:00:00+00:00', repeat: ['daily'] },
    { begin: '2000-01-01T00:00:00+00:00', end: '2000-01-01T23:59:00+00:00', repeat: ['saturdays'] },
  ]);
  assert.equal(find(crafted.resources, 'CheckConfig', 'quiet')!.spec.subdue, null);
});

test('templates render on the entity as legacy tokens did; literal {{ }} survives; secrets stay out', () => {
  const entity = find(crafted.resources, 'Entity', 'web-1')!;
  for (const name of ['disk', 'docker', 'digits']) {
    const command = find(crafted.resources, 'CheckConfig', name)!.spec.command;
    const legacy = substituteTokens(CRAFTED.checks[name as 'disk'].command, CRAFTED.client).value;
    assert.equal(renderTemplate(command, entity), legacy, name);
  }
  // Secrets: nowhere in the output, in labels or annotations, whatever the case of the key.
  const text = JSON.stringify(crafted.resources);
  for (const secret of ['hunter2', 'k-123']) assert.ok(!text.includes(secret), secret);
  assert.equal(entity.metadata.labels!.db_password, undefined);
  assert.equal(JSON.parse(entity.metadata.annotations!['checkbridge.io/legacy-attributes']!).mysql.secret, 'REDACTED');
  assert.match(warningAt('/checks/db/command'), /secret attribute db\.password/);
});

test('handle false, undefined mutators, regular expressions otto cannot run', () => {
  const muted = find(crafted.resources, 'CheckConfig', 'muted')!.spec;
  assert.deepEqual([muted.pipelines, muted.handlers], [[], []]);
  assert.equal(find(crafted.resources, 'Pipeline', 'mail')!.spec.workflows[0].mutator, undefined);
  assert.deepEqual(find(crafted.resources, 'Pipeline', 'graphite')!.spec.workflows[0].mutator, { name: 'tag', type: 'Mutator', api_version: 'core/v2' });
  assert.equal(find(crafted.resources, 'EventFilter', 'lookahead'), undefined);
  assert.match(warningAt('/filters/lookahead/attributes/check/output'), /lookahead/);
  assert.ok(!find(crafted.resources, 'Pipeline', 'mail')!.spec.workflows[0].filters.some((f: Json) => f.name === 'lookahead'));
  const anchored = find(crafted.resources, 'EventFilter', 'anchored')!.spec;
  assert.equal(sensuFilterPasses(anchored, { check: { status: 2, output: 'CRITICAL' } }), true);
  assert.equal(sensuFilterPasses(anchored, { check: { status: 2, output: 'xCRITICAL' } }), false);
});

test("compile holds Sensu Go's rules as the rule book writes them (its own copy had drifted)", () => {
  // A colon is a name character in Sensu Go: a standalone check's source token resolving to one keeps its proxy entity.
  const client = { name: 'web-1', address: '10.0.0.1', subscriptions: [], switch: 'sw:r7' };
  const { resources } = compile({ client, checks: { 'colon-proxy': { command: 'true', standalone: true, interval: 60, source: ':::switch:::' } } });
  assert.equal(find(resources, 'CheckConfig', 'colon-proxy')?.spec.proxy_entity_name, 'sw:r7');
  const doc = (type: string, spec: Json) => ({ type, api_version: 'core/v2' as const, metadata: { name: 'x', namespace: 'default' }, spec });
  const target = parseTarget('6.x')!;
  // What Sensu Go 6.12 refuses: a hook without a timeout above 0, a grpc handler, a handler's blank command.
  assert.equal(sensuProblem(doc('HookConfig', { command: 'true', timeout: 0 }), target), 'timeout: a hook timeout must be greater than 0');
  assert.equal(sensuProblem(doc('Handler', { type: 'grpc', timeout: 0 }), target), 'handler type must be one of pipe, tcp, udp, set');
  assert.equal(sensuProblem(doc('Handler', { type: 'pipe', command: ' ', timeout: 0 }), target), 'missing command');
  // What it accepts: a javascript mutator given as eval, an entity whatever its subscriptions.
  assert.equal(sensuProblem(doc('Mutator', { type: 'javascript', eval: 'return event', timeout: 0 }), target), null);
  assert.equal(sensuProblem(doc('Entity', { entity_class: 'proxy', subscriptions: [''] }), target), null);
  // A name broken reads as at the API.
  assert.equal(
    sensuProblem({ ...doc('Handler', { type: 'set', timeout: 0 }), metadata: { name: 'a b', namespace: 'default' } }, target),
    'name must be 1 to 255 letters, digits, _ . - : (not . or ..)',
  );
});
