import { test } from 'node:test';
import assert from 'node:assert/strict';
import { enterpriseList, enterprisePut } from '../../src/cli/enterprise-resources.js';

test('a wrapped store/v1 PostgresConfig is PUT whole to the provider URL under its encoded name', () => {
  const resource = { type: 'PostgresConfig', api_version: 'store/v1', metadata: { name: 'my pg' }, spec: { dsn: 'postgres://x' } };
  assert.deepEqual(enterprisePut(resource), { url: '/api/enterprise/store/v1/provider/my%20pg', body: resource, name: 'my pg' });
});

test('anything else is not an enterprise resource', () => {
  assert.equal(enterprisePut({ type: 'PostgresConfig', api_version: 'core/v2', metadata: { name: 'x' } }), null);
  assert.equal(enterprisePut({ type: 'CheckConfig', api_version: 'store/v1' }), null);
  assert.equal(enterprisePut({ type: 'PostgresConfig' }), null);
});

test('only PostgresConfig, with or without its API version, is dumped from the provider list', () => {
  assert.equal(enterpriseList('store/v1.PostgresConfig'), '/api/enterprise/store/v1/provider');
  assert.equal(enterpriseList('PostgresConfig'), '/api/enterprise/store/v1/provider');
  assert.equal(enterpriseList('checks'), null);
  assert.equal(enterpriseList('store/v1.Other'), null);
});
