// The rehearsal decides compile's own filters in plain code instead of the sandbox: on every combination of the
// fields they read, the verdict must be the one the sandbox gives for the very filters compile writes.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { filterAllows } from '../../src/v2/event-filters.js';
import { buildSettings } from '../../src/config/build.js';
import { compileSettings } from '../../src/compile/index.js';
import { loadExpressionSandbox } from '../../src/js-sandbox/expressions.js';
import { nativeVerdict } from '../../src/rehearsal/native-filters.js';

before(() => loadExpressionSandbox());

function compiledFilters(): Map<string, Record<string, any>> {
  const config = {
    client: { name: 'web-1', address: '127.0.0.1', subscriptions: [] },
    handlers: { mail: { type: 'pipe', command: 'true' } },
    checks: { disk: { command: 'true', interval: 60, subscribers: ['all'], handlers: ['mail'] } },
  };
  const files = [{ path: 'c.json', text: JSON.stringify(config), data: config, diagnostics: [] }];
  const { resources } = compileSettings(buildSettings(files, {}).settings!, files, 'default');
  return new Map(resources.filter((r) => r.type === 'EventFilter').map((r) => [r.metadata.name, r.spec as Record<string, any>]));
}

const ANNOTATIONS = [
  undefined,
  {},
  { 'checkbridge.io/auto-resolve': 'false' },
  { 'checkbridge.io/auto-resolve': 'true' },
  { 'checkbridge.io/type': 'metric' },
  { 'checkbridge.io/type': 'standard', 'checkbridge.io/auto-resolve': 'false' },
];

/** Events as the rehearsal makes them (annotations on the check's metadata) and with annotations on the check itself. */
function* events() {
  for (const status of [0, 1, 2, 3, 127])
    for (const state of ['passing', 'failing', 'flapping'])
      for (const previous of [null, 0, 1, 2])
        for (const annotations of ANNOTATIONS)
          for (const onMetadata of [true, false]) {
            const history = [...(previous === null ? [] : [{ status: previous, executed: 1 }]), { status, executed: 2 }];
            const metadata = { name: 'disk', namespace: 'default', ...(onMetadata && annotations ? { annotations } : {}) };
            yield {
              entity: { metadata: { name: 'web-1', namespace: 'default' } },
              check: { status, state, history, is_silenced: false, metadata, ...(!onMetadata && annotations ? { annotations } : {}) },
              timestamp: 1_700_000_000,
            };
          }
}

test("compile's checkbridge-handled and not-flapping filters: the plain-code verdict is the sandbox's, on every combination", async () => {
  const filters = compiledFilters();
  let compared = 0;
  for (const name of ['checkbridge-handled', 'not-flapping']) {
    const filter = filters.get(name);
    assert.ok(filter, `compile writes ${name}`);
    for (const event of events()) {
      const native = nativeVerdict(filter, event);
      assert.ok(native, `${name} is decided in plain code (compile's text unchanged) for ${JSON.stringify(event.check)}`);
      const sandbox = await filterAllows(filter, event, Date.now());
      assert.equal(sandbox.failed, undefined);
      assert.equal(native.allowed, sandbox.allowed, `${name} on ${JSON.stringify(event.check)}`);
      compared++;
    }
  }
  assert.equal(compared, 2 * 5 * 3 * 4 * ANNOTATIONS.length * 2);
});

test('any other filter, a time window, or fields of another type go to the sandbox', () => {
  const handled = compiledFilters().get('checkbridge-handled')!;
  const event = { check: { status: 2, state: 'failing', history: [], metadata: { name: 'disk' } } };
  assert.ok(nativeVerdict(handled, event));
  assert.equal(nativeVerdict({ ...handled, expressions: [`${handled.expressions[0]} `] }, event), null, 'another text');
  assert.equal(nativeVerdict({ ...handled, action: 'deny' }, event), null, 'another action');
  assert.equal(nativeVerdict({ ...handled, expressions: [...handled.expressions, 'true'] }, event), null, 'more expressions');
  assert.equal(nativeVerdict({ ...handled, when: { days: { all: [{ begin: '00:00', end: '01:00' }] } } }, event), null, 'a time window');
  assert.equal(nativeVerdict(handled, { check: { ...event.check, status: '2' } }), null, 'a status that is not a number');
  assert.equal(
    nativeVerdict(handled, { check: { ...event.check, metadata: { annotations: { 'checkbridge.io/type': 1 } } } }),
    null,
    'an annotation not a string',
  );
  assert.equal(nativeVerdict({ action: 'allow', expressions: ['event.check.status != 0'] }, event), null, "a user's filter");
});
