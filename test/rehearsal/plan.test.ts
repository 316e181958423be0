// The compiled form of one configuration as the rehearsal reads it, and the digest its history is about.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { configurationDigest, planOf } from '../../src/rehearsal/plan.js';
import { settingsOf } from '../helpers/settings.js';

const config = {
  client: { name: 'web-1', subscriptions: ['linux'], disk: { warning: 80 } },
  checks: {
    disk: {
      command: 'check-disk -w :::disk.warning|90:::',
      subscribers: ['linux'],
      interval: 60,
      handlers: ['mail'],
      subdue: { days: { all: [{ begin: '5PM', end: '8AM' }] } },
    },
  },
  handlers: { mail: { type: 'pipe', command: 'mail' } },
};

test('the plan holds each compiled resource by Kind/name, spec and metadata in one object', () => {
  const plan = planOf(settingsOf(config));
  assert.equal(plan.namespace, 'default');
  const check = plan.resources.get('CheckConfig/disk')!;
  assert.equal(check.command, 'check-disk -w {{ .labels.disk_warning | default "90" }}');
  assert.deepEqual(check.metadata.name, 'disk');
  assert.deepEqual(check.pipelines, [{ name: 'mail', type: 'Pipeline', api_version: 'core/v2' }]);
  assert.ok(plan.resources.has('Handler/mail'));
  assert.ok(plan.resources.has('Entity/web-1'));
  assert.deepEqual([...plan.labelsRead], [['disk_warning', 'disk.warning']]);
});

test("compile's warnings are kept per legacy definition with the attribute they are about", () => {
  const plan = planOf(settingsOf(config));
  const warnings = plan.warnings.get('checks/disk')!;
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0]!.attribute, 'subdue');
  assert.match(warnings[0]!.message, /^subdue → subdues/);
  assert.equal(plan.warnings.has('handlers/mail'), false);
});

test('the digest changes with the definitions and the client, not with other settings', () => {
  const digest = configurationDigest(settingsOf(config));
  assert.match(digest, /^[0-9a-f]{16}$/);
  assert.equal(planOf(settingsOf(config)).digest, digest);
  assert.equal(configurationDigest(settingsOf({ ...config, api: { port: 4568 } })), digest);
  assert.notEqual(configurationDigest(settingsOf({ ...config, checks: { disk: { ...config.checks.disk, interval: 30 } } })), digest);
  assert.notEqual(configurationDigest(settingsOf({ ...config, client: { ...config.client, disk: { warning: 70 } } })), digest);
  assert.notEqual(configurationDigest(settingsOf({ ...config, filters: { prod: { attributes: { client: { env: 'prod' } } } } })), digest);
});
