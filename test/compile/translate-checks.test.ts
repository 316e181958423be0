// translateChecks: the subscription checks of a configuration as a Sensu Go agent would run them, what is left untranslated and why, and the assets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { translateChecks } from '../../src/compile/translate-checks.js';
import { settingsOf } from '../helpers/settings.js';

const translated = translateChecks(
  settingsOf({
    client: { name: 'web-1', address: '10.0.0.1', subscriptions: [], rack: 'r7' },
    assets: { tools: { url: 'https://example.com/tools.tar.gz', sha512: 'a'.repeat(128) } },
    checks: {
      disk: {
        command: 'check-disk :::rack:::',
        subscribers: ['roundrobin:web'],
        interval: 60,
        team: 'ops',
        hooks: { critical: { command: 'ps', timeout: 5 } },
      },
      local: { command: 'true', standalone: true, interval: 10 },
      'bad-cron': { command: 'true', subscribers: ['a'], cron: '0 0 L * *' },
      'zero-hook': { command: 'true', subscribers: ['a'], interval: 10, hooks: { critical: { command: 'ps', timeout: 0 } } },
      flap: { command: 'true', subscribers: ['a'], interval: 10, low_flap_threshold: 70, high_flap_threshold: 60 },
    },
  }),
  'ops',
);

test('a subscription check is translated as compile emits it, metadata and spec in one object, with its own hooks', () => {
  const disk = translated.checks.get('disk')!;
  assert.equal(disk.config.command, 'check-disk {{ .labels.rack }}');
  assert.deepEqual([disk.config.subscriptions, disk.config.round_robin], [['web'], true]);
  assert.deepEqual(disk.config.metadata, {
    name: 'disk',
    namespace: 'ops',
    annotations: { 'checkbridge.io/entity-labels': 'rack', 'checkbridge.io/legacy-attributes': '{"team":"ops"}' },
  });
  assert.deepEqual(disk.hooks, [{ command: 'ps', timeout: 5, stdin: false, runtime_assets: null, metadata: { name: 'disk-critical', namespace: 'ops' } }]);
});

test("compile's warnings about a check are its own, named by attribute", () => {
  assert.deepEqual(
    translated.checks.get('disk')!.warnings.map((w) => w.attribute),
    ['team'],
  );
  assert.match(translated.checks.get('disk')!.warnings[0]!.message, /^custom attribute team/);
});

test('standalone checks are neither translated nor untranslated: the agent does not receive them', () => {
  assert.equal(translated.checks.has('local'), false);
  assert.equal(translated.untranslated.has('local'), false);
});

test('a check compile does not emit is untranslated with its warnings; one Sensu Go would refuse, with the refusal, hooks included', () => {
  assert.match(translated.untranslated.get('bad-cron')!, /^cron "0 0 L \* \*" has no Sensu Go equivalent/);
  assert.equal(translated.untranslated.get('zero-hook'), 'Sensu Go would refuse it: timeout: a hook timeout must be greater than 0');
  assert.match(translated.untranslated.get('flap')!, /^Sensu Go would refuse it: invalid flap thresholds/);
  assert.deepEqual([...translated.checks.keys()], ['disk']);
});

test('the assets are given by name, metadata and spec in one object', () => {
  assert.deepEqual([...translated.assets.keys()], ['tools']);
  assert.deepEqual(translated.assets.get('tools')!.metadata, { name: 'tools', namespace: 'ops' });
  assert.equal(translated.assets.get('tools')!.url, 'https://example.com/tools.tar.gz');
});
