// SQLite's `?` and `@name` placeholders rewritten as PostgreSQL's `$n`, their values bound, or written in as literals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bind, inline, toPositional } from '../../../src/store/postgres/placeholders.js';

test('`?` placeholders are numbered in order and take the arguments as given', () => {
  const positional = toPositional('SELECT * FROM t WHERE a = ? AND b = ?');
  assert.equal(positional.text, 'SELECT * FROM t WHERE a = $1 AND b = $2');
  assert.equal(positional.names, null);
  assert.deepEqual(bind(positional, [1, undefined]), [1, null], 'undefined is bound as NULL');
});

test('`@name` placeholders: one number per name, reused where the name repeats, bound from one object', () => {
  const positional = toPositional('UPDATE t SET v = @value WHERE k = @key OR k2 = @key');
  assert.equal(positional.text, 'UPDATE t SET v = $1 WHERE k = $2 OR k2 = $2');
  assert.deepEqual(positional.names, ['value', 'key']);
  assert.deepEqual(bind(positional, [{ key: 'k', value: 7 }]), [7, 'k']);
  assert.deepEqual(bind(positional, [{ value: undefined }]), [null, null], 'missing and undefined values are NULL');
  assert.deepEqual(bind(toPositional('SELECT @toString'), [{}]), [null], 'inherited properties are not values');
});

test('quoted text, quoted names and comments keep their `?` and `@`; `@>` stays an operator', () => {
  assert.equal(toPositional('SELECT \'?\', "a?b", ? -- why? @no\nFROM t').text, 'SELECT \'?\', "a?b", $1 -- why? @no\nFROM t');
  assert.equal(toPositional('SELECT 1 -- trailing ?').text, 'SELECT 1 -- trailing ?');
  assert.equal(toPositional("SELECT 'unterminated ?").text, "SELECT 'unterminated ?");
  assert.equal(toPositional('WHERE selectors @> ?::jsonb').text, 'WHERE selectors @> $1::jsonb');
});

test('inline writes each value as its literal where its placeholder stood', () => {
  const positional = toPositional("INSERT INTO t VALUES (?, ?, ?, ?, ?, '?')");
  assert.equal(inline(positional, [null, 42, -1.5, 10n, "it's"]), "INSERT INTO t VALUES (NULL, 42, (-1.5), 10, 'it''s', '?')");
  const named = toPositional('SELECT @a, @b, @a');
  assert.equal(inline(named, bind(named, [{ a: 'x', b: undefined }])), "SELECT 'x', NULL, 'x'");
});

test('inline writes an array as one array literal, its strings double-quoted and escaped', () => {
  const positional = toPositional('SELECT unnest(?::text[])');
  assert.equal(
    inline(positional, [['a', 'say "hi"', 'back\\slash', null, "o'k"]]),
    `SELECT unnest('{"a","say \\"hi\\"","back\\\\slash",NULL,"o''k"}'::text[])`,
  );
  assert.equal(inline(positional, [[1, 2.5, 3n]]), "SELECT unnest('{1,2.5,3}'::text[])");
});

test('inline gives null for a value with no plain literal', () => {
  const positional = toPositional('SELECT ?');
  for (const value of [Number.NaN, Infinity, 'nul\0byte', { a: 1 }, Buffer.from('x'), true, ['nul\0byte'], [Number.NaN], [{}]]) {
    assert.equal(inline(positional, [value]), null, String(value));
  }
});
