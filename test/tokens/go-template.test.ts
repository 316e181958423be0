// Sensu Go's token substitution subset (token/token.go): what a proxied check's strings become for one entity.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderGoTemplate, substituteGoTemplates } from '../../src/tokens/index.js';

// A synthesized proxy entity: metadata fields lifted to the top, as dynamic.Synthesize does.
const entity = {
  name: 'db-1',
  namespace: 'default',
  entity_class: 'proxy',
  labels: { region: 'eu', 'rack-id': 'r7', empty: '' },
  annotations: {},
  subscriptions: ['a', 'b'],
  last_seen: 1700000000,
  deregister: false,
};

const rendered: [string, string][] = [
  ['no template', 'no template'],
  ['{{ .name }}', 'db-1'],
  ['{{.name}} in {{ .labels.region }}', 'db-1 in eu'],
  ['{{ .labels.zone | default "z1" }}', 'z1'],
  ['{{ default "z1" .labels.zone }}', 'z1'],
  ['{{ .labels.region | default "z1" }}', 'eu'],
  ['{{ .labels.empty | default "z1" }}', ''],
  ['{{ index .labels "rack-id" }}', 'r7'],
  ['{{ .last_seen }} {{ .deregister }}', '1700000000 false'],
  ['{{ .subscriptions }}', '[a b]'],
  ['{{ .labels }}', 'map[empty: rack-id:r7 region:eu]'],
  ['{{ "}}" }}', '}}'],
  ['a  {{- .name -}}  b', 'adb-1b'],
  ['{{/* a comment */}}x', 'x'],
  ['{{ assetPath "sensu-plugins-disk" }}', 'SENSU_PLUGINS_DISK_PATH'],
  // Only the entity's own fields: nothing of Object.prototype.
  ['{{ .labels.constructor | default "none" }}', 'none'],
  ['{{ index .labels "toString" | default "none" }}', 'none'],
  ['{{ .__proto__ | default "none" }}', 'none'],
];

test('Go templates render against the entity as Sensu Go renders them', () => {
  for (const [text, want] of rendered) assert.deepEqual(renderGoTemplate(text, entity), { ok: true, value: want }, text);
});

test('a missing value, an unsupported action or an unclosed one is an error naming it', () => {
  const failed = (text: string) => {
    const outcome = renderGoTemplate(text, entity);
    assert.equal(outcome.ok, false, text);
    return outcome.ok ? '' : outcome.error;
  };
  assert.match(failed('{{ .labels.zone }}'), /unmatched token: \{\{ \.labels\.zone \}\} has no value/);
  assert.match(failed('{{ .missing.deeper }}'), /nil pointer evaluating interface \{\}\.deeper at <\.missing\.deeper>/);
  assert.match(failed('{{ .name.x }}'), /can't evaluate field x/);
  assert.match(failed('{{ if .name }}x{{ end }}'), /"if" is not supported/);
  assert.match(failed('{{ $x := 1 }}'), /"\$" is not supported/);
  assert.match(failed('{{ .name '), /unclosed action/);
  assert.match(failed('{{ "\\x41" }}'), /unsupported literal "\\x41"/);
  assert.match(failed('{{ .name | }}'), /missing value for command/);
  assert.match(failed('{{ }}'), /missing value for command/);
  assert.match(failed('{{ default }}'), /default takes 1 or 2 arguments, not 0/);
  assert.match(failed('{{ .name "x" }}'), /can't give argument to non-function \.name/);
});

test('every string of a check is rendered, the failing field named; keys and other values stay', () => {
  const check = {
    command: 'ping {{ .name }}',
    metadata: { name: 'ping', labels: { at: '{{ .labels.region }}' } },
    subscriptions: ['{{ .labels.region }}'],
    interval: 10,
    publish: true,
    ['__proto__']: 'kept',
  };
  const outcome = substituteGoTemplates(JSON.parse(JSON.stringify(check)), entity);
  assert.ok(outcome.ok);
  assert.equal(outcome.value.command, 'ping db-1');
  assert.deepEqual(outcome.value.metadata, { name: 'ping', labels: { at: 'eu' } });
  assert.deepEqual(outcome.value.subscriptions, ['eu']);
  assert.equal(outcome.value.interval, 10);
  assert.equal(Object.getOwnPropertyDescriptor(outcome.value, '__proto__')?.value, 'kept');
  const bad = substituteGoTemplates({ command: 'x', env_vars: ['A={{ .labels.nope }}'] }, entity);
  assert.deepEqual(bad, { ok: false, error: 'env_vars: unmatched token: {{ .labels.nope }} has no value' });
});

test('names an object inherits are no functions: a template naming one fails, it never throws', () => {
  for (const name of ['__proto__', 'constructor', '__defineGetter__', 'toString', 'hasOwnProperty']) {
    const outcome = renderGoTemplate(`echo {{ ${name} }}`, entity);
    assert.equal(outcome.ok, false, name);
    const piped = renderGoTemplate(`echo {{ .name | ${name} }}`, entity);
    assert.equal(piped.ok, false, name);
  }
});
