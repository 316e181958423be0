// check-attributes: which legacy check attributes are kept for the legacy annotation, the annotations the incident filter reads, and the warnings given.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AUTO_RESOLVE_ANNOTATION, TYPE_ANNOTATION, keepUnmapped } from '../../src/compile/check-attributes.js';
import { newContext } from '../../src/compile/context.js';
import { settingsOf } from '../helpers/settings.js';
import type { Json } from '../../src/json.js';

function keep(check: Json) {
  const warnings: string[] = [];
  const ctx = newContext(settingsOf({}), 'default', (segments, message) => warnings.push(`${segments.join('/')}: ${message}`));
  const result = keepUnmapped(check, (...rest) => ['checks', 'c', ...rest], ctx);
  return { ...result, warnings };
}

test('fields checks.ts maps by hand are neither kept nor warned about', () => {
  const { kept, annotations, warnings } = keep({
    command: 'true',
    subscribers: ['a'],
    interval: 60,
    handlers: ['h'],
    ttl: 90,
    timeout: 5,
    occurrences: 2,
    refresh: 60,
  });
  assert.deepEqual(kept, {});
  assert.deepEqual(annotations, {});
  assert.deepEqual(warnings, []);
});

test('custom attributes are kept as they are and each named in a warning at its own path', () => {
  const { kept, warnings } = keep({ command: 'true', team: 'net', runbook: { url: 'http://x' } });
  assert.deepEqual(kept, { team: 'net', runbook: { url: 'http://x' } });
  assert.equal(warnings.length, 2);
  assert.match(warnings[0]!, /^checks\/c\/team: custom attribute team: .*checkbridge\.io\/legacy-attributes annotation/);
  assert.match(warnings[1]!, /^checks\/c\/runbook: custom attribute runbook/);
});

test('mapped attributes with no v2 equivalent are kept too, each with its own reason', () => {
  const { kept, warnings } = keep({ aggregate: 'switches', ttl_status: 2, force_resolve: true, truncate_output: true, extension: 'x' });
  assert.deepEqual(kept, { aggregate: 'switches', ttl_status: 2, force_resolve: true, truncate_output: true, extension: 'x' });
  assert.deepEqual(warnings, [
    'checks/c/aggregate: aggregate: v2 has no aggregates: kept as an annotation (a pipeline or an aggregate check can consume it)',
    'checks/c/ttl_status: ttl_status: v2 TTL events are always status 1',
    'checks/c/force_resolve: force_resolve: v2 has no force_resolve on results',
    'checks/c/truncate_output: truncate_output: v2 truncates with max_output_size (bytes), not by lines',
    'checks/c/extension: extension: check extensions do not exist in v2',
  ]);
});

test('a metric check is kept as one and annotated so every result is handled; a standard one is not', () => {
  const metric = keep({ command: 'true', type: 'metric' });
  assert.deepEqual(metric.kept, { type: 'metric' });
  assert.deepEqual(metric.annotations, { [TYPE_ANNOTATION]: 'metric' });
  assert.match(metric.warnings.join('\n'), /^checks\/c\/type: type metric: every result is handled/);
  const standard = keep({ command: 'true', type: 'standard' });
  assert.deepEqual([standard.kept, standard.annotations, standard.warnings], [{}, {}, []]);
});

test('auto_resolve false is annotated with a warning; true or absent adds nothing', () => {
  const off = keep({ command: 'true', auto_resolve: false });
  assert.deepEqual(off.annotations, { [AUTO_RESOLVE_ANNOTATION]: 'false' });
  assert.deepEqual(off.kept, {});
  assert.match(off.warnings.join('\n'), /^checks\/c\/auto_resolve: auto_resolve false: resolutions are not handled/);
  assert.deepEqual(keep({ command: 'true', auto_resolve: true }).annotations, {});
});
