// The generated description of the Sensu Go types (src/v2/generated/) is what the one table says, and says it rightly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../helpers/paths.js';
import { RBAC_FIELDS, RESOURCE_FIELDS, WIRE_TYPES } from '../../src/v2/index.js';

test('src/v2/generated/ is what scripts/build-types.mjs writes from schemas/sensu-go-types.txt', () => {
  const check = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-types.mjs'), '--check'], { encoding: 'utf8' });
  assert.equal(check.status, 0, check.stderr);
});

test('the table keeps the fields Go writes in JSON and drops the ones it skips (json:"-")', () => {
  assert.deepEqual(Object.keys(WIRE_TYPES.CheckHistory!), ['status', 'executed']);
  assert.equal('scheduler' in WIRE_TYPES.CheckConfig!, false);
  assert.equal(WIRE_TYPES.Check!.scheduler, 'string');
  // Hook embeds HookConfig: its fields are read among Hook's own.
  assert.deepEqual(Object.keys(WIRE_TYPES.Hook!).slice(0, 6), ['metadata', 'command', 'timeout', 'stdin', 'runtime_assets', 'duration']);
});

// The kind each list's field selector reads, by its URL segment.
const SELECTED: Readonly<Record<string, string>> = {
  checks: 'CheckConfig',
  entities: 'Entity',
  handlers: 'Handler',
  hooks: 'HookConfig',
  filters: 'EventFilter',
  mutators: 'Mutator',
  silenced: 'Silenced',
  pipelines: 'Pipeline',
  assets: 'Asset',
  roles: 'Role',
  rolebindings: 'RoleBinding',
  clusterroles: 'ClusterRole',
  clusterrolebindings: 'ClusterRoleBinding',
};

test("every field a list's fieldSelector reads is a field of its kind in the table", () => {
  const typeAt = (kind: string, path: string[]): boolean => {
    const [head, ...rest] = path;
    const type = WIRE_TYPES[kind]?.[head!];
    if (type === undefined) return false;
    return rest.length === 0 || (typeof type === 'object' && 'message' in type && typeAt(type.message, rest));
  };
  for (const [segment, fields] of [...RESOURCE_FIELDS, ...RBAC_FIELDS]) {
    const kind = SELECTED[segment]!;
    assert.ok(kind, `a kind for ${segment}`);
    for (const name of fields.names) {
      const path = name.slice(fields.prefix.length + 1).split('.');
      const field = ['name', 'namespace'].includes(path[0]!) ? ['metadata', ...path] : path;
      assert.ok(typeAt(kind, field), `${name} is a field of ${kind}`);
    }
  }
});
