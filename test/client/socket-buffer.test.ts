// One client socket connection's message, read as its bytes arrive, within the budget all connections share.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ByteBudget, MessageReader } from '../../src/client/socket-buffer.js';

const reader = (budget = new ByteBudget(1 << 20), maxBytes = 1 << 20) => new MessageReader(budget, maxBytes);
/** Every reading of `text` pushed in pieces of `size` bytes. */
function readInPieces(text: string | Buffer, size: number, into = reader()) {
  const bytes = Buffer.from(text);
  const readings = [];
  for (let i = 0; i < bytes.length; i += size) readings.push(into.push(bytes.subarray(i, i + size)));
  return readings;
}

test('a whole value in one read; ping; a scalar', () => {
  assert.deepEqual(reader().push(Buffer.from(' {"name":"disk","output":"ok","status":0}\n')), {
    kind: 'value',
    value: { name: 'disk', output: 'ok', status: 0 },
  });
  assert.deepEqual(reader().push(Buffer.from('[1,[2,{"a":"]"}]]')), { kind: 'value', value: [1, [2, { a: ']' }]] });
  assert.deepEqual(reader().push(Buffer.from(' ping\r\n')), { kind: 'ping' });
  assert.deepEqual(reader().push(Buffer.from('42')), { kind: 'value', value: 42 });
});

test('a value trickled a byte at a time closes exactly once, at its last brace, with braces, quotes and escapes in strings', () => {
  const text = '{"output":"a } \\" { ] [ \\\\","nested":{"list":[1,2,{"x":"\\u00e9"}]}}';
  const readings = readInPieces(text, 1);
  assert.deepEqual(readings.slice(0, -1), Array(text.length - 1).fill({ kind: 'incomplete' }));
  assert.deepEqual(readings.at(-1), { kind: 'value', value: JSON.parse(text) });
});

test('a character split across reads survives', () => {
  const text = '{"output":"héllo → ☃ 😀"}';
  for (const size of [1, 2, 3, 5]) assert.deepEqual(readInPieces(text, size).at(-1), { kind: 'value', value: JSON.parse(text) }, `pieces of ${size}`);
});

test('what can never parse is unparseable at once, and the reader stays so; an unfinished scalar waits', () => {
  assert.deepEqual(reader().push(Buffer.from('{"a":1} x')), { kind: 'unparseable' }, 'bytes after the value');
  assert.deepEqual(reader().push(Buffer.from('{"a":1,}')), { kind: 'unparseable' }, 'a closed value that does not parse');
  const dead = reader();
  dead.push(Buffer.from('{"a":1}}'));
  assert.deepEqual(dead.push(Buffer.from('{"b":2}')), { kind: 'unparseable' });
  assert.deepEqual(reader().push(Buffer.from('pin')), { kind: 'incomplete' });
  assert.deepEqual(readInPieces('x'.repeat(5000), 1000).at(-1), { kind: 'unparseable' }, 'a non-container past 4096 bytes');
});

test('a message larger than a reader may hold is over budget; its bytes go back to the budget', () => {
  const budget = new ByteBudget(1 << 20);
  const small = reader(budget, 10_000);
  const readings = readInPieces(`{"output":"${'x'.repeat(20_000)}"}`, 4000, small);
  assert.deepEqual(readings.at(-1), { kind: 'unparseable' });
  assert.ok(readings.some((r) => r.kind === 'over-budget'));
  assert.equal(budget.used, 0);
});

test('an unfinished message holds budget until it completes or is released', () => {
  const budget = new ByteBudget(1 << 20);
  const open = reader(budget);
  assert.deepEqual(open.push(Buffer.from('{"a":')), { kind: 'incomplete' });
  assert.ok(budget.used > 0);
  open.release();
  assert.equal(budget.used, 0);
});

test('the budget keeps a quarter for small messages: a large take stops at three quarters, a small one at the limit', () => {
  const budget = new ByteBudget(1000);
  assert.equal(budget.take(700, true), true);
  assert.equal(budget.take(100, true), false, 'past 750 for a large buffer');
  assert.equal(budget.take(300, false), true, 'a small one may use the rest');
  assert.equal(budget.take(1, false), false);
  budget.give(500);
  assert.equal(budget.used, 500);
});
