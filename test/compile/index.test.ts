// compileSettings: a legacy configuration compiled to Sensu Go resources, with its report.
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { buildSettings } from '../../src/config/build.js';
import { compileSettings, type Resource } from '../../src/compile/index.js';

function compile(config: Record<string, unknown>) {
  const text = JSON.stringify(config, null, 2);
  const files = [{ path: 'conf.d/test.json', text, data: config, diagnostics: [] }];
  const outcome = buildSettings(files, {});
  assert.ok(outcome.settings, JSON.stringify(outcome.diagnostics));
  return compileSettings(outcome.settings, files, 'prod');
}
const find = (resources: Resource[], type: string, name: string) => resources.find((r) => r.type === type && r.metadata.name === name)!;
const client = { name: 'web-1', address: '10.0.0.1', subscriptions: ['web'], disk: { warning: 80 }, environment: 'production' };

test('tokens become templates over entity labels; the entity carries them; the report names them', () => {
  const { resources, labelReport } = compile({
    client,
    checks: {
      disk: { command: 'check-disk -w :::disk.warning|85::: -c :::disk.critical|95::: -h :::name::: -e :::environment:::', subscribers: ['web'], interval: 60 },
    },
  });
  const check = find(resources, 'CheckConfig', 'disk');
  assert.equal(
    check.spec.command,
    'check-disk -w {{ .labels.disk_warning | default "85" }} -c {{ .labels.disk_critical | default "95" }} -h {{ .name }} -e {{ .labels.environment }}',
  );
  assert.deepEqual(labelReport.disk, ['disk_critical', 'disk_warning', 'environment']);
  const entity = find(resources, 'Entity', 'web-1');
  assert.deepEqual(entity.metadata.labels, { disk_warning: '80', environment: 'production', address: '10.0.0.1' });
  assert.deepEqual(entity.spec.subscriptions, ['entity:web-1', 'web']);
  assert.equal(entity.metadata.namespace, 'prod');
});

test('checks: subdue, hooks, standalone, round robin, source, proxy requests, fatigue, and what has no equivalent', () => {
  const subdue = { days: { all: [{ begin: '5:00 PM', end: '8:00 AM' }] } };
  const { resources, warnings } = compile({
    client,
    checks: {
      hooked: {
        command: 'true',
        subscribers: ['web'],
        interval: 30,
        subdue,
        hooks: { critical: { command: 'ps aux', timeout: 5 }, 'non-zero': { command: 'df' } },
      },
      local: { command: 'uptime', standalone: true, interval: 10 },
      rr: { command: 'true', subscribers: ['roundrobin:lb'], interval: 10, occurrences: 3, refresh: 600 },
      proxied: {
        command: 'ping :::address:::',
        subscribers: ['web'],
        interval: 10,
        source: 'switch-1',
        ttl: 30,
        timeout: 5,
        aggregate: 'switches',
        team: 'net',
      },
      fleet: {
        command: 'true',
        subscribers: ['web'],
        interval: 10,
        proxy_requests: { client_attributes: { keepalives: false, subscriptions: 'eval: value.include?("http")' }, splay: true, splay_coverage: 50 },
      },
    },
  });
  const hooked = find(resources, 'CheckConfig', 'hooked');
  assert.equal(hooked.spec.subdue, null, 'sensuctl drops subdue: it becomes subdues');
  assert.equal(hooked.spec.subdues.length, 2);
  assert.deepEqual(hooked.spec.check_hooks, [{ critical: ['hooked-critical'] }, { 'non-zero': ['hooked-non-zero'] }]);
  assert.deepEqual(find(resources, 'HookConfig', 'hooked-critical').spec, { command: 'ps aux', timeout: 5, stdin: false, runtime_assets: null });
  assert.equal(find(resources, 'HookConfig', 'hooked-non-zero').spec.timeout, 60);
  assert.deepEqual(find(resources, 'CheckConfig', 'local').spec.subscriptions, ['entity:web-1']);
  const rr = find(resources, 'CheckConfig', 'rr');
  assert.deepEqual([rr.spec.subscriptions, rr.spec.round_robin], [['lb'], true]);
  assert.deepEqual([rr.metadata.annotations?.['fatigue_check/occurrences'], rr.metadata.annotations?.['fatigue_check/interval']], ['3', '600']);
  const proxied = find(resources, 'CheckConfig', 'proxied');
  assert.deepEqual([proxied.spec.proxy_entity_name, proxied.spec.ttl, proxied.spec.timeout], ['switch-1', 30, 5]);
  assert.equal(find(resources, 'Entity', 'switch-1').spec.entity_class, 'proxy');
  assert.deepEqual(JSON.parse(proxied.metadata.annotations!['checkbridge.io/legacy-attributes']!), { aggregate: 'switches', team: 'net' });
  const fleet = find(resources, 'CheckConfig', 'fleet');
  assert.deepEqual(fleet.spec.proxy_requests, {
    entity_attributes: ['entity.labels.keepalives == "false"', '(entity.subscriptions.indexOf("http") >= 0)'],
    splay: true,
    splay_coverage: 50,
  });
  const messages = warnings.map((w) => `${w.file}:${w.line} ${w.path}: ${w.message}`);
  assert.ok(
    messages.some((m) => /^conf\.d\/test\.json:\d+ \/checks\/proxied\/aggregate: aggregate: v2 has no aggregates/.test(m)),
    messages.join('\n'),
  );
  assert.ok(messages.some((m) => m.includes('/checks/proxied/team: custom attribute team')));
});

test('filters become JavaScript expressions; handlers become pipelines that keep the legacy filtering', () => {
  const { resources, warnings } = compile({
    client,
    filters: {
      production: { attributes: { client: { environment: 'production' }, check: { status: 2 } } },
      not_resolves: { attributes: { action: 'resolve' }, negate: true, when: { days: { monday: [{ begin: '9:00 AM', end: '5:00 PM' }] } } },
      recurrences: { attributes: { occurrences: 'eval: value == 1 || value % 30 == 0', check: { history: 'eval: value[-1] == value[-2]' } } },
      custom: { attributes: { check: { team: 'ops' } } },
    },
    mutators: { tag: { command: 'tag-event', timeout: 3 } },
    handlers: {
      mail: { type: 'pipe', command: 'mail -s alert ops', filters: ['production', 'occurrences'], severities: ['critical'], mutator: 'tag', timeout: 10 },
      loud: { type: 'tcp', socket: { host: 'graphite', port: 2003 }, handle_silenced: true, handle_flapping: true },
      all: { type: 'set', handlers: ['mail', 'loud'] },
      broker: { type: 'transport', pipe: { type: 'topic', name: 'events' } },
    },
    checks: { web: { command: 'true', subscribers: ['web'], interval: 10, handler: 'all' } },
  });
  assert.deepEqual(find(resources, 'EventFilter', 'production').spec, {
    action: 'allow',
    expressions: ['event.entity.labels.environment == "production"', 'event.check.status == 2'],
    runtime_assets: null,
  });
  const negated = find(resources, 'EventFilter', 'not_resolves').spec;
  assert.equal(negated.action, 'deny');
  assert.equal(negated.when, undefined, 'when becomes part of the expression');
  assert.match(negated.expressions[0], /^\(\(function \(t\) \{.*\}\)\(event\.timestamp\)\) && \(event\.is_resolution\)$/);
  assert.deepEqual(find(resources, 'EventFilter', 'recurrences').spec.expressions, [
    '((event.check.occurrences == 1) || ((event.check.occurrences % 30) == 0))',
    '(event.check.history.map(function(h) { return String(h.status); }).slice(-1)[0] == event.check.history.map(function(h) { return String(h.status); }).slice(-2)[0])',
  ]);
  assert.deepEqual(
    find(resources, 'EventFilter', 'custom').spec.expressions,
    ['(JSON.parse((event.check.annotations || {})["checkbridge.io/legacy-attributes"] || "{}"))["team"] == "ops"'],
    'custom check attributes are read from the legacy annotation',
  );
  const pipeline = find(resources, 'Pipeline', 'mail').spec.workflows[0];
  assert.deepEqual(
    pipeline.filters.map((f: { name: string }) => f.name),
    ['checkbridge-handled', 'production', 'occurrences', 'mail-severities', 'not_silenced', 'not-flapping'],
  );
  assert.deepEqual(pipeline.mutator, { name: 'tag', type: 'Mutator', api_version: 'core/v2' });
  assert.deepEqual(
    find(resources, 'Pipeline', 'loud').spec.workflows[0].filters.map((f: { name: string }) => f.name),
    ['checkbridge-handled'],
  );
  assert.deepEqual(find(resources, 'Handler', 'loud').spec.socket, { host: 'graphite', port: 2003 });
  assert.equal(find(resources, 'Handler', 'broker'), undefined);
  assert.ok(warnings.some((w) => w.path === '/handlers/broker/type'));
  const web = find(resources, 'CheckConfig', 'web');
  assert.deepEqual(
    web.spec.pipelines.map((p: { name: string }) => p.name),
    ['loud', 'mail'],
    "the set expands to its members' pipelines",
  );
  assert.deepEqual(web.spec.handlers, []);
  assert.deepEqual(find(resources, 'Mutator', 'tag').spec.command, 'tag-event');
});

test('compiling needs no runtime: the compile modules never import the server', () => {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/^import [^'"]*['"](\.[^'"]+)['"]/gm)) visit(resolve(dirname(file), spec!));
  };
  visit(fileURLToPath(new URL('../../src/compile/index.js', import.meta.url)));
  const server = [...seen].filter((f) => f.includes(`${sep}server${sep}`));
  assert.deepEqual(server, []);
  assert.ok(seen.size > 10);
});

test('output is deterministic: the same input gives the same resources in the same order', () => {
  const config = { client, checks: { b: { command: 'true', subscribers: ['x'], interval: 1 }, a: { command: 'true', subscribers: ['x'], interval: 1 } } };
  const first = compile(config).resources;
  assert.deepEqual(compile(config).resources, first);
  assert.deepEqual(
    first.map((r) => `${r.type}/${r.metadata.name}`),
    ['Namespace/prod', 'Entity/web-1', 'CheckConfig/a', 'CheckConfig/b'],
  );
});

test('assets become Asset resources and runtime_assets carry over; output_metric_tags in either form become the v2 list', () => {
  const sha = 'ab'.repeat(64);
  const { resources, warnings, refused } = compile({
    client,
    assets: {
      tools: { url: 'https://example.com/tools.tar.gz', sha512: sha, filters: ["entity.system.os == 'linux'"] },
      multi: {
        headers: { Authorization: 'Bearer x' },
        builds: [{ url: 'https://example.com/a.tar.gz', sha512: sha, filters: ["entity.system.arch == 'amd64'"] }],
      },
    },
    checks: {
      disk: {
        command: 'check-disk',
        interval: 60,
        subscribers: ['web'],
        runtime_assets: ['tools'],
        output_metric_format: 'graphite_plaintext',
        output_metric_tags: { dc: 'eu', rack: 4 },
      },
      load: {
        command: 'check-load',
        interval: 60,
        subscribers: ['web'],
        output_metric_tags: [{ name: 'tier', value: 'web' }],
        hooks: { critical: { command: 'uptime', runtime_assets: ['multi'] } },
      },
    },
    handlers: { store: { type: 'pipe', command: 'cat', runtime_assets: ['tools', 'multi'] } },
    mutators: { shape: { command: 'cat', runtime_assets: ['tools'] } },
  });
  assert.deepEqual(refused, []);
  assert.deepEqual(find(resources, 'Asset', 'tools').spec, {
    url: 'https://example.com/tools.tar.gz',
    sha512: sha,
    filters: ["entity.system.os == 'linux'"],
    headers: null,
  });
  assert.deepEqual(find(resources, 'Asset', 'multi').spec.builds, [
    { url: 'https://example.com/a.tar.gz', sha512: sha, filters: ["entity.system.arch == 'amd64'"], headers: { Authorization: 'Bearer x' } },
  ]);
  assert.deepEqual(find(resources, 'CheckConfig', 'disk').spec.runtime_assets, ['tools']);
  assert.deepEqual(find(resources, 'CheckConfig', 'disk').spec.output_metric_tags, [
    { name: 'dc', value: 'eu' },
    { name: 'rack', value: '4' },
  ]);
  assert.deepEqual(find(resources, 'CheckConfig', 'load').spec.output_metric_tags, [{ name: 'tier', value: 'web' }]);
  assert.deepEqual(find(resources, 'HookConfig', 'load-critical')?.spec.runtime_assets ?? resources.find((r) => r.type === 'HookConfig')!.spec.runtime_assets, [
    'multi',
  ]);
  assert.deepEqual(find(resources, 'Handler', 'store').spec.runtime_assets, ['tools', 'multi']);
  assert.deepEqual(find(resources, 'Mutator', 'shape').spec.runtime_assets, ['tools']);
  assert.ok(!warnings.some((w) => /runtime_assets|output_metric_tags/.test(w.message)), JSON.stringify(warnings.map((w) => w.message)));
});
