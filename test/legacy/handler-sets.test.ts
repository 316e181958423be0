import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveHandlers, handlerNames } from '../../src/legacy/handler-sets.js';
import { settingsOf } from '../helpers/settings.js';

const settings = settingsOf({
  handlers: {
    nested_set_one: { type: 'set', handlers: ['nested_set_two'] },
    nested_set_two: { type: 'set', handlers: ['debug', 'file', 'nested_set_three'] },
    nested_set_three: { type: 'set', handlers: ['file'] },
    file: { type: 'pipe', command: 'cat > /dev/null' },
    default: { type: 'set', handlers: ['debug'] },
    loop: { type: 'set', handlers: ['loop', 'file'] },
    both: { type: 'set', handlers: ['file', 'nested_set_three'] },
  },
});

test('the reference vector: a nested set two levels deep gives [debug, file]; the third level is refused', () => {
  const { handlers, errors } = resolveHandlers(settings, ['nested_set_one']);
  assert.deepEqual(
    handlers.map((h) => h.name),
    ['debug', 'file'],
  );
  assert.deepEqual(errors, [{ name: 'nested_set_three', message: 'handler sets cannot be deeply nested' }]);
});

test('a set containing itself is reported as a loop and the rest still resolves; duplicates are removed', () => {
  const loop = resolveHandlers(settings, ['loop']);
  assert.deepEqual(
    loop.handlers.map((h) => h.name),
    ['file'],
  );
  assert.deepEqual(loop.errors, [{ name: 'loop', message: 'handler set loop: loop -> loop' }]);
  assert.deepEqual(
    resolveHandlers(settings, ['both', 'file']).handlers.map((h) => h.name),
    ['file'],
  );
});

test('unknown handlers are skipped with the legacy message; handlers wins over handler, default when none', () => {
  assert.deepEqual(resolveHandlers(settings, ['nope', 'file']).errors, [{ name: 'nope', message: 'unknown handler' }]);
  assert.deepEqual(handlerNames({ handlers: ['a', 'b'], handler: 'c' }), ['a', 'b']);
  assert.deepEqual(handlerNames({ handler: 'c' }), ['c']);
  assert.deepEqual(handlerNames({}), ['default']);
  assert.deepEqual(
    resolveHandlers(settings, handlerNames({})).handlers.map((h) => [h.name, h.type]),
    [['debug', 'extension']],
  );
});
