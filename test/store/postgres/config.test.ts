// The PostgresConfig resource (`store/v1`): accepted as stored, or refused with the first reason it is invalid.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePostgresConfig, PG_TYPE } from '../../../src/store/postgres/config.js';

const problem = (body: unknown, urlName?: string) => {
  const parsed = parsePostgresConfig(body, urlName);
  return 'problem' in parsed ? parsed.problem : undefined;
};

test('a wrapped PostgresConfig is stored with its type, api_version, name, labels and annotations', () => {
  const parsed = parsePostgresConfig({
    type: 'PostgresConfig',
    api_version: 'store/v1',
    metadata: { name: 'my-postgres', labels: { tier: 'db' }, annotations: { note: 'x' }, created_by: 'spoofed', namespace: 'ignored' },
    spec: { dsn: 'postgresql://u@db/sensu', pool_size: 10, strict: true, max_conn_lifetime: '5m', enable_round_robin: false, batch_size: 0 },
  });
  assert.deepEqual(parsed, {
    config: {
      type: PG_TYPE,
      api_version: 'store/v1',
      metadata: { name: 'my-postgres', labels: { tier: 'db' }, annotations: { note: 'x' } },
      spec: { dsn: 'postgresql://u@db/sensu', pool_size: 10, strict: true, max_conn_lifetime: '5m', enable_round_robin: false, batch_size: 0 },
    },
  });
});

test('type, api_version and metadata may be left out: the name then comes from the URI', () => {
  const parsed = parsePostgresConfig({ spec: { dsn: 'host=db' } }, 'from-url');
  assert.ok('config' in parsed);
  assert.equal(parsed.config.metadata.name, 'from-url');
  assert.equal(parsed.config.type, 'PostgresConfig');
  assert.equal(parsed.config.api_version, 'store/v1');
});

test('the body, type, api_version and name are refused with what is wrong', () => {
  assert.equal(problem(null), 'request body must be a JSON object (a wrapped PostgresConfig)');
  assert.equal(problem([]), 'request body must be a JSON object (a wrapped PostgresConfig)');
  assert.equal(problem('dsn'), 'request body must be a JSON object (a wrapped PostgresConfig)');
  assert.equal(problem({ type: 'EtcdReplicator', metadata: { name: 'a' }, spec: { dsn: 'x' } }), 'type must be PostgresConfig');
  assert.equal(problem({ api_version: 'core/v2', metadata: { name: 'a' }, spec: { dsn: 'x' } }), 'api_version must be store/v1');
  const badName = 'metadata.name must be 1 to 255 letters, digits, _ . - :';
  assert.equal(problem({ spec: { dsn: 'x' } }), badName, 'no name anywhere');
  assert.equal(problem({ metadata: { name: 'a b' }, spec: { dsn: 'x' } }), badName);
  assert.equal(problem({ metadata: { name: 'a'.repeat(256) }, spec: { dsn: 'x' } }), badName);
  assert.equal(problem({ metadata: { name: 7 }, spec: { dsn: 'x' } }), badName);
  assert.equal(problem({ metadata: { name: 'a'.repeat(255) }, spec: { dsn: 'x' } }), undefined, '255 characters are enough');
  assert.equal(problem({ metadata: { name: 'one' }, spec: { dsn: 'x' } }, 'two'), 'the name of the resource (one) does not match the name of the URI (two)');
});

test('the spec is refused field by field with what is wrong', () => {
  const spec = (s: unknown) => problem({ metadata: { name: 'pg' }, spec: s });
  assert.equal(spec(undefined), 'spec must be an object');
  assert.equal(spec(['dsn']), 'spec must be an object');
  assert.equal(spec({ dsn: 'x', poolsize: 1 }), 'spec.poolsize is not a PostgresConfig field');
  assert.equal(spec({}), 'spec.dsn is required');
  assert.equal(spec({ dsn: '  ' }), 'spec.dsn is required');
  assert.equal(spec({ dsn: 5 }), 'spec.dsn is required');
  for (const key of ['pool_size', 'max_idle_conns', 'batch_buffer', 'batch_size', 'batch_workers']) {
    for (const value of [-1, 1.5, '3', null]) assert.equal(spec({ dsn: 'x', [key]: value }), `spec.${key} must be a non-negative integer`, `${key}: ${value}`);
  }
  for (const key of ['strict', 'enable_round_robin']) assert.equal(spec({ dsn: 'x', [key]: 'true' }), `spec.${key} must be true or false`);
  assert.equal(spec({ dsn: 'x', max_conn_lifetime: 300 }), 'spec.max_conn_lifetime must be a duration string');
});

test('the stored spec is a copy: changing the body afterwards does not change it', () => {
  const body = { metadata: { name: 'pg' }, spec: { dsn: 'host=a' } };
  const parsed = parsePostgresConfig(body);
  body.spec.dsn = 'host=b';
  assert.ok('config' in parsed);
  assert.equal(parsed.config.spec.dsn, 'host=a');
});
