// Legacy `:::token|default:::` substitutions as the v2 agent's Go templates over its entity's labels.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labelOf, templateDeep } from '../../src/compile/tokens.js';

test('a client attribute path becomes a label name, anything but word characters as underscores', () => {
  assert.equal(labelOf('disk.warning'), 'disk_warning');
  assert.equal(labelOf('a-b.c d'), 'a_b_c_d');
});

test('tokens become label reads, with their defaults; the name reads the entity name', () => {
  const read = new Map<string, string>();
  assert.equal(
    templateDeep('check-disk -w :::disk.warning|80::: -c :::disk.critical:::', read),
    'check-disk -w {{ .labels.disk_warning | default "80" }} -c {{ .labels.disk_critical }}',
  );
  assert.equal(templateDeep('host :::name:::', read), 'host {{ .name }}');
  assert.deepEqual(
    [...read],
    [
      ['disk_warning', 'disk.warning'],
      ['disk_critical', 'disk.critical'],
    ],
  );
});

test('a label that cannot be a template field is read with index; a default is quoted as a Go string', () => {
  const read = new Map<string, string>();
  assert.equal(templateDeep(':::1st.port|"80":::', read), '{{ index .labels "1st_port" | default "\\"80\\"" }}');
  assert.equal(templateDeep(':::x|:::', read), '{{ .labels.x | default "" }}', 'an empty default');
});

test('literal braces are escaped so the agent prints them as written', () => {
  assert.equal(templateDeep('echo {{ not a template }} :::a:::', new Map()), 'echo {{"{{"}} not a template }} {{ .labels.a }}');
});

test('every string inside objects and arrays is templated; other values are left as they are', () => {
  const read = new Map<string, string>();
  const definition = { command: 'x :::a:::', env_vars: ['T=:::b|1:::'], interval: 60, standalone: true, extra: null, nested: { text: ':::c:::' } };
  assert.deepEqual(templateDeep(definition, read), {
    command: 'x {{ .labels.a }}',
    env_vars: ['T={{ .labels.b | default "1" }}'],
    interval: 60,
    standalone: true,
    extra: null,
    nested: { text: '{{ .labels.c }}' },
  });
  assert.deepEqual([...read.keys()], ['a', 'b', 'c']);
  assert.equal(templateDeep('no tokens ::: here', read), 'no tokens ::: here');
});
