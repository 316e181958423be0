import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KIND_RULES, kindProblem } from '../../src/rules/kinds.js';

test('each core/v2 kind with rules of its own has one function; a kind without any passes', () => {
  assert.deepEqual(Object.keys(KIND_RULES).sort(), ['CheckConfig', 'Entity', 'EventFilter', 'Handler', 'HookConfig', 'Mutator', 'Pipeline', 'Silenced']);
  assert.equal(kindProblem('Handler', { type: 'grpc' }), 'handler type must be one of pipe, tcp, udp, set');
  assert.equal(kindProblem('Namespace', {}), null);
});
