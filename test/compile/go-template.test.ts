// go-template: which texts Go's text/template parser (with Sensu's functions) refuses, and escaping literal text so it renders as written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeTemplateText, goTemplateProblem } from '../../src/compile/go-template.js';

test('escaped literal text parses, whatever braces it holds, and only {{ is rewritten', () => {
  assert.equal(escapeTemplateText('a {{ b }} c'), 'a {{"{{"}} b }} c');
  assert.equal(escapeTemplateText('}} {'), '}} {');
  for (const text of ['a {{ b }}', '{{{{', '{{ .x', '{{ if }}', 'plain']) assert.equal(goTemplateProblem(escapeTemplateText(text)), null, text);
});

test('quoted strings may hold the closing delimiter; an unterminated one is refused', () => {
  assert.equal(goTemplateProblem('{{ "}}" }}'), null);
  assert.equal(goTemplateProblem('{{ `a}}b` }}'), null);
  assert.equal(goTemplateProblem("{{ 'a' }}"), null, 'a character constant');
  assert.equal(goTemplateProblem('{{ "abc'), 'unclosed action');
  assert.equal(goTemplateProblem("{{ 'ab' }}"), 'unterminated quoted string');
  assert.equal(goTemplateProblem('a }} b'), null, 'a lone closing delimiter is text');
  assert.equal(goTemplateProblem('{{ .a }} {{'), 'unclosed action');
});

test('trim markers need a space; comments must close before the delimiter', () => {
  assert.equal(goTemplateProblem('{{- .a -}}'), null);
  assert.notEqual(goTemplateProblem('{{-.a}}'), null);
  assert.equal(goTemplateProblem('{{/* note */}}'), null);
  assert.equal(goTemplateProblem('{{- /* note */ -}}'), null);
  assert.equal(goTemplateProblem('{{/* note }}'), 'comment ends before closing delimiter');
});

test('operands: fields, numbers, constants and known functions parse; anything else is named', () => {
  for (const good of [
    '{{ .a.b.c }}',
    '{{ . }}',
    '{{ 0x1F }}',
    '{{ 1.5e3 }}',
    '{{ -2 }}',
    '{{ eq .a nil }}',
    '{{ true }}',
    '{{ printf "%d" (len .a) }}',
    '{{ .a | default "x" | printf "%s" }}',
  ])
    assert.equal(goTemplateProblem(good), null, good);
  assert.match(goTemplateProblem('{{ .1a }}')!, /^bad character in field name: \.1a/);
  assert.equal(goTemplateProblem('{{ # }}'), 'unexpected "#" in command');
  assert.equal(goTemplateProblem('{{ template "t" nope }}'), 'function "nope" not defined');
});

test('pipelines: parentheses must balance and every command needs a value', () => {
  assert.equal(goTemplateProblem('{{ (.a }}'), 'unclosed left paren');
  assert.equal(goTemplateProblem('{{ .a) }}'), 'unexpected right paren');
  assert.equal(goTemplateProblem('{{ | .a }}'), 'missing value for command');
  assert.equal(goTemplateProblem('{{ .a | }}'), 'missing value for command');
  assert.equal(goTemplateProblem('{{ if }}{{ end }}'), 'missing value for command');
});

test('variables must be declared before use; $ always is', () => {
  assert.equal(goTemplateProblem('{{ $x := .a }}{{ $x }}'), null);
  assert.equal(goTemplateProblem('{{ $ }}{{ $.name }}'), null);
  assert.equal(goTemplateProblem('{{ $y }}'), 'undefined variable "$y"');
  assert.equal(goTemplateProblem('{{ $x }}{{ $x := 1 }}'), 'undefined variable "$x"');
  assert.equal(goTemplateProblem('{{ = .a }}'), 'unexpected "="');
  assert.equal(goTemplateProblem('{{ .a := 1 }}'), 'unexpected ":="');
  assert.equal(goTemplateProblem('{{ with $v := .a }}{{ $v }}{{ end }}'), null);
});

test('range may declare an index and an element variable', () => {
  assert.equal(goTemplateProblem('{{ range $i, $v := .a }}{{ $i }}={{ $v }}{{ end }}'), null);
  assert.equal(goTemplateProblem('{{ range $i, $v := .a }}{{ $w }}{{ end }}'), 'undefined variable "$w"');
});

test('blocks: if, with, range, define and block need an end; else only inside if, with or range', () => {
  assert.equal(goTemplateProblem('{{ if .a }}{{ else if .b }}{{ else }}{{ end }}'), null);
  assert.equal(goTemplateProblem('{{ with .a }}{{ else with .b }}{{ end }}'), null);
  assert.equal(goTemplateProblem('{{ if .a }}{{ range .b }}{{ end }}'), 'unexpected EOF (an unclosed {{if}})');
  assert.equal(goTemplateProblem('{{ else }}'), 'unexpected {{else}}');
  assert.equal(goTemplateProblem('{{ .a }}{{ else }}'), 'unexpected {{else}}');
  assert.equal(goTemplateProblem('{{ if .a }}{{ else range .b }}{{ end }}'), 'unexpected token after else');
  assert.equal(goTemplateProblem('{{ if .a }}{{ else if }}{{ end }}'), 'missing value for command');
  assert.equal(goTemplateProblem('{{ if .a }}{{ end x }}'), 'unexpected token after end');
  assert.equal(goTemplateProblem('{{ define "t" }}x{{ end }}{{ template "t" . }}'), null);
  assert.equal(goTemplateProblem('{{ define t }}{{ end }}'), 'missing name in define clause');
  assert.equal(goTemplateProblem('{{ block "b" . }}x{{ end }}'), null);
  assert.equal(goTemplateProblem('{{ block "b" . }}x'), 'unexpected EOF (an unclosed {{block}})');
});

test('break and continue only inside a range, however deeply nested', () => {
  assert.equal(goTemplateProblem('{{ range .a }}{{ if .b }}{{ break }}{{ end }}{{ continue }}{{ end }}'), null);
  assert.equal(goTemplateProblem('{{ break }}'), '{{break}} outside {{range}}');
  assert.equal(goTemplateProblem('{{ if .a }}{{ continue }}{{ end }}'), '{{continue}} outside {{range}}');
});
