// A definition's `secrets`: references to Secret resources by environment variable name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { secretRefsOf, secretRefsProblem, v2SecretsOf } from '../../src/config/secret-refs.js';

test('well-formed references pass; an absent attribute is fine', () => {
  for (const value of [
    undefined,
    null,
    [],
    [
      { name: 'DB_PASSWORD', secret: 'db' },
      { name: '_token2', secret: 'api' },
    ],
  ])
    assert.equal(secretRefsProblem(value), null);
});

test('the first problem is named: the shape, the name, the secret, a name given twice', () => {
  const shape = 'secrets must be an array of {"name", "secret"} objects';
  const badName = 'each secret needs a name that is an environment variable name (letters, digits and _, not starting with a digit)';
  const refused: [unknown, string][] = [
    [{ name: 'A', secret: 'a' }, shape],
    ['A=a', shape],
    [[['A', 'a']], shape],
    [[null], shape],
    [[{ secret: 'a' }], badName],
    [[{ name: '', secret: 'a' }], badName],
    [[{ name: '2FA', secret: 'a' }], badName],
    [[{ name: 'MY-VAR', secret: 'a' }], badName],
    [[{ name: 'A' }], 'secret A needs the name of a Secret resource in "secret"'],
    [[{ name: 'A', secret: '' }], 'secret A needs the name of a Secret resource in "secret"'],
    [
      [
        { name: 'A', secret: 'a' },
        { name: 'A', secret: 'b' },
      ],
      'secret name A is given twice',
    ],
  ];
  for (const [value, message] of refused) assert.equal(secretRefsProblem(value), message, JSON.stringify(value));
});

test('the references of a definition: only well-formed entries, only name and secret; null for v2 when none', () => {
  const definition = { command: 'x', secrets: [{ name: 'A', secret: 'a', extra: 1 }, { name: 'B' }, 'C', { name: 'D', secret: 'd' }] };
  assert.deepEqual(secretRefsOf(definition), [
    { name: 'A', secret: 'a' },
    { name: 'D', secret: 'd' },
  ]);
  assert.deepEqual(v2SecretsOf(definition), secretRefsOf(definition));
  for (const none of [{}, { secrets: 'A' }, null, 'check', []]) {
    assert.deepEqual(secretRefsOf(none), []);
    assert.equal(v2SecretsOf(none), null);
  }
});
