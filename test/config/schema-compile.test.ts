import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GENERATED_HEADER, validatorsModuleSource } from '../../src/config/schema-compile.js';

const source = validatorsModuleSource();

test('the generated module starts with its header and exports one validator per schema name, in a table', () => {
  assert.ok(source.startsWith(GENERATED_HEADER + '\n'));
  const table = /export const validators = new Map\(\[(.*)\]\);/.exec(source);
  assert.ok(table, 'the validators table');
  const names = [...table[1]!.matchAll(/\["([a-z-]+)", ([a-z_]+)\]/g)].map((m) => [m[1], m[2]]);
  assert.deepEqual(names, [
    ['check', 'check'],
    ['hook', 'hook'],
    ['proxy-requests', 'proxy_requests'],
    ['subdue', 'subdue'],
    ['when', 'when'],
    ['client', 'client'],
    ['handler', 'handler'],
    ['filter', 'filter'],
    ['mutator', 'mutator'],
    ['settings', 'settings'],
    ['extension', 'extension'],
    ['result', 'result'],
    ['asset', 'asset'],
    ['secrets', 'secrets'],
  ]);
  for (const [, exported] of names) assert.match(source, new RegExp(`\\bexport const ${exported} = validate\\d+;`), exported);
});

test('the custom keywords call schema-keywords.js, which the module imports', () => {
  assert.match(source, /import \* as keywords from '\.\/schema-keywords\.js';/);
  for (const keyword of ['validCron', 'validTimes', 'nonEmptyStrings', 'subsetOf', 'firstEvalProblem'])
    assert.match(source, new RegExp(`keywords\\.${keyword}\\b`), keyword);
});

test('the when schema is the subdue one in the filter wording', () => {
  assert.match(source, /filter when days must be valid days of the week or 'all'/);
  assert.match(source, /check subdue days must be valid days of the week or 'all'/);
});

test('the same schemas compile to the same source, so a build is reproducible', () => {
  assert.equal(validatorsModuleSource(), source);
});
