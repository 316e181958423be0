// Writes decoded as Sensu Go's API decodes them: the refusal names the Go type as Go does (the real backend's words,
// held to it by test/interop/sensu-go-types.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeAs, type TypeName } from '../../src/v2/index.js';

test('a list of pointers is named as Go names it, a list of values too; check hooks name HookList when not a list', () => {
  const cases: [TypeName, unknown, string][] = [
    ['Pipeline', { workflows: 'x' }, 'Pipeline.workflows of type []*v2.PipelineWorkflow'],
    ['CheckConfig', { output_metric_tags: {} }, 'CheckConfig.output_metric_tags of type []*v2.MetricTag'],
    ['Role', { rules: 'x' }, 'Role.rules of type []v2.Rule'],
    ['CheckConfig', { check_hooks: 'x' }, 'CheckConfig.check_hooks of type []v2.HookList'],
    ['CheckConfig', { check_hooks: [{ critical: 'h' }] }, 'CheckConfig.check_hooks of type []string'],
  ];
  for (const [kind, body, named] of cases) {
    const { problem } = decodeAs(kind, body);
    assert.ok(problem?.endsWith(`Go struct field ${named}`), `${kind} ${JSON.stringify(body)}: ${problem}`);
  }
});
