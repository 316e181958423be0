// Compiled resources written out: YAML documents, wrapped JSON objects back to back, or a JSON array; one file per kind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { formatResources, writeResources } from '../../src/compile/output.js';
import type { Resource } from '../../src/compile/model.js';

const resources = [
  { type: 'CheckConfig', api_version: 'core/v2', metadata: { name: 'disk', namespace: 'default' }, spec: { command: 'check-disk', interval: 60 } },
  { type: 'Handler', api_version: 'core/v2', metadata: { name: 'mail', namespace: 'default' }, spec: { type: 'pipe', command: 'mail' } },
  { type: 'CheckConfig', api_version: 'core/v2', metadata: { name: 'load', namespace: 'default' }, spec: { command: 'check-load', interval: 30 } },
] as unknown as Resource[];

test('json is one array; wrapped-json is the objects back to back', () => {
  assert.deepEqual(JSON.parse(formatResources(resources, 'json')), resources);
  const wrapped = formatResources(resources, 'wrapped-json');
  assert.equal(wrapped, resources.map((r) => JSON.stringify(r, null, 2) + '\n').join(''));
});

test('yaml is one document per resource, separated by ---, reading back as the resources', () => {
  const text = formatResources(resources, 'yaml');
  assert.equal(text.split('\n---\n').length, 3);
  assert.deepEqual(
    parseAllDocuments(text).map((d) => d.toJS()),
    resources,
  );
});

test('writeResources writes one file per kind, named by the kind, and returns their paths', (t) => {
  const dir = join(mkdtempSync(join(tmpdir(), 'cb-compile-')), 'out', 'nested');
  t.after(() => rmSync(join(dir, '..', '..'), { recursive: true, force: true }));
  const paths = writeResources(dir, resources, 'yaml');
  assert.deepEqual(paths, [join(dir, 'checkconfig.yaml'), join(dir, 'handler.yaml')]);
  assert.deepEqual(
    parseAllDocuments(readFileSync(paths[0]!, 'utf8')).map((d) => (d.toJS() as { metadata: { name: string } }).metadata.name),
    ['disk', 'load'],
  );
  const json = writeResources(dir, resources, 'wrapped-json');
  assert.deepEqual(json, [join(dir, 'checkconfig.json'), join(dir, 'handler.json')]);
  assert.equal(readFileSync(json[1]!, 'utf8'), JSON.stringify(resources[1], null, 2) + '\n');
});
