import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { filterAllows } from '../../src/v2/event-filters.js';
import { buildSettings } from '../../src/config/build.js';
import { compileSettings } from '../../src/compile/index.js';
import { loadExpressionSandbox } from '../../src/js-sandbox/expressions.js';

// Expressions run in the sandbox, which the daemon loads at start.
before(() => loadExpressionSandbox());

const event = (status: number, occurrences: number, extra: Record<string, unknown> = {}) => ({
  entity: { metadata: { name: 'web-1' }, labels: { environment: 'production' } },
  check: {
    status,
    occurrences,
    occurrences_watermark: occurrences,
    interval: 60,
    history: [{ status: status === 0 ? 2 : 0 }, { status }],
    annotations: { 'fatigue_check/occurrences': '2', 'fatigue_check/interval': '1800' },
    ...extra,
  },
});

test('EventFilter: allow, deny, when, and a failing expression', async () => {
  const allow = { action: 'allow', expressions: ['event.check.status == 2', 'event.entity.labels.environment == "production"'] };
  assert.equal((await filterAllows(allow, event(2, 1), Date.now())).allowed, true);
  assert.equal((await filterAllows(allow, event(1, 1), Date.now())).allowed, false);
  assert.equal((await filterAllows({ ...allow, action: 'deny' }, event(2, 1), Date.now())).allowed, false);
  const never = { days: { all: [{ begin: '00:00:00', end: '00:00:01' }] } };
  assert.equal(
    (await filterAllows({ ...allow, when: never }, event(1, 1), Date.parse('2026-11-22T12:00:00'))).allowed,
    true,
    'outside its window a filter does not apply',
  );
  const broken = await filterAllows({ action: 'allow', expressions: ['event.nope.deeper == 1'] }, event(2, 1), Date.now());
  assert.deepEqual([broken.allowed, typeof broken.error], [false, 'string']);
  assert.equal(
    (await filterAllows({ action: 'allow', expressions: ['while (true) {}'] }, event(2, 1), Date.now())).allowed,
    false,
    'a runaway expression is stopped',
  );
});

test('compiled filters decide as the legacy ones did: attributes with eval, and the occurrences filter', async () => {
  const config = {
    client: { name: 'web-1', address: '127.0.0.1', subscriptions: [] },
    filters: { recurrences: { attributes: { occurrences: 'eval: value == 1 || value % 30 == 0', client: { environment: 'production' } } } },
    handlers: { mail: { type: 'pipe', command: 'true', filters: ['recurrences', 'occurrences'] } },
  };
  const files = [{ path: 'c.json', text: JSON.stringify(config), data: config, diagnostics: [] }];
  const { resources } = compileSettings(buildSettings(files, {}).settings!, files, 'default');
  const filter = (name: string) => resources.find((r) => r.type === 'EventFilter' && r.metadata.name === name)!.spec;
  const recurrences = filter('recurrences');
  assert.equal((await filterAllows(recurrences, event(2, 1), Date.now())).allowed, true);
  assert.equal((await filterAllows(recurrences, event(2, 30), Date.now())).allowed, true);
  assert.equal((await filterAllows(recurrences, event(2, 31), Date.now())).allowed, false);
  // occurrences: n = 2 and refresh 1800 at a 60 s interval: handled at 2, 32, 62; a resolve after enough passes.
  const occurrences = filter('occurrences');
  const allowed = async (status: number, n: number, watermark = n) =>
    (await filterAllows(occurrences, event(status, n, { occurrences_watermark: watermark }), Date.now())).allowed;
  assert.deepEqual(await Promise.all([1, 2, 3, 31, 32, 62].map((n) => allowed(2, n))), [false, true, false, false, true, true]);
  assert.equal(await allowed(0, 1, 3), true, 'a resolve after enough occurrences');
  assert.equal(await allowed(0, 1, 1), false, 'a resolve below the watermark');
});
