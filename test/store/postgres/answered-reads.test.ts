// Reads answered outside the transaction that needed them: only plain SELECTs qualify, and each answer is taken once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AnsweredReads, plainRead } from '../../../src/store/postgres/answered-reads.js';

test('only a plain SELECT may be answered from outside its transaction', () => {
  const read = (sql: string) => plainRead({ sql, params: [] });
  assert.ok(read('SELECT data FROM v2_resources WHERE kind = $1'));
  assert.ok(read('  select count(*) from v2_entities'));
  for (const sql of [
    'SELECT data FROM clients WHERE name = $1 FOR UPDATE',
    'SELECT k FROM t FOR KEY SHARE',
    'SELECT pg_advisory_xact_lock(1)',
    "SELECT nextval('s')",
    'SELECT (txid_current() % 4294967296)::text',
    'INSERT INTO outbox VALUES ($1) RETURNING seq',
    'WITH x AS (DELETE FROM t RETURNING k) SELECT k FROM x',
    'UPDATE t SET n = 1 RETURNING n',
  ])
    assert.equal(read(sql), null, sql);
});

test('an answer holds for the same statement with the same values while it holds good, and not once it does not', () => {
  const answers = new AnsweredReads();
  const read = { sql: 'SELECT n FROM t WHERE k = $1', params: ['a'] };
  let good = true;
  answers.put(read, [{ n: 1 }], () => good);
  assert.equal(answers.take({ sql: read.sql, params: ['b'] }), undefined, 'other values');
  assert.deepEqual(answers.take({ sql: read.sql, params: ['a'] }), [{ n: 1 }]);
  assert.deepEqual(answers.take(read), [{ n: 1 }], 'again: the same read in the same run');
  good = false;
  assert.equal(answers.take(read), undefined, 'a change heard, or a write of its own: no longer');
  good = true;
  assert.equal(answers.take(read), undefined, 'and dropped');
  answers.put(read, [], () => true);
  answers.clear();
  assert.equal(answers.take(read), undefined, 'cleared');
});
