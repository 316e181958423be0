// A PostgreSQL statement's failure as the store's callers see it: the server's message and SQLSTATE code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PostgresQueryError } from '../../../src/store/postgres/query-error.js';

test('a query error carries the message and SQLSTATE as sent, and says whether the transaction was lost', () => {
  const error = new PostgresQueryError('duplicate key value violates unique constraint "clients_pkey"', '23505');
  assert.ok(error instanceof Error);
  assert.equal(error.name, 'PostgresQueryError');
  assert.equal(error.message, 'duplicate key value violates unique constraint "clients_pkey"');
  assert.equal(error.code, '23505');
  assert.equal(error.transactionLost, false, 'by default only the statement failed');
  assert.match(String(error), /^PostgresQueryError: duplicate key/);
  const lost = new PostgresQueryError('could not serialize access', '40001', true);
  assert.equal(lost.transactionLost, true);
  assert.equal(new PostgresQueryError('connection ended', null).code, null, 'no code when the server sent none');
});
