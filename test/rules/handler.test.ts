import { test } from 'node:test';
import assert from 'node:assert/strict';
import { handlerProblem } from '../../src/rules/handler.js';

test("a Handler's rules, as Sensu Go 6.12 refuses: its four types, a command that is not blank, a socket with a host and a port", () => {
  assert.equal(handlerProblem({ type: 'pipe', command: 'cat' }), null);
  assert.equal(handlerProblem({ type: 'set', handlers: ['a'] }), null);
  assert.equal(handlerProblem({ type: 'udp', socket: { host: '127.0.0.1', port: 8125 } }), null);
  assert.equal(handlerProblem({ type: 'grpc' }), 'handler type must be one of pipe, tcp, udp, set');
  assert.equal(handlerProblem({}), 'handler type must be one of pipe, tcp, udp, set');
  assert.equal(handlerProblem({ type: 'pipe' }), 'missing command');
  assert.equal(handlerProblem({ type: 'pipe', command: ' \t' }), 'missing command');
  assert.equal(handlerProblem({ type: 'tcp' }), 'tcp and udp handlers need a valid socket');
  assert.equal(handlerProblem({ type: 'tcp', socket: { port: 1 } }), 'socket host undefined');
  assert.equal(handlerProblem({ type: 'tcp', socket: { host: 'h', port: 0 } }), 'socket port undefined');
});
