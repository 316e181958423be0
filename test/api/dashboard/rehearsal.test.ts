import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { registerRehearsal } from '../../../src/api/dashboard/rehearsal.js';
import { v2Deps } from '../../helpers/v2-api.js';

const REHEARSAL = '/api/checkbridge/v1/rehearsal';
const AT = 1_700_000_000_000;

// A fastify instance with the rehearsal route alone, over a real store.
function rehearsal(t: TestContext) {
  const { deps, store } = v2Deps(t);
  const app = Fastify({ logger: false });
  registerRehearsal(app, deps);
  t.after(() => app.close());
  return { app, store };
}

test('the rehearsal before any event: no configuration and nothing seen', async (t) => {
  const { app } = rehearsal(t);
  assert.deepEqual((await app.inject(REHEARSAL)).json(), { configuration: null, since: null, skipped: 0, checks: [], seen: 0, agreed: 0, diverged: 0 });
});

test('the rehearsal per check, with the totals seen, agreeing and diverging over every check', async (t) => {
  const { app, store } = rehearsal(t);
  store.rehearsal.begin('config-1', AT);
  const why = { handlers: { legacy: ['mail'], v2: [] } };
  store.rehearsal.record(
    [
      { check: 'disk', at: AT + 1, divergence: null },
      { check: 'disk', at: AT + 2, divergence: why },
      { check: 'cpu', at: AT + 3, divergence: null },
    ],
    4,
  );
  const report = (await app.inject(REHEARSAL)).json();
  assert.deepEqual([report.configuration, report.since, report.skipped], ['config-1', AT, 4]);
  assert.deepEqual([report.seen, report.agreed, report.diverged], [3, 2, 1]);
  const disk = report.checks.find((c: { check: string }) => c.check === 'disk');
  assert.deepEqual([disk.seen, disk.agreed, disk.diverged, disk.first.length], [2, 1, 1, 1]);
});
