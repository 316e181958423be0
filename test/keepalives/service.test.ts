// The keepalive monitors as a service: they run only where elected and allowed, one interval after leading or a
// broker's return, and stop when this server follows.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { Keepalives } from '../../src/keepalives/service.js';
import { EmbeddedEventStore } from '../../src/store/tables/embedded-event-store.js';
import { ManualClock } from '../../src/schedule/clock.js';
import { settingsOf } from '../helpers/settings.js';
import { capturedLogger } from '../helpers/log-capture.js';
import { sqliteIntake } from '../helpers/sqlite-intake.js';
import { until } from '../helpers/wait.js';

const NOW_MS = 1_700_000_000_000;

function keepalivesOf(t: TestContext, allowed: { may: boolean }) {
  const { store, intake } = sqliteIntake(t);
  const settings = settingsOf({ checkbridge: { entity_limit: 0 } });
  const service = new Keepalives({
    store,
    events: new EmbeddedEventStore(store.resources),
    intake,
    settings: () => settings,
    results: intake,
    logger: capturedLogger().logger,
    clock: new ManualClock(NOW_MS),
    monitorMs: 20,
    mayMonitor: () => allowed.may,
  });
  t.after(() => service.stop());
  // A client whose last keepalive is long past its critical threshold.
  store.putClient({ name: 'silent', address: 'silent', subscriptions: [], timestamp: NOW_MS / 1000 - 3600 });
  const failed = () => (store.getResult('silent', 'keepalive')?.check as { status?: number } | undefined)?.status === 2;
  return { service, failed };
}

test("elected, the monitors' passes raise the keepalive of a silent client", async (t) => {
  const { service, failed } = keepalivesOf(t, { may: true });
  assert.equal(service.name, 'keepalive monitors');
  await service.start();
  service.lead();
  assert.ok(await until(failed, 5000), 'the keepalive failure was raised');
});

test('not elected, or not allowed to monitor now, no pass raises anything', async (t) => {
  const allowed = { may: false };
  const { service, failed } = keepalivesOf(t, allowed);
  service.lead();
  // Several intervals go by while monitoring is not allowed.
  await new Promise((resolve) => setTimeout(resolve, 150));
  assert.equal(failed(), false);
  service.follow();
  allowed.may = true;
  // A broker's return restarts only monitors that run: a follower's stay off.
  service.reconnected();
  await new Promise((resolve) => setTimeout(resolve, 150));
  assert.equal(failed(), false);
  service.lead();
  assert.ok(await until(failed, 5000));
});
