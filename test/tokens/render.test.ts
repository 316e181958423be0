// Ruby's to_s and inspect, as legacy rendered substituted values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rubyInspect, rubyToS } from '../../src/tokens/render.js';

test('to_s: strings as they are, integers plainly, Floats as Ruby writes them (exponent below 1e-4 and from 1e16), collections in inspect form', () => {
  assert.equal(rubyToS('web'), 'web');
  assert.equal(rubyToS(42), '42');
  assert.equal(rubyToS(-3), '-3');
  assert.equal(rubyToS(2.5), '2.5');
  assert.equal(rubyToS(0.0001), '0.0001');
  assert.equal(rubyToS(123456.789), '123456.789');
  assert.equal(rubyToS(1e20), '100000000000000000000', 'an integer that JSON can write is an Integer to Ruby');
  assert.equal(rubyToS(1e21), '1.0e+21');
  assert.equal(rubyToS(1.5e25), '1.5e+25');
  assert.equal(rubyToS(-2.25e300), '-2.25e+300');
  assert.equal(rubyToS(0.00001), '1.0e-05');
  assert.equal(rubyToS(1.5e-7), '1.5e-07');
  assert.equal(rubyToS(-3.25e-120), '-3.25e-120');
  assert.equal(rubyToS(Infinity), 'Infinity');
  assert.equal(rubyToS(-Infinity), '-Infinity');
  assert.equal(rubyToS(NaN), 'NaN');
  assert.equal(rubyToS(true), 'true');
  assert.equal(rubyToS(null), 'null');
  assert.equal(rubyToS(['a', 1, null]), '["a", 1, nil]');
  assert.equal(rubyToS({ a: 1 }), '{:a=>1}');
});

test('inspect: nil, quoted strings, symbol keys where Ruby writes them bare, quoted ones elsewhere', () => {
  assert.equal(rubyInspect(undefined), 'nil');
  assert.equal(rubyInspect('say "hi"'), '"say \\"hi\\""');
  assert.equal(rubyInspect({}), '{}');
  assert.equal(rubyInspect([]), '[]');
  assert.equal(rubyInspect({ name: 'x', 'dotted.key': [true, { _n: 2 }] }), '{:name=>"x", :"dotted.key"=>[true, {:_n=>2}]}');
  assert.equal(rubyInspect({ '9lives': 1 }), '{:"9lives"=>1}');
});
