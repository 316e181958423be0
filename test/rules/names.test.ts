import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/paths.js';
import {
  LEGACY_NAME,
  SENSU_NAME,
  asLegacyName,
  asSensuName,
  assetNameProblem,
  clientNameProblem,
  isLegacyName,
  isSensuName,
  legacyNameProblem,
  sensuNameProblem,
  silencedNameProblem,
  unanchored,
} from '../../src/rules/names.js';

const RULE = 'must be 1 to 255 letters, digits, _ . - : (not . or ..)';

test("Sensu Go's name rule: its NameRegex (colons included), at most 255 characters, never . or ..", () => {
  for (const good of ['disk', 'a.b-c_1', 'entity:web-1', 'x'.repeat(255), '...']) assert.equal(sensuNameProblem(good), null, good);
  for (const bad of ['a b', 'a/b', 'café', 'x'.repeat(256), '.', '..', 'a\nb', 7]) assert.equal(sensuNameProblem(bad), `name ${RULE}`, String(bad));
  for (const empty of ['', undefined, null]) assert.equal(sensuNameProblem(empty, 'entity name'), 'entity name must not be empty');
  assert.equal(sensuNameProblem('a b', 'workflows[0].name'), `workflows[0].name ${RULE}`);
  assert.equal(isSensuName('a:b'), true);
  assert.equal(isSensuName('a*b'), false);
});

test('a silenced name may hold *; nothing else changes', () => {
  assert.equal(silencedNameProblem('*:disk'), null);
  assert.equal(silencedNameProblem('linux:*'), null);
  assert.equal(silencedNameProblem('a b:*'), 'name must be 1 to 255 letters, digits, _ . - : * (not . or ..)');
  assert.equal(silencedNameProblem(''), 'name must not be empty');
});

test("legacy's name rule, in legacy's words: no colon; a string; at most 255", () => {
  assert.equal(legacyNameProblem('disk-1.a_b', 'check name'), null);
  assert.equal(legacyNameProblem('a:b', 'check name'), 'check name cannot contain spaces or special characters');
  assert.equal(legacyNameProblem('', 'check name'), 'check name cannot contain spaces or special characters');
  assert.equal(legacyNameProblem(5, 'check name'), 'check name must be a string');
  assert.equal(legacyNameProblem('x'.repeat(256), 'check name'), 'check name must be at most 255 characters');
  assert.equal(clientNameProblem('web 1'), 'client name cannot contain spaces or special characters');
  assert.equal(isLegacyName('x'.repeat(255)), true);
  assert.equal(isLegacyName('a:b'), false);
});

test("the legacy schemas' name patterns are the rule book's legacy rule", () => {
  const schema = (file: string) => readFileSync(join(ROOT, 'schemas', file), 'utf8');
  // Written as JSON Schema (ajv compiles it at build time): held equal here so that the two cannot drift.
  assert.ok(schema('check.json').includes(JSON.stringify(LEGACY_NAME.source)), 'schemas/check.json');
  assert.ok(schema('client.json').includes(JSON.stringify(LEGACY_NAME.source)), 'schemas/client.json');
});

test('a text made a name, and a rule put inside a path pattern', () => {
  assert.equal(asSensuName('linux:*'), 'linux:_');
  assert.equal(asSensuName('a b/c'), 'a_b_c');
  assert.equal(asLegacyName('vault:prod'), 'vault_prod');
  assert.equal(unanchored(LEGACY_NAME), '[\\w.-]+');
  assert.ok(new RegExp(`^/x/${unanchored(SENSU_NAME)}$`).test('/x/a:b'));
});

test("an asset's name: Sensu Go's with /, no empty, . or .. part", () => {
  for (const good of ['sensu/check-cpu-usage', 'a:b', 'x'.repeat(255)]) assert.equal(assetNameProblem(good), null, good);
  for (const bad of ['a b', 'x'.repeat(256), 7]) assert.equal(assetNameProblem(bad), 'asset name must be 1 to 255 letters, digits, _ . - : /', String(bad));
  for (const bad of ['a/../b', '/a', 'a//b', '..'])
    assert.equal(assetNameProblem(bad), `asset name ${JSON.stringify(bad)}: no part between slashes may be empty, . or ..`);
});
