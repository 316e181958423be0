// The agent WebSocket's frame format (type, newline, payload) and the nesting check read from a JSON payload's bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bytesNestTooDeep, decodeFrame, encodeFrame, MESSAGE } from '../../src/agentd/frames.js';

test('a frame is its type, a newline and its payload, as text or bytes', () => {
  assert.equal(encodeFrame(MESSAGE.keepalive, '{"a":1}').toString(), 'keepalive\n{"a":1}');
  const bytes = Buffer.from([0x00, 0xff, 0x0a, 0x01]);
  assert.deepEqual(encodeFrame(MESSAGE.checkRequest, bytes), Buffer.concat([Buffer.from('check_request\n'), bytes]));
  assert.equal(encodeFrame(MESSAGE.event, '').toString(), 'event\n');
});

test('a frame decodes to its type and payload; the payload keeps its own newlines and bytes', () => {
  const payload = Buffer.from([0x7b, 0x0a, 0x00, 0xff, 0x0a, 0x7d]);
  const decoded = decodeFrame(encodeFrame(MESSAGE.entityConfig, payload));
  assert.equal(decoded?.type, 'entity_config');
  assert.deepEqual(decoded?.payload, payload);
  assert.deepEqual(decodeFrame(Buffer.from('event\n')), { type: 'event', payload: Buffer.alloc(0) });
  assert.deepEqual(decodeFrame(Buffer.from('\n{}')), { type: '', payload: Buffer.from('{}') });
});

test('a frame without a newline is no frame', () => {
  assert.equal(decodeFrame(Buffer.from('keepalive{"a":1}')), null);
  assert.equal(decodeFrame(Buffer.alloc(0)), null);
});

test('the message types are the Sensu Go transport names', () => {
  assert.deepEqual(MESSAGE, { keepalive: 'keepalive', event: 'event', entityConfig: 'entity_config', checkRequest: 'check_request' });
});

const nested = (depth: number, open = '[', close = ']') => Buffer.from(open.repeat(depth) + close.repeat(depth));

test('nesting is too deep only past the maximum, counting objects and arrays alike', () => {
  assert.equal(bytesNestTooDeep(nested(5), 5), false);
  assert.equal(bytesNestTooDeep(nested(6), 5), true);
  assert.equal(bytesNestTooDeep(Buffer.from('{"a":[{"b":[1]}]}'), 4), false);
  assert.equal(bytesNestTooDeep(Buffer.from('{"a":[{"b":[1]}]}'), 3), true);
  assert.equal(bytesNestTooDeep(Buffer.from('1'), 0), false);
  assert.equal(bytesNestTooDeep(Buffer.from('{}'), 0), true);
});

test('closed brackets give their depth back: many shallow siblings are not deep', () => {
  const siblings = Buffer.from(`[${Array.from({ length: 100 }, () => '{"a":[1]}').join(',')}]`);
  assert.equal(bytesNestTooDeep(siblings, 3), false);
  assert.equal(bytesNestTooDeep(siblings, 2), true);
});

test('brackets inside strings do not count, escaped quotes included', () => {
  assert.equal(bytesNestTooDeep(Buffer.from(`{"a":"${'[{'.repeat(50)}"}`), 1), false);
  // The escaped quote does not end the string: the brackets after it are still text.
  assert.equal(bytesNestTooDeep(Buffer.from(`{"a":"\\"${'['.repeat(50)}"}`), 1), false);
  // An escaped backslash does end it: the quote after it closes the string and the brackets count.
  assert.equal(bytesNestTooDeep(Buffer.from(`{"a":"\\\\",${'['.repeat(3)}`), 3), true);
});

test('multi-byte characters in strings are read through, not mistaken for brackets', () => {
  assert.equal(bytesNestTooDeep(Buffer.from(JSON.stringify({ a: '漢字 ✓ 🎉 [[[[' })), 1), false);
  assert.equal(bytesNestTooDeep(Buffer.from(JSON.stringify({ a: { b: '漢字' } })), 1), true);
});
