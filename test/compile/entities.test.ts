// emitEntities: the legacy client as an agent Entity (labels, subscriptions, keepalive and deregistration) and the proxy entities named by checks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emitEntities } from '../../src/compile/entities.js';
import { newContext } from '../../src/compile/context.js';
import { settingsOf } from '../helpers/settings.js';
import { renderTemplate } from './sensu-go-model.js';
import { substituteTokens } from '../../src/tokens/index.js';

const base = { name: 'web-1', address: '10.0.0.1', subscriptions: ['web'] };

function emit(client: Record<string, unknown>, labelPaths: [string, string][] = [], proxies: string[] = []) {
  const warnings: string[] = [];
  const settings = settingsOf({ client: { ...base, ...client } });
  const ctx = newContext(settings, 'ops', (segments, message) => warnings.push(`${segments.join('/')}: ${message}`));
  const entities = emitEntities(settings, ctx, new Map(labelPaths), proxies);
  return { entities, agent: entities[0]!, warnings };
}

test('the labels templates read come from the client, written as Ruby wrote them; absent ones are left out', () => {
  const { agent } = emit({ disk: { warning: 80 }, tags: ['a', 'b'], ratio: 0.5 }, [
    ['disk_warning', 'disk.warning'],
    ['tags', 'tags'],
    ['missing', 'nope.x'],
  ]);
  assert.equal(agent.metadata.labels!.disk_warning, '80');
  assert.equal(agent.metadata.labels!.tags, '["a", "b"]');
  assert.equal(agent.metadata.labels!.ratio, '0.5');
  assert.equal('missing' in agent.metadata.labels!, false);
  assert.equal(agent.metadata.labels!.address, '10.0.0.1');
});

test('scalar custom attributes become labels under label names; nested ones nobody reads are kept in the annotation with a warning', () => {
  const { agent, warnings } = emit({ production: true, 'rack-row': 7, owner: { team: 'ops' } });
  assert.deepEqual(agent.metadata.labels, { address: '10.0.0.1', production: 'true', rack_row: '7' });
  assert.deepEqual(JSON.parse(agent.metadata.annotations!['checkbridge.io/legacy-attributes']!), { owner: { team: 'ops' } });
  assert.deepEqual(warnings, [
    'client/owner: client attribute owner has no v2 entity field: kept in the checkbridge.io/legacy-attributes annotation (secrets redacted)',
  ]);
});

test('a nested attribute a template reads is carried as its label, not annotated', () => {
  const { agent, warnings } = emit({ disk: { warning: 80 } }, [['disk_warning', 'disk.warning']]);
  assert.equal(agent.metadata.annotations, undefined);
  assert.equal(agent.metadata.labels!.disk_warning, '80');
  assert.deepEqual(warnings, []);
});

test('secrets never become labels, read by a template or not; a top-level one is warned about', () => {
  const { agent, warnings } = emit({ password: 'hunter2', db: { password: 'p', host: 'db-1' }, api_key: 'k', redact: ['api_key'] }, [
    ['db_password', 'db.password'],
    ['password', 'password'],
  ]);
  const values = Object.values(agent.metadata.labels!);
  for (const secret of ['hunter2', 'p', 'k']) assert.equal(values.includes(secret), false, secret);
  assert.ok(warnings.some((w) => w.startsWith('client/password: client attribute password is a secret')));
  assert.ok(warnings.some((w) => w.startsWith('client/api_key: client attribute api_key is a secret')));
  assert.deepEqual(agent.spec.redact, ['api_key']);
});

test('a null attribute is no label, so a compiled template falls back to its default as the legacy token did', () => {
  const { agent } = emit({ none: null });
  assert.equal('none' in agent.metadata.labels!, false);
  const legacy = substituteTokens('run :::none|fallback:::', { ...base, none: null }).value;
  assert.equal(renderTemplate('run {{ .labels.none | default "fallback" }}', agent), legacy);
});

test('subscriptions: client:NAME becomes entity:NAME, the entity subscription is always there, sorted without duplicates', () => {
  const { agent } = emit({ subscriptions: ['web', 'client:web-1', 'db', 'web'] });
  assert.deepEqual(agent.spec.subscriptions, ['db', 'entity:web-1', 'web']);
  assert.equal(agent.spec.entity_class, 'agent');
  assert.equal(agent.metadata.namespace, 'ops');
});

test('deregistration and the keepalive handler carry over; keepalive thresholds are warned about', () => {
  const { agent, warnings } = emit({ deregister: true, deregistration: { handler: 'dereg' }, keepalive: { handler: 'ka', thresholds: { warning: 60 } } });
  assert.deepEqual([agent.spec.deregister, agent.spec.deregistration, agent.spec.keepalive_handlers], [true, { handler: 'dereg' }, ['ka']]);
  assert.ok(warnings.some((w) => w.startsWith('client/keepalive: keepalive thresholds are agent settings in v2')));
  const plain = emit({}).agent;
  assert.deepEqual([plain.spec.deregister, plain.spec.deregistration, plain.spec.keepalive_handlers], [false, {}, undefined]);
});

test('proxy entities: one per name, sorted, the client itself excluded', () => {
  const { entities } = emit({}, [], ['sw-2', 'web-1', 'sw-1', 'sw-2']);
  assert.deepEqual(
    entities.map((e) => [e.metadata.name, e.spec.entity_class]),
    [
      ['web-1', 'agent'],
      ['sw-1', 'proxy'],
      ['sw-2', 'proxy'],
    ],
  );
  assert.deepEqual(entities[1]!.spec.subscriptions, ['entity:sw-1']);
});
