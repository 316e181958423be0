import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { toYaml } from '../../src/compile/yaml-emit.js';

test('the YAML emitter round-trips JSON values through a full YAML parser', () => {
  const samples: Record<string, unknown>[] = [
    { a: 1, b: 'x y', c: [], d: {}, e: [{ f: 1, g: [1, 2], h: { i: null } }, 'str', [1, [2]]], 'weird key': 'yes', t: true, n: null },
    {
      s: 'a: b',
      q: '"quoted"',
      m: 'line\nbreak',
      z: '0123',
      neg: -1.5,
      empty: '',
      tab: 'a\tb',
      hash: 'x # y',
      dash: '- item',
      colon: 'key:',
      star: '*',
      amp: '&a',
      unicode: 'é ☃',
      trailing: 'x ',
    },
    {
      nested: { deep: { deeper: [{}, [], [{ a: [{ b: 'c' }] }]] } },
      list: [[[]]],
      reserved: ['on', 'off', 'No', 'NULL', '~', 'y'],
      numbers: ['1e3', '0x1F', '.5', '+1'],
    },
    {
      command: 'df -P / | awk \'NR==2 { print "{{ .labels.x | default \\"1\\" }}" }\'',
      expressions: ['event.check.status == 2', '(entity.subscriptions.indexOf("http") >= 0)'],
    },
  ];
  for (const sample of samples) assert.deepEqual(parse(toYaml(sample)), sample, toYaml(sample));
});
