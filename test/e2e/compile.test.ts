import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { loadSettings } from '../../src/config/load-settings.js';
import { compileSettings, formatResources } from '../../src/compile/index.js';
import { parseResources, PATHS } from '../../src/cli/resource-files.js';
import { CORPUS, sharedSkipReason } from '../helpers/paths.js';
import { instanceFor, startInstance, getJson, postJson, adminBasic, ADMIN_PASSWORD } from '../helpers/instance.js';
import { makeTree, removeTree, writeTree } from '../helpers/tree.js';
import { runCli } from '../helpers/cli.js';
import { call } from '../api/v2/v2-helpers.js';
import { sensuProblem, parseTarget } from '../../src/compile/sensu-rules.js';
import { CRAFTED } from '../compile/crafted.js';

const skip = sharedSkipReason();
const env = { SENSU_CLIENT_NAME: 'corpus-client', SENSU_CLIENT_ADDRESS: '127.0.0.1' };

test('every valid real configuration compiles, and the v2 API of a running checkbridge accepts every resource', { skip }, async (t) => {
  const { v2 } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'target', address: '127.0.0.1', subscriptions: [] } } });
  const token = `Bearer ${(await getJson(`${v2}/auth`, { headers: adminBasic })).body.access_token}`;
  let compiled = 0;
  let resources = 0;
  for (const file of readdirSync(CORPUS)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const outcome = loadSettings({ configFile: null, configDirs: [join(CORPUS, file)] }, env);
    if (!outcome.settings) continue;
    const result = compileSettings(outcome.settings, outcome.files, 'corpus');
    compiled++;
    // Nothing Sensu Go would refuse: none left out, and every emitted document passes its rules.
    assert.deepEqual(result.refused, [], file);
    for (const r of result.resources) assert.equal(sensuProblem(r, parseTarget('6.x')!), null, `${file}: ${r.type}/${r.metadata.name}`);
    // Through the same text create -f reads: YAML out, parsed back.
    for (const resource of parseResources(formatResources(result.resources, 'yaml'), file)) {
      resources++;
      const name = resource.metadata.name;
      const url =
        resource.type === 'Namespace'
          ? `${v2}/api/core/v2/namespaces/${name}`
          : `${v2}/api/core/v2/namespaces/corpus/${PATHS[resource.type]}/${encodeURIComponent(name)}`;
      const reply = await call(url, 'PUT', token, resource.type === 'Namespace' ? resource.spec : { ...resource.spec, metadata: resource.metadata });
      // Sensu Go answers an entity write 200 with the entity, every other kind 201.
      assert.equal(reply.status, resource.type === 'Entity' ? 200 : 201, `${file}: ${resource.type} ${name}: ${JSON.stringify(reply.body)}`);
    }
    for (const warning of result.warnings) assert.ok(warning.file && warning.line, `${file}: unlocated warning ${JSON.stringify(warning)}`);
  }
  assert.ok(compiled >= 280, `compiled ${compiled} files`);
  assert.ok(resources > compiled * 2);
});

test("the prior tool's fixture compiles; compile --out, create -f (twice, harmless) and dump round-trip through the CLI", { skip }, async (t) => {
  const root = makeTree({});
  writeTree(root, { 'conf.d/client.json': { client: { name: 'target', address: '127.0.0.1', subscriptions: [] } } });
  const { daemon, v2, api } = await startInstance(root);
  t.after(async () => {
    await daemon.stop('SIGKILL');
    removeTree(root);
  });
  const fixture = join(CORPUS, '..', '..', 'reference', 'translator-golden', 'spec-fixture-input');
  const out = join(root, 'out');
  const compiled = runCli(['compile', '-c', join(fixture, 'config.json'), '-d', join(fixture, 'conf.d'), '--namespace', 'migrated', '--out', out]);
  assert.equal(compiled.code, 0, compiled.stderr);
  assert.match(compiled.stderr, /compiled \d+ resources \(.*CheckConfig 9.*\), \d+ warnings/);
  assert.match(compiled.stderr, /warning: .*config\.json:\d+:\d+ \/handlers\/transport\/type: handler type transport has no v2 equivalent/);
  const checks = parseAllDocuments(readFileSync(join(out, 'checkconfig.yaml'), 'utf8')).map((d) => d.toJSON());
  assert.equal(checks.length, 9);
  assert.equal(checks.find((c) => c.metadata.name === 'tokens').spec.command.includes('{{ .name }}'), true);

  const asAdmin = { env: { CHECKBRIDGE_USERNAME: 'admin', CHECKBRIDGE_PASSWORD: ADMIN_PASSWORD, CHECKBRIDGE_API_KEY: '' } };
  for (let run = 0; run < 2; run++) {
    const created = runCli(['create', '-f', out, '--url', v2], asAdmin);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /^applied (\d+) of \1 resources\n$/);
  }
  const dumped = runCli(['dump', 'checks', '--namespace', 'migrated', '--url', v2], asAdmin);
  assert.equal(dumped.code, 0, dumped.stderr);
  const back = parseAllDocuments(dumped.stdout).map((d) => d.toJSON());
  assert.deepEqual(back.map((c) => c.metadata.name).sort(), checks.map((c) => c.metadata.name).sort());
  assert.equal(back.find((c) => c.metadata.name === 'cron').spec.cron, '* * * * *');

  // A resource the server refuses is named with the server's message; the rest still apply.
  writeTree(root, {
    'bad/bad.yaml':
      'type: CheckConfig\napi_version: core/v2\nmetadata:\n  name: broken\nspec:\n  command: "true"\n  publish: true\n  interval: 10\n  subscriptions: [""]\n---\ntype: Handler\napi_version: core/v2\nmetadata:\n  name: fine\nspec:\n  type: pipe\n  command: "true"\n',
  });
  const bad = runCli(['create', '-f', join(root, 'bad'), '--url', v2], asAdmin);
  assert.equal(bad.code, 1);
  assert.match(
    bad.stderr,
    /error putting resource #1 with name "broken" and namespace "default" \(.*\/checks\/broken\): subscriptions cannot be empty strings/,
  );
  assert.match(bad.stdout, /applied 1 of 2 resources/);
  assert.equal(
    parse(
      JSON.stringify(
        (
          await call(
            `${v2}/api/core/v2/namespaces/default/handlers/fine`,
            'GET',
            `Bearer ${(await getJson(`${v2}/auth`, { headers: adminBasic })).body.access_token}`,
          )
        ).body,
      ),
    ).command,
    'true',
  );

  // Silences stored by a running instance come along with --from-state.
  assert.equal((await postJson(`${api}/silenced`, { subscription: 'web', check: 'disk', reason: 'maintenance', expire: 600 })).status, 201);
  const withState = runCli(['compile', join(root, 'conf.d'), '--from-state', join(root, 'state'), '--format', 'wrapped-json']);
  assert.equal(withState.code, 0, withState.stderr);
  const silenced = parseResources(withState.stdout, 'stdout').find((r) => r.type === 'Silenced')!;
  assert.deepEqual([silenced.metadata.name, silenced.spec.subscription, silenced.spec.check, silenced.spec.reason], ['web:disk', 'web', 'disk', 'maintenance']);
  assert.ok(silenced.spec.expire > 590 && silenced.spec.expire <= 600);

  const invalid = runCli(['compile', join(CORPUS, 'sensu__sensu__spec__conf.d__merger.json')]);
  assert.equal(invalid.code, 1);
  assert.match(invalid.stderr, /configuration is invalid: nothing compiled/);
});

test('the crafted configuration through the CLI: --target, --report (JSON and Markdown), --strict, and create -f accepts it all', async (t) => {
  const root = makeTree({ 'crafted/all.json': CRAFTED, 'conf.d/client.json': { client: { name: 'target', address: '127.0.0.1', subscriptions: [] } } });
  const { daemon, v2 } = await startInstance(root);
  t.after(async () => {
    await daemon.stop('SIGKILL');
    removeTree(root);
  });
  const out = join(root, 'out');
  const early = runCli(['compile', join(root, 'crafted'), '--target', '6.0', '--out', out, '--report', join(root, 'report.json')]);
  assert.equal(early.code, 0, early.stderr);
  assert.match(early.stderr, /warning: .*all\.json:\d+:\d+ \/checks\/last-day\/cron: cron "0 0 L \* \*" has no Sensu Go equivalent/);
  const report = JSON.parse(readFileSync(join(root, 'report.json'), 'utf8'));
  assert.equal(report.target, '6.0');
  assert.deepEqual(report.refused, []);
  const quiet = report.definitions.find((d: { definition: string }) => d.definition === 'checks/quiet');
  assert.deepEqual(quiet.became, ['CheckConfig/quiet', 'EventFilter/checkbridge-subdue-quiet']);
  assert.ok(quiet.warnings.some((w: string) => /subdue → EventFilter checkbridge-subdue-quiet/.test(w)));
  assert.deepEqual(report.definitions.find((d: { definition: string }) => d.definition === 'checks/last-day').became, []);
  assert.ok(report.differences.some((d: string) => /checkbridge-handled/.test(d)));

  const markdown = runCli(['compile', join(root, 'crafted'), '--report', join(root, 'report.md')]);
  assert.equal(markdown.code, 0, markdown.stderr);
  const text = readFileSync(join(root, 'report.md'), 'utf8');
  assert.match(text, /^# Migration report \(Sensu Go 6\.x\)/);
  assert.match(text, /### checks\/quiet\n\nBecame: `CheckConfig\/quiet`\n\n- .*subdue → subdues \(Sensu Go 6\.7 and later\)/);
  assert.match(text, /## What behaves differently/);

  const strict = runCli(['compile', join(root, 'crafted'), '--strict']);
  assert.equal(strict.code, 1);
  assert.match(strict.stderr, /--strict: \d+ warnings/);
  assert.equal(runCli(['compile', join(root, 'conf.d'), '--strict']).code, 0, 'no warnings, no failure');
  const bad = runCli(['compile', join(root, 'crafted'), '--target', '5.21']);
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /--target must be a Sensu Go 6 version/);

  const asAdmin = { env: { CHECKBRIDGE_USERNAME: 'admin', CHECKBRIDGE_PASSWORD: ADMIN_PASSWORD, CHECKBRIDGE_API_KEY: '' } };
  const created = runCli(['create', '-f', out, '--url', v2], asAdmin);
  assert.equal(created.code, 0, created.stderr);
  assert.match(created.stdout, /^applied (\d+) of \1 resources\n$/);
});
